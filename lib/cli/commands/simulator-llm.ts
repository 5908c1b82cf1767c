import { parseLlmFaultSpec } from "@/lib/crowd/llm/simulator/fault-spec";
import { DEFAULT_LLM_MODEL, startLlmSimulator } from "@/lib/crowd/llm/simulator/server";
import { loadLlmTruthFile } from "@/lib/crowd/llm/simulator/truth-file";
import { CliError } from "../errors";

type Num = (value: string | undefined, name: string, opts?: { min?: number; integer?: boolean }) => number | undefined;

/** The LLM simulator's default port (next to the MTurk simulator's 9400 and Prolific's 9410). */
const DEFAULT_PORT = "9420";

/** `accord simulator --llm`: the local OpenAI-compatible LLM simulator, until interrupted. */
export async function runLlmSimulator(
  values: { port?: string; host?: string; seed?: string; truth?: string; faults?: string; key?: string; model?: string },
  num: Num,
): Promise<number> {
  let faults;
  try {
    faults = values.faults === undefined ? {} : parseLlmFaultSpec(values.faults);
  } catch (err) {
    throw new CliError(`--faults: ${err instanceof Error ? err.message : String(err)}`, 2);
  }
  let truth;
  try {
    truth = values.truth === undefined ? undefined : loadLlmTruthFile(values.truth);
  } catch (err) {
    throw new CliError(`--truth: ${err instanceof Error ? err.message : String(err)}`, 2);
  }
  const models = (values.model ?? DEFAULT_LLM_MODEL).split(",").map((m) => m.trim()).filter(Boolean);
  if (models.length === 0) throw new CliError("--model names at least one model", 2);
  let sim;
  try {
    sim = await startLlmSimulator({
      port: num(values.port ?? DEFAULT_PORT, "--port", { integer: true }),
      host: values.host,
      seed: num(values.seed, "--seed", { integer: true }),
      apiKey: values.key,
      models,
      truth,
      faults,
    });
  } catch (err) {
    throw new CliError(`cannot start the LLM simulator: ${err instanceof Error ? err.message : String(err)}`);
  }
  process.stdout.write(
    `LLM simulator listening on ${sim.url} (seed ${values.seed ?? "1"}, models ${models.join(", ")}, ${truth ? `${truth.size} known tweets` : "seeded pseudo-truth"})\n` +
      `openai: new OpenAI({ baseURL: "${sim.baseURL}", apiKey: "${sim.apiKey}" })\n`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await sim.stop();
  process.stdout.write(`LLM simulator stopped (${sim.stats.completions} completions, ${sim.stats.promptTokens + sim.stats.completionTokens} tokens)\n`);
  return 0;
}
