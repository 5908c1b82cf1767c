import { createRng, randomInt, seedFrom, type Rng } from "@/lib/util/random";
import type { EchoInput, EchoJudgment, GoldRecord } from "./llm-echo";

/**
 * Constructed crowds with known echo workers, for the echo test's unit tests and its false-positive benchmark.
 * Truth uniform over `labels` classes; the LLM confuses `llmConfusions` classes with their next class at rate
 * 0.4 and spreads 4% noise; honest workers answer the truth with their accuracy, else a wrong label — the LLM's
 * confused neighbour with probability `sharedConfusion` on a confused class (a confusion humans share with the
 * model), else uniformly; an echo worker copies the LLM's label with probability `echoRate`, else answers as an
 * honest worker of accuracy 0.7. Each tweet gets `perTweet` judgments from distinct random workers; every worker
 * also answers `goldPerWorker` gold tweets the same way (their gold record). Accepted = unique plurality ≥ 2/3.
 */
export type EchoCrowdOptions = {
  seed: number;
  tweets?: number;
  labels?: number;
  /** Honest workers' accuracies (one worker each). */
  honest?: number[];
  echoWorkers?: number;
  echoRate?: number;
  perTweet?: number;
  goldPerWorker?: number;
  llmConfusions?: number;
  sharedConfusion?: number;
};

export type EchoCrowd = EchoInput & { honestIds: string[]; echoIds: string[]; labels: string[] };

export const DEFAULT_HONEST = [0.8, 0.9, 0.85, 0.75, 0.7, 0.65, 0.9, 0.8, 0.6, 0.7, 0.85, 0.75, 0.8, 0.7, 0.9, 0.65, 0.8, 0.75];

export function echoCrowd(o: EchoCrowdOptions): EchoCrowd {
  const rng = createRng(seedFrom(o.seed, "echo-crowd"));
  const K = o.labels ?? 10;
  const labels = Array.from({ length: K }, (_, i) => `c${i}`);
  const honest = o.honest ?? DEFAULT_HONEST;
  const echoN = o.echoWorkers ?? 2;
  const echoRate = o.echoRate ?? 0.8;
  const perTweet = o.perTweet ?? 3;
  const shared = o.sharedConfusion ?? 0.3;
  const confused = new Map<number, number>();
  for (let c = 0; c < Math.min(o.llmConfusions ?? 3, K - 1); c++) confused.set(c * 3 % K, (c * 3 + 1) % K);

  const llmOf = (truth: number, r: Rng): number => {
    const u = r();
    if (confused.has(truth) && u < 0.4) return confused.get(truth) as number;
    if (u > 0.96) return otherThan(truth, r);
    return truth;
  };
  const otherThan = (x: number, r: Rng) => {
    const y = randomInt(r, K - 1);
    return y >= x ? y + 1 : y;
  };
  const honestAnswer = (acc: number, truth: number, r: Rng) => {
    if (r() < acc) return truth;
    if (confused.has(truth) && r() < shared) return confused.get(truth) as number;
    return otherThan(truth, r);
  };
  type W = { id: string; acc: number; echo: boolean };
  const workers: W[] = [
    ...honest.map((acc, i) => ({ id: `h${i}`, acc, echo: false })),
    ...Array.from({ length: echoN }, (_, i) => ({ id: `e${i}`, acc: 0.7, echo: true })),
  ];
  const answer = (w: W, truth: number, llm: number, r: Rng) => (w.echo && r() < echoRate ? llm : honestAnswer(w.acc, truth, r));

  const gold = new Map<string, GoldRecord>();
  for (const w of workers) {
    let correct = 0;
    const total = o.goldPerWorker ?? 30;
    for (let g = 0; g < total; g++) {
      const truth = randomInt(rng, K);
      if (answer(w, truth, llmOf(truth, rng), rng) === truth) correct++;
    }
    gold.set(w.id, { correct, total });
  }

  const judgments: EchoJudgment[] = [];
  const accepted = new Map<string, string>();
  const llm = new Map<string, string>();
  const T = o.tweets ?? 1000;
  for (let t = 0; t < T; t++) {
    const tweet = `t${t}`;
    const truth = randomInt(rng, K);
    const l = llmOf(truth, rng);
    llm.set(tweet, labels[l]);
    const chosen = new Set<number>();
    while (chosen.size < Math.min(perTweet, workers.length)) chosen.add(randomInt(rng, workers.length));
    const counts = new Map<number, number>();
    for (const wi of chosen) {
      const a = answer(workers[wi], truth, l, rng);
      counts.set(a, (counts.get(a) ?? 0) + 1);
      judgments.push({ tweet, worker: workers[wi].id, label: labels[a] });
    }
    const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    const [top, second] = [sorted[0], sorted[1]];
    if ((!second || top[1] > second[1]) && top[1] * 3 >= 2 * chosen.size) accepted.set(tweet, labels[top[0]]);
  }
  return {
    judgments,
    accepted,
    llm,
    gold,
    labels,
    honestIds: workers.filter((w) => !w.echo).map((w) => w.id),
    echoIds: workers.filter((w) => w.echo).map((w) => w.id),
  };
}
