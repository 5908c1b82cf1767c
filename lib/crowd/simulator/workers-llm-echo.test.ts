import { describe, expect, it } from "vitest";
import { LabellingModel } from "@/lib/crowd/llm/simulator/model";
import { createRng } from "@/lib/util/random";
import { textKey, truthFromMap } from "./truth";
import { chooseAnswer, createWorkerPool, LLM_ECHO_RATE } from "./workers";
import { LLM_ECHO_MODEL_SEED, llmSimulatorLabel } from "./workers-llm-echo";

const LABELS = ["caution_and_advice", "displaced_people", "infrastructure_damage", "injured_or_dead_people", "not_humanitarian", "rescue_volunteering", "sympathy_and_support"];
const texts = Array.from({ length: 400 }, (_, i) => `Tweet number ${i} about the flood and the roads`);

describe("the llm-echo worker profile", () => {
  const truth = truthFromMap(new Map(texts.map((t, i) => [textKey(t), LABELS[i % LABELS.length]])));
  const model = new LabellingModel({ seed: LLM_ECHO_MODEL_SEED, truth });

  it("knows the LLM simulator's temperature-0 label of a tweet from its text key, with and without a truth oracle", () => {
    for (const t of texts) expect(llmSimulatorLabel(textKey(t), LABELS, truth)).toBe(model.label(t, LABELS));
    const blind = new LabellingModel({ seed: LLM_ECHO_MODEL_SEED });
    for (const t of texts.slice(0, 50)) expect(llmSimulatorLabel(textKey(t), LABELS, undefined)).toBe(blind.label(t, LABELS));
    // the model makes mistakes: the echo is not the truth
    expect(texts.filter((t) => model.label(t, LABELS) !== truth.label(textKey(t))).length).toBeGreaterThan(20);
  });

  it(`answers the LLM's label about ${LLM_ECHO_RATE * 100}% of the time (plus the average worker's chance agreement), the truth far less where the LLM is wrong`, () => {
    const [w] = createWorkerPool({ seed: 3, mix: { "llm-echo": 1 } });
    expect(w.profile).toBe("llm-echo");
    const rng = createRng(11);
    let same = 0;
    let wrongLlm = 0;
    let copiedWrong = 0;
    for (const t of texts) {
      const key = textKey(t);
      const llm = llmSimulatorLabel(key, LABELS, truth);
      const a = chooseAnswer({ worker: w, options: LABELS, truth: truth.label(key), rng, llmLabel: () => llm });
      if (a === llm) same++;
      if (llm !== truth.label(key)) {
        wrongLlm++;
        if (a === llm) copiedWrong++;
      }
    }
    expect(same / texts.length).toBeGreaterThan(0.8);
    expect(copiedWrong / wrongLlm).toBeGreaterThan(0.7);
  });

  it("leaves the other profiles' pools and answers unchanged: a mix without llm-echo draws the same workers", () => {
    const before = createWorkerPool({ seed: 5, mix: { careful: 3, average: 2, "spammer-constant": 1 } });
    const withEcho = createWorkerPool({ seed: 5, mix: { careful: 3, average: 2, "spammer-constant": 1, "llm-echo": 2 } });
    expect(withEcho.slice(0, 6)).toEqual(before);
    const avg = before.find((x) => x.profile === "average")!;
    const a = texts.map((t, i) => chooseAnswer({ worker: avg, options: LABELS, truth: LABELS[i % 7], rng: createRng(i) }));
    const b = texts.map((t, i) => chooseAnswer({ worker: avg, options: LABELS, truth: LABELS[i % 7], rng: createRng(i), llmLabel: () => LABELS[0] }));
    expect(b).toEqual(a);
  });
});
