import "server-only";
import { z } from "zod";
import { type Db, getDb, prepareDb } from "@/lib/db/client";
import { llmCompareReport } from "@/lib/llm-compare/report";
import { parseCliArgs } from "../args";
import { CliError } from "../errors";

export const LLM_COMPARE_USAGE = `usage: accord llm compare --event SLUG [--json] [--alpha A] [--min-tweets N]

The LLM against the crowd on one event (its latest finished LLM run): gold accuracy of both, Cohen's κ of the
LLM's and the accepted labels with a 95% bootstrap interval, the confusion table, where they disagree most, cost
per label, and the LLM-echo test of every worker (README: "The LLM against the crowd"). With --json, one JSON
object with the keys event, run, tweets, goldAccuracy, agreement, kappa, kappaInterval, labels, confusion,
noAnswer, disagreements, cost, echo (their exact shape: README). --alpha: the echo test's false-discovery level
(default 0.05); --min-tweets: disagreement tweets a worker needs to be tested (default 5).`;

const optionsSchema = z.object({
  event: z.string().min(1, "--event SLUG is required"),
  alpha: z.coerce.number().gt(0).lt(1).default(0.05),
  minTweets: z.coerce.number().int().min(1).default(5),
});

const pct = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null, d = 3) => (x === null ? "–" : x.toFixed(d));

/** `accord llm compare`: the report as JSON (--json) or a short text summary. */
export async function runLlmCompare(
  argv: string[],
  { db, stdout = process.stdout }: { db?: Db; stdout?: NodeJS.WritableStream } = {},
): Promise<number> {
  const { values, positionals } = parseCliArgs(
    argv,
    {
      event: { type: "string" },
      json: { type: "boolean", default: false },
      alpha: { type: "string" },
      "min-tweets": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    { allowPositionals: true },
  );
  if (values.help) {
    stdout.write(LLM_COMPARE_USAGE + "\n");
    return 0;
  }
  if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}"\n\n${LLM_COMPARE_USAGE}`, 2);
  const parsed = optionsSchema.safeParse({ event: values.event ?? "", alpha: values.alpha, minTweets: values["min-tweets"] });
  if (!parsed.success) throw new CliError(`${parsed.error.issues.map((i) => i.message).join("; ")}\n\n${LLM_COMPARE_USAGE}`, 2);
  const client = db ?? getDb();
  await prepareDb(client);
  const report = await llmCompareReport(client, parsed.data.event, { alpha: parsed.data.alpha, minTweets: parsed.data.minTweets });
  if (!report) throw new CliError(`no event with slug "${parsed.data.event}"`);
  if (values.json) {
    stdout.write(JSON.stringify(report, null, 2) + "\n");
    return 0;
  }
  if (!report.run) {
    stdout.write(`${report.event}: no finished LLM run yet. Add one with "Add LLM labels" on the event's page or \`accord llm label --event ${report.event}\`.\n`);
    return 0;
  }
  const lines = [
    `${report.event}: ${report.run.model}, run of ${report.run.createdAt}`,
    `gold accuracy   LLM ${pct(report.goldAccuracy.llm.accuracy)} (${report.goldAccuracy.llm.correct}/${report.goldAccuracy.llm.total}) · crowd ${pct(report.goldAccuracy.crowd.accuracy)} (${report.goldAccuracy.crowd.correct}/${report.goldAccuracy.crowd.total})`,
    `Cohen's κ       ${num(report.kappa)} [${report.kappaInterval ? report.kappaInterval.map((x) => num(x)).join(", ") : "–"}] over ${report.tweets.compared} tweets, ${report.tweets.disagreements} disagreements`,
    ...report.disagreements.map((d) => `  accepted ${d.accepted} → LLM ${d.llm}: ${d.count}`),
    `cost per label  LLM ${report.cost.llm?.perLabel !== null && report.cost.llm ? `${report.cost.llm.perLabel.toFixed(5)} ${report.cost.llm.currency}` : "–"} · crowd ${report.cost.crowd.map((c) => `${c.perAcceptedLabel === null ? "–" : c.perAcceptedLabel.toFixed(4)} ${c.currency}`).join(" + ") || "–"}`,
    `echo test       ${report.echo.tested} workers tested, ${report.echo.flagged} flagged at α = ${report.echo.alpha} (BH)`,
    ...report.echo.workers.filter((w) => w.flagged).map((w) => `  ${w.workerId}: ${w.echoes} of ${w.disagreementTweets} (expected ${w.expectedEchoes.toFixed(1)}), adjusted p ${w.pAdjusted?.toExponential(2)}`),
  ];
  stdout.write(lines.join("\n") + "\n");
  return 0;
}
