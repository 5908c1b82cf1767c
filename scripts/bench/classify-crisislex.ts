/**
 * CrisisLexT26 benchmark of Accord's baseline classifier (issue 8): information type, HumAID-style.
 *
 *   npx tsx scripts/bench/classify-crisislex.ts [--seed 1] [--keep-duplicates] [--no-event-models]
 *
 * Every event is split 70/10/20 by label with the export code (lib/export/splits splitHumaid, labels
 * with fewer than 15 tweets of an event dropped), after removing tweets whose preprocessed text
 * repeats an earlier tweet of the same event (retweets; HumAID removes near-duplicates before its
 * splits). The event splits are merged; one model is trained on the merged train split, with C and
 * class weighting chosen by weighted F1 on the merged dev split, and scored on the merged test split
 * (weighted P / R / F1, as HumAID's Table 7). Per event it also prints the merged model's weighted F1
 * on that event's test split and, like HumAID's event-level rows, the weighted F1 of a model trained
 * on that event alone. All eight "Information Type" values are classes ("Not labeled" marks tweets
 * that CrisisLex annotators judged not related to the crisis).
 * Reads ../shared/data/crisislex when it is there (benchmark data, never used by the product or the tests).
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { readTweetFile } from "@/lib/classify/io";
import { preprocessTweet } from "@/lib/classify/preprocess";
import { trainClassifier } from "@/lib/classify/train";
import { splitHumaid } from "@/lib/export/splits";
import { classificationReport } from "@/lib/metrics/classification";
import { requireSharedData } from "./shared-datasets";


type Row = { id: string; text: string; label: string; event: string };

const pct = (x: number) => (100 * x).toFixed(1);

function main() {
  const { values } = parseArgs({
    options: {
      seed: { type: "string", default: "1" },
      "keep-duplicates": { type: "boolean", default: false },
      "no-event-models": { type: "boolean", default: false },
    },
  });
  const data = requireSharedData("CrisisLexT26");
  const events = fs
    .readdirSync(data)
    .filter((d) => fs.existsSync(path.join(data, d, `${d}-tweets_labeled.csv`)))
    .sort();
  const merged = { train: [] as Row[], dev: [] as Row[], test: [] as Row[] };
  const perEvent: Array<{ event: string; train: Row[]; dev: Row[]; test: Row[]; duplicates: number; dropped: string[] }> = [];
  let total = 0;
  let duplicates = 0;
  for (const event of events) {
    const file = path.join(data, event, `${event}-tweets_labeled.csv`);
    const read = readTweetFile(file, { requireText: true, requireLabel: true, labelColumn: "Information Type" }).rows;
    total += read.length;
    const seen = new Set<string>();
    const rows: Row[] = [];
    for (const r of read) {
      const key = preprocessTweet(r.text as string);
      if (!values["keep-duplicates"] && seen.has(key)) continue;
      seen.add(key);
      rows.push({ id: r.id, text: r.text as string, label: r.label as string, event });
    }
    duplicates += read.length - rows.length;
    const split = splitHumaid({ rows, seed: `${values.seed}:${event}` });
    merged.train.push(...split.train);
    merged.dev.push(...split.dev);
    merged.test.push(...split.test);
    perEvent.push({
      event,
      train: split.train,
      dev: split.dev,
      test: split.test,
      duplicates: read.length - rows.length,
      dropped: Object.entries(split.dropped.labels).map(([l, n]) => `${l} (${n})`),
    });
  }
  const labels = (rows: Row[]) => ({ texts: rows.map((r) => r.text), labels: rows.map((r) => r.label) });
  console.log(
    `CrisisLexT26: ${events.length} events, ${total} labelled tweets; ${duplicates} repeated texts removed` +
      `${values["keep-duplicates"] ? " (kept: --keep-duplicates)" : ""}; merged splits train ${merged.train.length} / dev ${merged.dev.length} / test ${merged.test.length}`,
  );

  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const model = trainClassifier({ ...labels(merged.train), dev: labels(merged.dev), options: { metric: "weighted-f1" } });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const pred = model.predict(merged.test.map((r) => r.text));
  const report = classificationReport({ gold: merged.test.map((r) => r.label), pred });
  const lin = model.info.options.linear;
  console.log(
    `merged model: ${model.info.features} features, ${lin.loss} C=${lin.c} class weight ${lin.classWeight} (dev weighted F1 ${pct(model.info.dev?.score ?? 0)}), trained in ${seconds.toFixed(1)} s (CPU ${cpuSeconds.toFixed(1)} s) incl. a ${model.info.search?.length ?? 1}-setting search on dev`,
  );
  console.log("");
  console.log(`merged test (${report.n} tweets): weighted P ${pct(report.weighted.precision)}  R ${pct(report.weighted.recall)}  F1 ${pct(report.weighted.f1)}  · accuracy ${pct(report.accuracy)} · macro F1 ${pct(report.macro.f1)}`);
  console.log("");
  const width = Math.max(...report.perClass.map((c) => c.label.length));
  console.log(`${"information type".padEnd(width)}  precision  recall    F1  support`);
  for (const c of report.perClass) {
    console.log(`${c.label.padEnd(width)}  ${pct(c.precision).padStart(9)}  ${pct(c.recall).padStart(6)}  ${pct(c.f1).padStart(4)}  ${String(c.support).padStart(7)}`);
  }

  console.log("");
  const ew = Math.max(...events.map((e) => e.length));
  console.log(`${"event".padEnd(ew)}  train  dev  test  merged-model F1  event-model F1  dropped labels (<15 tweets)`);
  const eventScores: number[] = [];
  const offset = new Map<string, number>();
  let at = 0;
  for (const e of perEvent) {
    offset.set(e.event, at);
    at += e.test.length;
  }
  for (const e of perEvent) {
    const start = offset.get(e.event) as number;
    const mergedF1 = classificationReport({ gold: e.test.map((r) => r.label), pred: pred.slice(start, start + e.test.length) }).weighted.f1;
    let eventF1 = "";
    if (!values["no-event-models"]) {
      const m = trainClassifier({ ...labels(e.train), dev: labels(e.dev), options: { metric: "weighted-f1" } });
      const f1 = classificationReport({ gold: e.test.map((r) => r.label), pred: m.predict(e.test.map((r) => r.text)) }).weighted.f1;
      eventScores.push(f1);
      eventF1 = pct(f1);
    }
    console.log(
      `${e.event.padEnd(ew)}  ${String(e.train.length).padStart(5)}  ${String(e.dev.length).padStart(3)}  ${String(e.test.length).padStart(4)}  ${pct(mergedF1).padStart(15)}  ${eventF1.padStart(14)}  ${e.dropped.join(", ")}`,
    );
  }
  if (eventScores.length > 0) {
    console.log(`\nmean weighted F1 of the ${eventScores.length} event models: ${pct(eventScores.reduce((a, b) => a + b, 0) / eventScores.length)}`);
  }
}

main();
