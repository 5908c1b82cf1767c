import { describe, expect, it } from "vitest";
import { benjaminiHochberg, llmEchoReport, poissonBinomialUpperTail, posteriorTail, type EchoJudgment } from "./llm-echo";
import { echoCrowd } from "./llm-echo-synthetic";

const close = (a: number, b: number, tol = 1e-12) => expect(Math.abs(a - b)).toBeLessThan(tol);

function binomialTail(n: number, p: number, k: number): number {
  let s = 0;
  let c = 1;
  for (let j = 0; j <= n; j++) {
    if (j > 0) c = (c * (n - j + 1)) / j;
    if (j >= k) s += c * p ** j * (1 - p) ** (n - j);
  }
  return s;
}

/** ln Γ (Lanczos, g = 7): for the Beta-function check of the averaged tail. */
function logGamma(x: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  x -= 1;
  let s = c[0];
  for (let i = 1; i < 9; i++) s += c[i] / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(s);
}
const logBeta = (a: number, b: number) => logGamma(a) + logGamma(b) - logGamma(a + b);

describe("Poisson-binomial upper tail", () => {
  it("equals the binomial tail when every p is the same", () => {
    for (const [n, p, k] of [[10, 0.1, 3], [25, 0.02, 4], [7, 0.5, 0], [7, 0.5, 7], [40, 0.3, 15]]) close(poissonBinomialUpperTail(new Array(n).fill(p), k), binomialTail(n, p, k));
  });
  it("matches brute-force enumeration over 2ⁿ outcomes with unequal p", () => {
    const ps = [0.1, 0.5, 0.03, 0.7, 0.25, 0.9, 0.01, 0.4];
    for (let k = 0; k <= ps.length + 1; k++) {
      let brute = 0;
      for (let mask = 0; mask < 1 << ps.length; mask++) {
        let pr = 1;
        let ones = 0;
        ps.forEach((p, i) => {
          const on = (mask >> i) & 1;
          ones += on;
          pr *= on ? p : 1 - p;
        });
        if (ones >= k) brute += pr;
      }
      close(poissonBinomialUpperTail(ps, k), brute);
    }
  });
});

describe("Benjamini–Hochberg", () => {
  it("gives R's p.adjust(method = 'BH') values", () => {
    // p.adjust(c(0.01, 0.04, 0.03, 0.005, 0.2), "BH") = 0.025 0.05 0.05 0.025 0.2
    const adj = benjaminiHochberg([0.01, 0.04, 0.03, 0.005, 0.2]);
    [0.025, 0.05, 0.05, 0.025, 0.2].forEach((v, i) => close(adj[i], v));
  });
});

