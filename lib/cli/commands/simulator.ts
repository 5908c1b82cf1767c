import { startSimulator, summarize, type SimulatorFaults } from "@/lib/crowd/simulator/server";
import { parseWorkerMix } from "@/lib/crowd/simulator/workers";
import { parseCliArgs } from "../args";
import { CliError } from "../errors";
import { runLlmSimulator } from "./simulator-llm";
import { runProlificSimulator } from "./simulator-prolific";

const USAGE = `usage: accord simulator [--port 9400] [--host 127.0.0.1] [--seed N] [--workers careful:20,average:10,...]
                        [--truth FILE] [--speed N] [--faults FRACTION] [--throttle RPS] [--latency MS]
                        [--state FILE] [--balance DOLLARS] [--sandbox]
       accord simulator --prolific [--port 9410] [--host 127.0.0.1] [--seed N] [--workers careful:20,...] [--truth FILE]
                        [--speed N] [--faults FRACTION] [--throttle FRACTION] [--state FILE] [--balance MAJOR]
                        [--currency GBP|USD] [--token TOKEN] [--test-participants]
       accord simulator --llm [--port 9420] [--host 127.0.0.1] [--seed N] [--truth FILE] [--key KEY] [--model ID,...]
                        [--faults rate-limit:0.1,server-error:0.05,timeout:0.01,malformed:0.02,out-of-scheme:0.02,retry-after:1,latency:MS]

Runs the local MTurk-compatible simulator (awsJson1.1 on POST /, as the AWS SDK speaks it) with simulated
workers. Point the SDK at it with endpoint http://HOST:PORT, region us-east-1 and any credentials.
  --workers   profiles: careful, average, sloppy, spammer-random, spammer-constant, llm-echo (default: a mix of 30)
  --truth     CSV with tweet_id,label: what is correct for each tweet (workers answer by their accuracy)
  --speed     simulated seconds per real second (default 1)
  --faults    fraction of requests answered with ServiceFault (500)
  --throttle  requests per second above which ThrottlingException "Rate exceeded" is answered
  --state     JSON file: loaded at start when present, saved while running and on exit

--prolific runs the local Prolific simulator instead: the researcher API under http://HOST:PORT/api/v1/ with
"Authorization: Token TOKEN", and simulated participants (the same profiles as --workers; default a mix of 30) who
open each active study's URL, work on its page over HTTP and come back through /submissions/complete?cc=CODE.
  --faults    fraction of API calls answered 500;  --throttle  fraction of money calls answered 429
  --balance   workspace balance in major units (default 10000.00);  --token  the API token (default accord-simulator-token)
  --test-participants  the workspace has test participants enabled (test participant and test studies; off by default)

--llm runs the local LLM simulator instead: OpenAI's chat-completions protocol (POST /v1/chat/completions, GET
/v1/models) with "Authorization: Bearer KEY", labelling with seeded systematic confusions (lib/crowd/llm/simulator/README.md).
  --truth     CSV with text,label: what is correct for each tweet (else a seeded pseudo-truth)
  --key       the API key accepted (default accord-simulator-key);  --model  model ids served (default accord-sim-1)
  --faults    name:rate pairs (rates 0-1; retry-after in seconds, latency in ms)`;

export function num(value: string | undefined, name: string, { min = 0, integer = false }: { min?: number; integer?: boolean } = {}): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) throw new CliError(`${name} must be ${integer ? "an integer" : "a number"} >= ${min}`, 2);
  return n;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCliArgs(argv, {
    port: { type: "string" },
    host: { type: "string", default: "127.0.0.1" },
    seed: { type: "string", default: "1" },
    workers: { type: "string" },
    truth: { type: "string" },
    speed: { type: "string", default: "1" },
    faults: { type: "string" },
    throttle: { type: "string" },
    latency: { type: "string" },
    state: { type: "string" },
    balance: { type: "string" },
    sandbox: { type: "boolean", default: false },
    prolific: { type: "boolean", default: false },
    llm: { type: "boolean", default: false },
    key: { type: "string" },
    model: { type: "string" },
    currency: { type: "string", default: "GBP" },
    token: { type: "string" },
    "test-participants": { type: "boolean", default: false },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  if (values.prolific && values.llm) throw new CliError("--prolific and --llm are different simulators: choose one", 2);
  if (values.prolific) return runProlificSimulator(values, num);
  if (values.llm) return runLlmSimulator(values, num);
  const faultRate = num(values.faults, "--faults");
  if (faultRate !== undefined && faultRate > 1) throw new CliError("--faults is a fraction between 0 and 1", 2);
  const faults: SimulatorFaults = {
    serviceFaultRate: faultRate,
    throttleRate: num(values.throttle, "--throttle", { min: 1 }),
    latencyMs: num(values.latency, "--latency"),
  };
  let workers;
  try {
    workers = values.workers === undefined ? undefined : parseWorkerMix(values.workers);
  } catch (err) {
    throw new CliError(`--workers: ${err instanceof Error ? err.message : String(err)}`, 2);
  }
  const balance = num(values.balance, "--balance");
  let sim;
  try {
    sim = await startSimulator({
      port: num(values.port ?? "9400", "--port", { integer: true }),
      host: values.host,
      seed: num(values.seed, "--seed", { integer: true }),
      clock: "real",
      speedup: num(values.speed, "--speed", { min: 0.001 }),
      workers,
      truth: values.truth,
      faults,
      persistFile: values.state,
      balanceCents: balance === undefined ? undefined : Math.round(balance * 100),
      sandbox: values.sandbox,
    });
  } catch (err) {
    throw new CliError(`cannot start the simulator: ${err instanceof Error ? err.message : String(err)}`);
  }
  const s = summarize(sim.service);
  process.stdout.write(
    `MTurk simulator listening on ${sim.url} (seed ${values.seed}, ${String(s.workers)} workers, speed x${values.speed}, ${String(s.hits)} HITs loaded)\n` +
      `SDK: new MTurkClient({ endpoint: "${sim.url}", region: "us-east-1", credentials: { accessKeyId: "x", secretAccessKey: "x" } })\n`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await sim.stop();
  process.stdout.write(`simulator stopped${values.state ? `; state saved to ${values.state}` : ""}\n`);
  return 0;
}
