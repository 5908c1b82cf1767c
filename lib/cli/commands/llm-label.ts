import "server-only";
import { type Db, getDb, prepareDb } from "@/lib/db/client";
import { isOneOf, JOB_STATE, LLM_RUN_STATUS } from "@/lib/db/enums";
import { findEventBySlug } from "@/lib/events/event-lookup";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import { queueLlmRun } from "@/lib/jobs/llm-label-job";
import { drainJobs, type JobRegistry } from "@/lib/jobs/runner";
import { minorToMajor } from "@/lib/text/format";
import { tokenCostCents } from "@/lib/crowd/llm/label-run";
import { parseCliArgs } from "../args";
import { CliError } from "../errors";
import { HUMAID_SCHEME_SLUG } from "@/lib/labels/schemes";
import { labelFile } from "./llm-label-file";

const USAGE = `usage: accord llm label --event SLUG [--model M] [--passes N] [--temperature T] [--json]
       accord llm label --file FILE [--scheme SLUG] [--model M] [--temperature T]

Labels every tweet of the event (its unknown tweets, in batches shaped like its HITs with gold) with the language
model endpoint saved in Settings (default: the local LLM simulator, model accord-sim-1), as a recorded job
(llm-label). A few gold tweets are shown to the model as examples and are not graded in that run; the rest of the
gold is graded per batch like a worker's assignment. The run's cost (reported tokens × the prices in Settings) goes
to the event's ledger and counts against its budget cap.

Prints one line:
run <id> event=<slug> model=<model> status=<done|failed|cancelled> tweets=<n> labelled=<n> no-answer=<n> gold=<correct>/<total> prompt-tokens=<n> completion-tokens=<n> cost=<amount> <currency>
and, when the run failed, a second line "error: <why>" (exit code 1).

With --file, the tweets of any supported tweet file (HumAID TSV, CSV/TSV, CrisisLex CSV, Twitter JSON/JSONL) are
labelled with the scheme SLUG (default humaid), without an event: no gold, no examples, nothing stored, no ledger.
It prints a CSV on stdout, the header "tweet_id,label" then one row per tweet in file order (an empty label: no
answer), and one line on stderr:
file <name> model=<model> tweets=<n> labelled=<n> no-answer=<n> prompt-tokens=<n> completion-tokens=<n> cost=<amount> USD

  --model M         the model id (default: Settings)
  --passes N        labellings of each tweet, 1–9 (more than 1 only makes sense at temperature > 0)
  --temperature T   0–2 (default: Settings)
  --json            print the run as one JSON object instead: {"runId","event","model","status","tweetsTotal",
                    "tweetsLabelled","noAnswer","goldCorrect","goldTotal","promptTokens","completionTokens","costCents",
                    "currency","error"}`;

export async function run(argv: string[]): Promise<number> {
  try {
    return await runLlmLabel(argv);
  } finally {
    await getDb()
      .$disconnect()
      .catch(() => undefined);
  }
}

function number(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) throw new CliError(`${name} must be a number, not "${value}"`, 2);
  return n;
}

/** The summary line (documented in the usage). */
export function formatRunLine(r: { id: string; model: string; status: string; tweetsTotal: number; tweetsLabelled: number; noAnswer: number; goldCorrect: number; goldTotal: number; promptTokens: number; completionTokens: number; currency: string }, slug: string, costCents: number): string {
  return `run ${r.id} event=${slug} model=${r.model} status=${r.status} tweets=${r.tweetsTotal} labelled=${r.tweetsLabelled} no-answer=${r.noAnswer} gold=${r.goldCorrect}/${r.goldTotal} prompt-tokens=${r.promptTokens} completion-tokens=${r.completionTokens} cost=${minorToMajor(costCents, r.currency).toFixed(Math.round(-Math.log10(minorToMajor(1, r.currency))))} ${r.currency}`;
}

/** The command, with the database, the job registry and output injectable for tests. */
export async function runLlmLabel(
  argv: string[],
  { db, registry = accordJobs(), stdout = process.stdout, stderr = process.stderr }: { db?: Db; registry?: JobRegistry; stdout?: NodeJS.WritableStream; stderr?: NodeJS.WritableStream } = {},
): Promise<number> {
  const { values, positionals } = parseCliArgs(argv, {
    event: { type: "string" },
    model: { type: "string" },
    passes: { type: "string" },
    temperature: { type: "string" },
    file: { type: "string" },
    scheme: { type: "string" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    stdout.write(USAGE + "\n");
    return 0;
  }
  if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}"\n\n${USAGE}`, 2);
  if (Boolean(values.event) === Boolean(values.file)) throw new CliError(`give --event SLUG or --file FILE\n\n${USAGE}`, 2);
  const client = db ?? getDb();
  await prepareDb(client);
  if (values.file) {
    if (values.passes !== undefined || values.json) throw new CliError("--passes and --json are for --event runs", 2);
    return labelFile(client, values.file, { scheme: values.scheme ?? HUMAID_SCHEME_SLUG, model: values.model, temperature: number(values.temperature, "--temperature") }, { stdout, stderr });
  }
  if (!values.event) throw new CliError(`give --event SLUG or --file FILE\n\n${USAGE}`, 2);
  const event = await findEventBySlug(client, values.event);
  if (!event) throw new CliError(`no event with slug "${values.event}"`);
  const { runId } = await queueLlmRun(client, {
    eventId: event.id,
    overrides: { model: values.model, passes: number(values.passes, "--passes"), temperature: number(values.temperature, "--temperature") },
  });
  const terminal: string[] = [LLM_RUN_STATUS.done, LLM_RUN_STATUS.failed, LLM_RUN_STATUS.cancelled];
  let r = await client.llmRun.findUniqueOrThrow({ where: { id: runId } });
  // The job runs here; a background worker that claimed it first is waited for.
  while (!terminal.includes(r.status)) {
    await drainJobs(client, { registry, types: [JOBS.llmLabel.type] });
    r = await client.llmRun.findUniqueOrThrow({ where: { id: runId } });
    const job = r.jobId ? await client.job.findUnique({ where: { id: r.jobId }, select: { state: true, error: true } }) : null;
    if (!terminal.includes(r.status) && job && !isOneOf(job.state, [JOB_STATE.queued, JOB_STATE.running])) break;
    if (!terminal.includes(r.status)) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const costCents = tokenCostCents(r.promptTokens, r.completionTokens, r.inputPricePerMillion, r.outputPricePerMillion);
  if (values.json) {
    const { id, model, status, tweetsTotal, tweetsLabelled, noAnswer, goldCorrect, goldTotal, promptTokens, completionTokens, currency, error } = r;
    stdout.write(JSON.stringify({ runId: id, event: event.slug, model, status, tweetsTotal, tweetsLabelled, noAnswer, goldCorrect, goldTotal, promptTokens, completionTokens, costCents, currency, error }) + "\n");
  } else {
    stdout.write(formatRunLine(r, event.slug, costCents) + "\n");
    if (r.error) stdout.write(`error: ${r.error}\n`);
  }
  return r.status === LLM_RUN_STATUS.done ? 0 : 1;
}
