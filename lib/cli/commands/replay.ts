import "server-only";
import { type Db, getDb, prepareDb } from "@/lib/db/client";
import { crowdCurrency } from "@/lib/events/event-currency";
import { findEventBySlug } from "@/lib/events/event-lookup";
import { formatMoney } from "@/lib/text/format";
import { loadRecordedEvent, replayOutcomes, type ReplayOutcome } from "@/lib/analysis/replay";
import { parseCliArgs } from "../args";
import { CliError } from "../errors";

const USAGE = `usage: accord replay --event SLUG [--json]

Replays the event's recorded work (its decided HITs' assignments, in submission order) under other thresholds,
without calling any provider, the event's own thresholds first, then a grid around them: the gold rule at one
correct answer fewer, its own and one more × label 2/3, 3/4, 3/5 × the HIT rule from two accepted tweets fewer
to two more (for the paper's settings: gold 6/10 … 8/10 × HIT 12/20 … 16/20). For each: assignments approved, labels accepted, HITs approved and unresolved (a replay that
wants more assignments than were recorded stops there: out of data), cost (rewards + fees of the approved
assignments, in the crowd's currency; Prolific's fees by its documented rule), and Fleiss' kappa and Krippendorff's alpha over the accepted tweets.

  --json   print one JSON array of objects: {"assignmentApproval","tweetAcceptance","hitApproval","actual",
           "assignmentsApproved","labelsAccepted","hitsApproved","hitsUnresolved","hitsOutOfData","costCents",
           "fleissKappa","krippendorffAlpha"}`;

const KEYS: ReadonlyArray<keyof ReplayOutcome> = [
  "assignmentApproval",
  "tweetAcceptance",
  "hitApproval",
  "actual",
  "assignmentsApproved",
  "labelsAccepted",
  "hitsApproved",
  "hitsUnresolved",
  "hitsOutOfData",
  "costCents",
  "fleissKappa",
  "krippendorffAlpha",
];

export async function run(argv: string[]): Promise<number> {
  try {
    return await runReplay(argv);
  } finally {
    await getDb()
      .$disconnect()
      .catch(() => undefined);
  }
}

/** The command, with the database and output injectable for tests. */
export async function runReplay(argv: string[], { db, stdout = process.stdout }: { db?: Db; stdout?: NodeJS.WritableStream } = {}): Promise<number> {
  const { values, positionals } = parseCliArgs(argv, {
    event: { type: "string" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    stdout.write(USAGE + "\n");
    return 0;
  }
  if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}"\n\n${USAGE}`, 2);
  if (!values.event) throw new CliError(`--event SLUG is required\n\n${USAGE}`, 2);
  const client = db ?? getDb();
  await prepareDb(client);
  const event = await findEventBySlug(client, values.event);
  if (!event) throw new CliError(`no event with slug "${values.event}"`);
  const outcomes = replayOutcomes(await loadRecordedEvent(client, event.id), event.settings);
  if (values.json) stdout.write(JSON.stringify(outcomes.map((o) => Object.fromEntries(KEYS.map((k) => [k, o[k]])))) + "\n");
  else stdout.write(formatReplay(event.slug, outcomes, await crowdCurrency(client, event.provider)) + "\n");
  return 0;
}

function formatReplay(slug: string, rows: ReplayOutcome[], currency: string): string {
  const f = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));
  const head = ["gold", "label", "HIT", "approved", "labels", "HITs ok", "unresolved", "out of data", "cost", "kappa", "alpha"];
  const body = rows.map((r) => [
    r.assignmentApproval + (r.actual ? "*" : ""),
    r.tweetAcceptance,
    r.hitApproval,
    String(r.assignmentsApproved),
    String(r.labelsAccepted),
    String(r.hitsApproved),
    String(r.hitsUnresolved),
    String(r.hitsOutOfData),
    formatMoney(r.costCents, currency),
    f(r.fleissKappa),
    f(r.krippendorffAlpha),
  ]);
  const w = head.map((h, c) => Math.max(h.length, ...body.map((b) => b[c].length)));
  const line = (cells: string[]) => "  " + cells.map((x, c) => (c < 3 ? x.padEnd(w[c]) : x.padStart(w[c]))).join("  ");
  return [`replay of ${slug} under other thresholds (* = the event's own)`, line(head), ...body.map(line)].join("\n");
}