describe("the echo statistic on a hand-built case", () => {
  // Ten disagreement tweets (accepted a, LLM b): w1 says b on all of them, w2 says a on all, w3 says b on t0 and t1.
  const judgments: EchoJudgment[] = [];
  const accepted = new Map<string, string>();
  const llm = new Map<string, string>();
  for (let t = 0; t < 10; t++) {
    const tweet = `t${t}`;
    accepted.set(tweet, "a");
    llm.set(tweet, "b");
    judgments.push({ tweet, worker: "w1", label: "b" }, { tweet, worker: "w2", label: "a" }, { tweet, worker: "w3", label: t < 2 ? "b" : "a" });
  }
  accepted.set("agree", "a");
  llm.set("agree", "a");
  judgments.push({ tweet: "agree", worker: "w2", label: "a" }, { tweet: "agree", worker: "w4", label: "a" });
  const same = { correct: 8, total: 10 };
  const gold = new Map([["w1", same], ["w2", same], ["w3", same], ["w4", same]]);
  // One round (no exclusion of the flagged): the figures below are the first round's.
  const r = llmEchoReport({ judgments, accepted, llm, gold, labels: ["a", "b", "c"] }, { pairPriorWeight: 5, exclusionRounds: 0 });
  const w1 = r.workers.find((w) => w.worker === "w1")!;

  it("counts k = 10 of n = 10 and tests it against the others' rate times each tweet's pair factor", () => {
    // Equal accuracies: the line is flat at the others' rate 2/20 = 0.1. The pair factor leaves out the tweet's
    // other judgments (18 left, fitted 1.8): t0, t1 keep 1 echo → (1 + 5)/(1.8 + 5); t2…t9 keep 2 → 7/6.8.
    expect(r.comparedTweets).toBe(11);
    expect(r.disagreementTweets).toBe(10);
    expect([w1.tweets, w1.echoes]).toEqual([10, 10]);
    close(w1.accuracy, 0.8);
    const p01 = 0.1 * (6 / 6.8);
    const p29 = 0.1 * (7 / 6.8);
    close(w1.expected, 2 * p01 + 8 * p29);
    const exact = p01 ** 2 * p29 ** 8;
    expect(Math.abs(w1.p! / exact - 1)).toBeLessThan(1e-9);
    expect(w1.flagged).toBe(true);
    expect(w1.evidence.every((e) => e.echoed && e.llm === "b" && e.accepted === "a")).toBe(true);
  });
  it("does not flag the workers who mostly answered the accepted label, and does not test one without disagreement tweets", () => {
    const w2 = r.workers.find((w) => w.worker === "w2")!;
    expect([w2.echoes, w2.p, w2.flagged]).toEqual([0, 1, false]);
    const w3 = r.workers.find((w) => w.worker === "w3")!;
    expect([w3.echoes, w3.flagged]).toEqual([2, false]);
    const w4 = r.workers.find((w) => w.worker === "w4")!;
    expect([w4.tested, w4.p, w4.pAdjusted, w4.flagged]).toEqual([false, null, null, false]);
    expect(r.tested).toBe(3);
    expect(r.flagged).toBe(1);
    expect(r.workers[0].worker).toBe("w1");
  });
  it("leaves a flagged worker out of the others' null in the next round: w3's 2 of 10 then stand against w2's 0", () => {
    const rounds = llmEchoReport({ judgments, accepted, llm, gold, labels: ["a", "b", "c"] });
    expect(rounds.workers.filter((w) => w.flagged).map((w) => w.worker).sort()).toEqual(["w1", "w3"]);
    const w3 = rounds.workers.find((w) => w.worker === "w3")!;
    expect(w3.expected).toBeLessThan(r.workers.find((w) => w.worker === "w3")!.expected);
  });
  it("does not test a worker with fewer disagreement tweets than minTweets", () => {
    const few = llmEchoReport({ judgments, accepted, llm, gold }, { minTweets: 11 });
    expect(few.tested).toBe(0);
    expect(few.flagged).toBe(0);
  });
  it("averages the tail over the accuracy posterior: E[(1 − a)¹⁰] under Beta(11.2, 2.8) for ps = 1 − a", () => {
    const exact = Math.exp(logBeta(11.2, 12.8) - logBeta(11.2, 2.8));
    const got = posteriorTail((a) => new Array(10).fill(1 - a), 10, 11.2, 2.8);
    expect(Math.abs(got / exact - 1)).toBeLessThan(1e-3);
  });
});

describe("the echo test over 200 seeded constructed crowds (18 honest workers, 2 echo workers, 1,000 tweets × 3)", () => {
  const seeds = Array.from({ length: 200 }, (_, s) => s);
  const runs = seeds.map((seed) => {
    const crowd = echoCrowd({ seed });
    const flagged = new Set(llmEchoReport(crowd, { alpha: 0.05 }).workers.filter((w) => w.flagged).map((w) => w.worker));
    return { crowd, flagged };
  });
  it("an honest worker of accuracy 0.8 is not flagged at α = 0.05 in ≥ 95% of the seeds", () => {
    expect(runs[0].crowd.honestIds[0]).toBe("h0");
    const notFlagged = runs.filter((r) => !r.flagged.has("h0")).length;
    expect(notFlagged / runs.length).toBeGreaterThanOrEqual(0.95);
  });
  it("an echo worker copying the LLM 80% of the time is flagged in ≥ 95% of the seeds", () => {
    const caught = runs.filter((r) => r.flagged.has("e0")).length;
    expect(caught / runs.length).toBeGreaterThanOrEqual(0.95);
  });
  it("with no echo worker, honest workers' raw p-values are near nominal: P(p < 0.05) ≤ 0.07", () => {
    let below = 0;
    let tested = 0;
    for (const seed of seeds.slice(0, 50)) {
      const crowd = echoCrowd({ seed, echoWorkers: 0, sharedConfusion: 0 });
      for (const w of llmEchoReport(crowd).workers) {
        if (w.p === null) continue;
        tested++;
        if (w.p < 0.05) below++;
      }
    }
    expect(tested).toBeGreaterThan(500);
    expect(below / tested).toBeLessThanOrEqual(0.07);
  });
});
