import { startProlificSimulator } from "@/lib/crowd/prolific/simulator/server";
import { DEFAULT_WORKER_MIX, parseWorkerMix } from "@/lib/crowd/simulator/workers";
import { CliError } from "../errors";

type Num = (value: string | undefined, name: string, opts?: { min?: number; integer?: boolean }) => number | undefined;

/** The Prolific simulator's default port: the one Accord's Prolific provider looks for in simulator mode. */
const DEFAULT_PORT = "9410";

/** `accord simulator --prolific`: the local Prolific simulator with simulated participants, until interrupted. */
export async function runProlificSimulator(
  values: { port?: string; host?: string; seed?: string; workers?: string; truth?: string; speed?: string; faults?: string; throttle?: string; state?: string; balance?: string; currency?: string; token?: string; "test-participants"?: boolean },
  num: Num,
): Promise<number> {
  const fraction = (v: string | undefined, name: string) => {
    const n = num(v, name);
    if (n !== undefined && n > 1) throw new CliError(`${name} is a fraction between 0 and 1 with --prolific`, 2);
    return n;
  };
  const faults = { faultRate: fraction(values.faults, "--faults"), throttleRate: fraction(values.throttle, "--throttle") };
  if (values.currency !== "GBP" && values.currency !== "USD") throw new CliError("--currency is GBP or USD", 2);
  let participants;
  try {
    participants = values.workers === undefined ? DEFAULT_WORKER_MIX : parseWorkerMix(values.workers);
  } catch (err) {
    throw new CliError(`--workers: ${err instanceof Error ? err.message : String(err)}`, 2);
  }
  const balance = num(values.balance, "--balance");
  let sim;
  try {
    sim = await startProlificSimulator({
      port: num(values.port ?? DEFAULT_PORT, "--port", { integer: true }),
      host: values.host,
      seed: num(values.seed, "--seed", { integer: true }),
      speedup: num(values.speed, "--speed", { min: 0.001 }),
      token: values.token,
      balance: balance === undefined ? undefined : Math.round(balance * 100),
      currency: values.currency,
      persistFile: values.state,
      faults,
      participants,
      truth: values.truth,
      testParticipants: values["test-participants"],
    });
  } catch (err) {
    throw new CliError(`cannot start the Prolific simulator: ${err instanceof Error ? err.message : String(err)}`);
  }
  process.stdout.write(
    `Prolific simulator listening on ${sim.url} (seed ${values.seed ?? "1"}, ${String(sim.state.pool?.length ?? 0)} participants, speed x${values.speed ?? "1"}, ${String(Object.keys(sim.state.studies).length)} studies loaded)\n` +
      `API: ${sim.apiUrl} with the header "Authorization: Token ${sim.token}"\n`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await sim.stop();
  process.stdout.write(`simulator stopped${values.state ? `; state saved to ${values.state}` : ""}\n`);
  return 0;
}
