import { drawConfusionMatrix } from "@/lib/crowd/llm/simulator/model";
import { createRng, seedFrom } from "@/lib/util/random";
import { truthAmong, type TruthOracle } from "./truth";

/** The LLM simulator's default seed (`accord simulator --llm` without --seed): the model an llm-echo worker copies. */
export const LLM_ECHO_MODEL_SEED = 1;

/**
 * The LLM simulator's temperature-0 label of a tweet known by `key` (its textKey, as the simulated workers know the
 * tweets of Accord's pages), among `labels` in the scheme's order: the same truth, confusion matrix and per-tweet
 * uniform as LabellingModel.label(text, labels) with the same seed and oracle (model.ts), so an llm-echo worker
 * writes what the LLM crowd would.
 */
export function llmSimulatorLabel(key: string, labels: string[], truth: TruthOracle | undefined, seed = LLM_ECHO_MODEL_SEED): string | undefined {
  if (labels.length === 0) return undefined;
  const known = truth?.label(key);
  const t = known !== undefined && labels.includes(known) ? known : (truthAmong(undefined, seed, key, labels) as string);
  const row = drawConfusionMatrix(labels, seed).rows[t];
  const u = createRng(seedFrom(seed, "llm-item", key))();
  let acc = 0;
  for (const l of labels) {
    acc += row[l];
    if (u < acc) return l;
  }
  return labels[labels.length - 1];
}
