import path from "node:path";
import { UserError } from "@/lib/errors";
import { DEFAULT_DEDUPE_THRESHOLD } from "@/lib/ingest/dedupe/normalize";
import { DEFAULT_MAX_WORK_PER_ROW, findNearDuplicates } from "@/lib/ingest/dedupe/similarity-join";
import type { NearDuplicateResult } from "@/lib/ingest/dedupe/types";
import { readTweetFile } from "@/lib/ingest/read-file";
import { parseCliArgs } from "../args";
import { CliError } from "../errors";

const USAGE = `usage: accord dedupe FILE [--threshold 0.75] [--json] [--exact]

Exact near-duplicate detection over any supported tweet file (HumAID TSV, CSV/TSV, CrisisLex CSV,
Twitter API v1.1/v2 JSON or JSONL). Text is lowercased, URLs, @mentions and non-ASCII characters are
removed; tokens are runs of [a-z0-9]; a pair is a near-duplicate when the cosine of the two uni+bigram
count vectors is above the threshold. In input order, a row is a duplicate when an earlier row is a
near-duplicate of it. Every such pair is found, except that one row's search stops after
${DEFAULT_MAX_WORK_PER_ROW.toLocaleString("en-US")} steps (real tweets stay far below; text from a tiny vocabulary reaches it): stderr then says how
many rows were searched only in part. --exact removes that cap (the time can grow with the square of the rows).

--json prints one object: {"rows":N,"duplicates":D,"kept":K,"pairs":[[idA,idB,similarity],...]}
(ids as strings, idA earlier than idB, each pair once). Rows without an id or text are skipped (stderr).
`;

/** Writes the result as the JSON object, streaming the pairs (there can be millions). */
function writeJson(ids: readonly string[], result: NearDuplicateResult, out: (s: string) => void): void {
  const pairs = result.pairs;
  out(`{"rows":${result.rows},"duplicates":${result.duplicates},"kept":${result.rows - result.duplicates},"pairs":[`);
  if (pairs) {
    // each id quoted once, not once per pair (a row can be in thousands of pairs); similarities are finite numbers
    const quoted = ids.map((id) => JSON.stringify(id));
    let buf = "";
    for (let k = 0; k < pairs.count; k++) {
      buf += `${k > 0 ? "," : ""}[${quoted[pairs.a[k]]},${quoted[pairs.b[k]]},${String(pairs.similarity[k])}]`;
      if (buf.length > 1 << 16) {
        out(buf);
        buf = "";
      }
    }
    out(buf);
  }
  out("]}\n");
}

function fmt(n: number): string {
  return n.toLocaleString("en-US");
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs(argv, {
    threshold: { type: "string" },
    json: { type: "boolean", default: false },
    exact: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new CliError(`expected one FILE\n\n${USAGE}`, 2);
  const threshold = values.threshold === undefined ? DEFAULT_DEDUPE_THRESHOLD : Number(values.threshold);
  if (!(threshold > 0 && threshold < 1)) throw new CliError(`--threshold must be a number between 0 and 1 (exclusive), got "${values.threshold}"`, 2);

  const file = path.resolve(positionals[0]);
  const started = performance.now();
  let read: Awaited<ReturnType<typeof readTweetFile>>;
  try {
    read = await readTweetFile(file, { fileName: path.basename(file), limits: { maxFileBytes: Number.MAX_SAFE_INTEGER, maxLineBytes: 64 * 1024 * 1024 } });
  } catch (err) {
    if (err instanceof UserError) throw new CliError(err.message);
    throw err;
  }
  if (read.errors.length > 0) {
    const first = read.errors
      .slice(0, 3)
      .map((e) => `line ${e.line}: ${e.reason}`)
      .join("; ");
    process.stderr.write(`accord dedupe: skipped ${fmt(read.errors.length)} unreadable rows (${first}${read.errors.length > 3 ? "; …" : ""})\n`);
  }
  const ids = read.rows.map((r) => r.externalId);
  const result = findNearDuplicates(
    read.rows.map((r) => r.text),
    { threshold, mode: "all", maxWorkPerRow: values.exact ? Infinity : DEFAULT_MAX_WORK_PER_ROW },
  );
  if (result.capped > 0) {
    process.stderr.write(
      `accord dedupe: ${fmt(result.capped)} rows were searched only in part (their search stopped at ${fmt(result.maxWorkPerRow)} steps) and may have missed a near-duplicate; --exact searches them fully\n`,
    );
  }
  const seconds = (performance.now() - started) / 1000;

  const chunks: string[] = [];
  const out = (s: string) => {
    if (s) chunks.push(s);
  };
  if (values.json) writeJson(ids, result, out);
  else {
    const pairs = result.pairs;
    const lines = [
      `${path.basename(file)} (${read.format.format}), threshold: cosine > ${threshold}`,
      `rows        ${fmt(result.rows)}`,
      `duplicates  ${fmt(result.duplicates)}`,
      `kept        ${fmt(result.rows - result.duplicates)}`,
      `pairs       ${fmt(pairs?.count ?? 0)}`,
      ...(result.tokenless > 0 ? [`no tokens   ${fmt(result.tokenless)} (take no part)`] : []),
      `time        ${seconds.toFixed(2)} s`,
    ];
    if (pairs && pairs.count > 0) {
      const show = Math.min(pairs.count, 10);
      lines.push("", `first ${show} pairs (earlier id, later id, similarity):`);
      for (let k = 0; k < show; k++) lines.push(`  ${ids[pairs.a[k]]}  ${ids[pairs.b[k]]}  ${pairs.similarity[k].toFixed(4)}`);
    }
    out(lines.join("\n") + "\n");
  }
  for (const c of chunks) {
    if (!process.stdout.write(c)) await new Promise((resolve) => process.stdout.once("drain", resolve));
  }
  return 0;
}
