import { findNearDuplicates } from "@/lib/ingest/dedupe/similarity-join";
import { adversarialTexts } from "@/lib/ingest/testing/adversarial";
import { readCrisisLexT26, readTweetEval, withPerturbedCopies } from "./dedupe-datasets";

/**
 * Near-duplicate detection on adversarial text (issue 24: 150 words from a 46-word vocabulary) at the
 * default per-row work cap and without one, and the largest per-row work real tweets need (which the
 * default cap must stay far above). `npx tsx scripts/bench/dedupe-adversarial.ts [rows...]` (reads
 * ../shared/data for the real tweets when present).
 */
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(2);
for (const rows of sizes.length > 0 ? sizes : [5_000, 10_000]) {
  const texts = adversarialTexts({ rows });
  for (const cap of [undefined, Infinity]) {
    if (cap === Infinity && rows > 10_000) continue;
    const t0 = performance.now();
    const r = findNearDuplicates(texts, { mode: "all", maxWorkPerRow: cap });
    console.log(`adversarial ${rows} rows, cap ${r.maxWorkPerRow}: ${seconds(t0)} s, ${r.duplicates} duplicates, ${r.capped} capped rows`);
  }
}
try {
  const real = withPerturbedCopies([...(await readCrisisLexT26()), ...readTweetEval()], 200_000);
  const t0 = performance.now();
  const r = findNearDuplicates(real.map((t) => t.text), { mode: "all", maxWorkPerRow: Infinity });
  console.log(`real ${real.length} rows (exact): ${seconds(t0)} s, ${r.duplicates} duplicates, largest work of a row ${r.stats.maxRowWork}`);
  const rc = findNearDuplicates(real.map((t) => t.text), { mode: "all" });
  console.log(`real ${real.length} rows (default cap): ${rc.duplicates} duplicates, ${rc.capped} capped rows`);
} catch (err) {
  console.log(`real tweets skipped: ${err instanceof Error ? err.message : String(err)}`);
}
