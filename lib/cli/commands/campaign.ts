import { readFileSync } from "node:fs";
import type { CampaignSimulationResult } from "@/lib/campaign/simulate";
import { UserError } from "@/lib/errors";
import { parseCliArgs } from "../args";
import { CliError } from "../errors";

const USAGE = `usage: accord campaign simulate --tweets FILE --gold FILE [--truth FILE]
                               [--workers careful:20,average:20,sloppy:5,spammer:5] [--hits N]
                               [--seed S] [--faults 0.1] [--reward CENTS] [--settings FILE] [--json]

Runs a whole campaign without spending money: the HumAID procedure (qualification test, HITs of gold and
unknown tweets, assignments approved or rejected on their gold, labels accepted by agreement, HITs approved or
extended) against the MTurk simulator in this process, with simulated workers, on a temporary database that is
deleted afterwards. The rules are the paper's unless --settings gives others. The same seed gives the same report.

  --tweets   tweets to label (CSV/TSV/JSON as for accord import; an optional label column is the truth)
  --gold     gold tweets with their labels (at least 10: the qualification test and 10 per HIT)
  --truth    CSV tweet_id,label: the true label of the tweets (overrides the tweets' label column)
  --workers  simulated workers, <profile>:<count>: careful, average, sloppy, spammer (split between
             spammer-random and spammer-constant), spammer-random, spammer-constant
  --hits     HITs to publish (default: as many as the tweets fill, 20 unknown tweets each)
  --seed     seed of the packing, the qualification test and the simulation (default 1)
  --faults   fraction of simulator requests answered with a ServiceFault (retried; default 0)
  --reward   reward per assignment in cents (default 50)
  --settings a JSON file with the procedure settings, the same JSON as an event's settings (every rule:
             hitSize, goldPerHit, judgmentsPerTweet, maxJudgmentsPerTweet, assignmentApproval "7/10",
             tweetAcceptance, hitApproval, dynamicOverlap {enabled, initial, maxDisagreements}, extendWhen,
             unresolvedHitLabels, …); absent fields take the paper's values
  --json     print one JSON object: {"hitsPublished","hitsApproved","hitsExtended","assignmentsApproved",
             "assignmentsRejected","tweetsAccepted","tweetsUnresolved","fleissKappa","krippendorffAlpha",
             "averageObservedAgreement","averageMajorityAgreement","costCents","costPerAcceptedLabelCents",
             "acceptedLabelAccuracy","tweetsByJudgments"} (tweetsByJudgments: unknown tweets by their number
             of approved judgments, e.g. {"3":180,"4":12,"5":8})`;

function intOption(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) throw new CliError(`${name} must be an integer >= ${min}`, 2);
  return n;
}

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
    process.stdout.write(USAGE + "\n");
    return sub ? 0 : 2;
  }
  if (sub !== "simulate") throw new CliError(`unknown subcommand "${sub}"\n\n${USAGE}`, 2);
  const { values, positionals } = parseCliArgs(rest, {
    tweets: { type: "string" },
    gold: { type: "string" },
    truth: { type: "string" },
    workers: { type: "string" },
    hits: { type: "string" },
    seed: { type: "string", default: "1" },
    faults: { type: "string", default: "0" },
    reward: { type: "string" },
    settings: { type: "string" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  if (positionals.length > 0) throw new CliError(`unexpected argument "${positionals[0]}"\n\n${USAGE}`, 2);
  if (!values.tweets) throw new CliError(`--tweets FILE is required\n\n${USAGE}`, 2);
  if (!values.gold) throw new CliError(`--gold FILE is required\n\n${USAGE}`, 2);
  const faults = Number(values.faults);
  if (!Number.isFinite(faults) || faults < 0 || faults >= 1) throw new CliError("--faults must be a fraction >= 0 and < 1", 2);

  // Loaded here: the database, the SDK and the simulator are not needed for usage errors.
  const { simulateCampaign, simulationJson } = await import("@/lib/campaign/simulate");
  let result: CampaignSimulationResult;
  try {
    result = await simulateCampaign({
      tweetsFile: values.tweets,
      goldFile: values.gold,
      truthFile: values.truth,
      workers: values.workers,
      hits: intOption(values.hits, "--hits", 1),
      seed: intOption(values.seed, "--seed", 0),
      faults,
      rewardCents: intOption(values.reward, "--reward", 1),
      settings: values.settings === undefined ? undefined : readSettingsFile(values.settings),
      // What is happening, on stderr (stdout holds only the report or the JSON object).
      onProgress: values.json ? undefined : (message) => process.stderr.write(`accord campaign simulate: ${message}\n`),
    });
  } catch (err) {
    if (err instanceof UserError) throw new CliError(err.message);
    throw err;
  }
  process.stdout.write((values.json ? JSON.stringify(simulationJson(result)) : formatReport(result)) + "\n");
  return 0;
}

/** The --settings file as JSON (validated by the procedure's schema inside simulateCampaign). */
function readSettingsFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? "unreadable"}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`${file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

function pct(x: number | null): string {
  return x === null ? "n/a" : `${(x * 100).toFixed(1)}%`;
}

function num(x: number | null): string {
  return x === null ? "n/a" : x.toFixed(4);
}

function int(x: number): string {
  return x.toLocaleString("en-US");
}

function duration(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return [d ? `${d}d` : "", d || h ? `${h}h` : "", `${m}m`].filter(Boolean).join(" ");
}

function dollars(cents: number): string {
  return `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** The readable report of `accord campaign simulate`. */
export function formatReport(r: CampaignSimulationResult): string {
  const mix = Object.entries(r.workers)
    .filter(([, n]) => n > 0)
    .map(([p, n]) => `${p} ${n}`)
    .join(", ");
  const rows: Array<[string, string]> = [
    ["tweets imported", `${int(r.tweetsImported)} unknown, ${int(r.goldImported)} gold${r.importErrorCount ? ` (${int(r.importErrorCount)} rows refused)` : ""}`],
    ["HITs published", `${int(r.hitsPublished)} (${r.assignmentsPerHit} assignments each at ${dollars(r.rewardCents)})${r.tweetsNotPublished ? `; ${int(r.tweetsNotPublished)} tweets left for a later batch` : ""}`],
    ["HITs approved", int(r.hitsApproved)],
    ["HITs extended", `${int(r.hitsExtended)} (given extra assignments)`],
    ["HITs unresolved", int(r.hitsUnresolved)],
    ["assignments approved", int(r.assignmentsApproved)],
    ["assignments rejected", int(r.assignmentsRejected)],
    ["tweets accepted", int(r.tweetsAccepted)],
    ["tweets unresolved", int(r.tweetsUnresolved)],
    ["tweets by judgments", Object.entries(r.tweetsByJudgments).map(([n, c]) => `${int(c)} with ${n}`).join(", ") || "none"],
    ["Fleiss' kappa (first 3)", num(r.fleissKappa)],
    ["observed agreement (first 3)", num(r.averageObservedAgreement)],
    ["Krippendorff's alpha (all)", num(r.krippendorffAlpha)],
    ["majority agreement (all)", num(r.averageMajorityAgreement)],
    ["cost", `${dollars(r.costCents)} (rewards ${dollars(r.rewardsCents)}, fees ${dollars(r.feesCents)})`],
    ["cost per accepted label", r.costPerAcceptedLabelCents === null ? "n/a" : `${r.costPerAcceptedLabelCents.toFixed(2)} cents`],
    ["accepted-label accuracy", r.acceptedLabelAccuracy === null ? "n/a (no true labels)" : `${pct(r.acceptedLabelAccuracy)} of ${int(r.tweetsWithTruth)} with a true label`],
    ["simulated time", duration(r.simulatedSeconds)],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  const lines = [
    `campaign simulation (seed ${r.seed}; workers: ${mix}${r.faults ? `; ${pct(r.faults)} ServiceFaults` : ""})`,
    ...rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`),
  ];
  for (const e of r.importErrors.slice(0, 5)) lines.push(`  note: ${e.file} file line ${e.line}: ${e.reason}`);
  if (r.importErrorCount > 5) lines.push(`  note: … and ${int(r.importErrorCount - 5)} more refused rows`);
  return lines.join("\n");
}
