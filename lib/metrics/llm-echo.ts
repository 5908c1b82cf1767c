/**
 * LLM-echo detection (issue 32, item 4): does a worker's label follow the LLM's where the LLM and the crowd differ?
 *
 * For worker w, D_w = the tweets w judged whose LLM label differs from the accepted label; k = how many of them w
 * labelled as the LLM did. The null is an independent worker of w's accuracy a_w (gold correct/total, shrunk toward
 * the crowd's pooled gold accuracy): on tweet t, P(w says the LLM label) = p_t(a_w) = f_t·base(a_w), where base(a)
 * is a line in the accuracy fitted to the OTHER workers' judgments on disagreement tweets (an equal-to-LLM answer
 * is either an error of the crowd's kind, ∝ 1 − a, or the truth where the LLM was right and the accepted label
 * wrong, ∝ a) and f_t scales it to the class pair (accepted → LLM) of t, from the others' judgments on the pair's
 * other tweets, so that honest workers sharing a common confusion with the model are not flagged. k is tested
 * one-sided against the Poisson-binomial tail P(K ≥ k), exact, averaged over the Beta posterior of a_w (a lucky
 * gold record does not make an honest worker look like an echo). Workers with ≥ minTweets disagreement tweets are
 * tested; their p-values are adjusted by Benjamini–Hochberg and a worker is flagged when the adjusted p ≤ α. The
 * flagged workers are then left out of the others' null and the test repeated once (one echo worker would otherwise
 * raise the null and hide another; more rounds cascade onto honest workers).
 * A flag is evidence for a review, never a verdict.
 */

export type EchoJudgment = { tweet: string; worker: string; label: string };
export type GoldRecord = { correct: number; total: number };

export type EchoInput = {
  judgments: ReadonlyArray<EchoJudgment>;
  /** Tweet → accepted label (tweets without one are not used). */
  accepted: ReadonlyMap<string, string>;
  /** Tweet → the LLM's label (tweets without one are not used). */
  llm: ReadonlyMap<string, string>;
  /** Worker → gold correct/total (workers without gold get the crowd's pooled accuracy). */
  gold: ReadonlyMap<string, GoldRecord>;
  /** Labels of the scheme (K = its size; default: the labels seen). */
  labels?: readonly string[];
};

export type EchoOptions = {
  /** False-discovery level of the Benjamini–Hochberg procedure (default 0.05). */
  alpha?: number;
  /** Disagreement tweets a worker needs to be tested (default 5): fewer give no power. */
  minTweets?: number;
  /** Weight (in gold answers) of the crowd's pooled accuracy in a worker's smoothed accuracy (default 4). */
  priorWeight?: number;
  /** Weight (in expected judgments on the LLM label) of factor 1 in a class pair's factor (default 5). */
  pairPriorWeight?: number;
  /** Rounds of leaving the flagged workers out of the others' null (default 1; more cascade onto honest workers). */
  exclusionRounds?: number;
  /** Evidence tweets kept per worker (default 20). */
  maxEvidence?: number;
};

export const ECHO_DEFAULTS = { alpha: 0.05, minTweets: 5, priorWeight: 4, pairPriorWeight: 5, exclusionRounds: 1, maxEvidence: 20 } as const;

export type EchoEvidence = { tweet: string; accepted: string; llm: string; label: string; echoed: boolean };

export type WorkerEcho = {
  worker: string;
  /** Disagreement tweets the worker judged (n) and those they labelled as the LLM did (k). */
  tweets: number;
  echoes: number;
  /** Σ p_t: the echoes expected of an independent worker of the same accuracy. */
  expected: number;
  /** The smoothed accuracy used in the null. */
  accuracy: number;
  goldCorrect: number;
  goldTotal: number;
  tested: boolean;
  /** One-sided P(K ≥ k) under the null; null when not tested. */
  p: number | null;
  /** Benjamini–Hochberg adjusted p over the tested workers; null when not tested. */
  pAdjusted: number | null;
  flagged: boolean;
  /** The disagreement tweets (echoed ones first), at most maxEvidence. */
  evidence: EchoEvidence[];
};

export type EchoReport = {
  alpha: number;
  minTweets: number;
  /** Tweets with both an accepted and an LLM label, and those where they differ. */
  comparedTweets: number;
  disagreementTweets: number;
  /** The crowd's pooled gold accuracy (the prior of the smoothing). */
  crowdAccuracy: number;
  tested: number;
  flagged: number;
  /** Every worker with a judgment on a compared tweet: flagged first, then by p, then by id. */
  workers: WorkerEcho[];
};

/** P(K ≥ k) for K a sum of independent Bernoulli(p_i): exact, O(n·k) (states at or above k are lumped). */
export function poissonBinomialUpperTail(ps: ReadonlyArray<number>, k: number): number {
  if (k <= 0) return 1;
  if (k > ps.length) return 0;
  // dist[j] = P(K = j) for j < k; dist[k] = P(K ≥ k)
  const dist = new Float64Array(k + 1);
  dist[0] = 1;
  for (const raw of ps) {
    const p = Math.min(1, Math.max(0, raw));
    dist[k] += dist[k - 1] * p;
    for (let j = k - 1; j > 0; j--) dist[j] = dist[j] * (1 - p) + dist[j - 1] * p;
    dist[0] *= 1 - p;
  }
  return Math.min(1, Math.max(0, dist[k]));
}

/** Benjamini–Hochberg adjusted p-values (step-up, monotone, capped at 1), in the input order. */
export function benjaminiHochberg(ps: ReadonlyArray<number>): number[] {
  const m = ps.length;
  const order = ps.map((p, i) => [p, i] as const).sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  const adjusted = new Array<number>(m);
  let min = 1;
  order.forEach(([p, i], r) => {
    const rank = m - r;
    min = Math.min(min, (p * m) / rank);
    adjusted[i] = min;
  });
  return adjusted;
}

/** Points of the accuracy grid over which the tail is averaged. */
const GRID = 200;
/** The null rate's floor: a fitted line may dip to zero at a high accuracy, where one echo would then look damning. */
const MIN_RATE = 0.02;


/**
 * P(K ≥ k) with p_t = psAt(a)[t], averaged over a ~ Beta(α, β), the worker's accuracy posterior: a gold record is
 * a small sample, and plugging in its mean would understate the errors of a worker who was lucky on gold.
 */
export function posteriorTail(psAt: (accuracy: number) => number[], k: number, alpha: number, beta: number): number {
  if (k <= 0) return 1;
  const logw: number[] = [];
  let max = -Infinity;
  for (let i = 0; i < GRID; i++) {
    const a = (i + 0.5) / GRID;
    const lw = (alpha - 1) * Math.log(a) + (beta - 1) * Math.log(1 - a);
    logw.push(lw);
    if (lw > max) max = lw;
  }
  let total = 0;
  let tail = 0;
  for (let i = 0; i < GRID; i++) {
    const w = Math.exp(logw[i] - max);
    total += w;
    if (w < 1e-12) continue;
    tail += w * poissonBinomialUpperTail(psAt((i + 0.5) / GRID), k);
  }
  return Math.min(1, tail / total);
}

const pairKey = (a: string, l: string) => `${a}\u0000${l}`;

export function llmEchoReport(input: EchoInput, options: EchoOptions = {}): EchoReport {
  const alpha = options.alpha ?? ECHO_DEFAULTS.alpha;
  const minTweets = options.minTweets ?? ECHO_DEFAULTS.minTweets;
  const priorWeight = options.priorWeight ?? ECHO_DEFAULTS.priorWeight;
  const maxEvidence = options.maxEvidence ?? ECHO_DEFAULTS.maxEvidence;
  const pairPriorWeight = options.pairPriorWeight ?? ECHO_DEFAULTS.pairPriorWeight;
  const exclusionRounds = options.exclusionRounds ?? ECHO_DEFAULTS.exclusionRounds;

  const seen = new Set<string>(input.labels ?? []);
  if (!input.labels) {
    for (const j of input.judgments) seen.add(j.label);
    for (const l of input.accepted.values()) seen.add(l);
    for (const l of input.llm.values()) seen.add(l);
  }
  const wrongLabels = Math.max(1, seen.size - 1);

  let goldCorrect = 0;
  let goldTotal = 0;
  for (const g of input.gold.values()) {
    goldCorrect += g.correct;
    goldTotal += g.total;
  }
  const crowdAccuracy = goldTotal > 0 ? goldCorrect / goldTotal : 0.7;

  let compared = 0;
  let disagreements = 0;
  for (const [tweet, acc] of input.accepted) {
    const l = input.llm.get(tweet);
    if (l === undefined) continue;
    compared++;
    if (l !== acc) disagreements++;
  }

  // Per worker, their judgments on disagreement tweets; per pair, every worker's errors and those on the LLM label.
  type Row = { tweet: string; accepted: string; llm: string; label: string; pair: string };
  const rows = new Map<string, Row[]>();
  const workersSeen = new Set<string>();
  const accuracyOf = (worker: string) => {
    const g = input.gold.get(worker) ?? { correct: 0, total: 0 };
    return (g.correct + priorWeight * crowdAccuracy) / (g.total + priorWeight);
  };
  // On the disagreement tweets, y_j = [judgment j is the LLM's label] and x_j = its worker's accuracy a_j. The
  // null rate is a line in the accuracy, base(a) = β₀ + β₁·a, fitted by least squares to the OTHER workers'
  // judgments: a judgment equals the LLM label either as an error of the crowd's kind (∝ 1 − a) or because the
  // LLM was right where the accepted label is wrong (∝ a), so the rate is linear in a and its slope is the data's.
  // Each class pair scales it by f = (Y + m)/(Ŷ + m), its others' observed over fitted count on its other tweets
  // (the tweet's own other judgments are left out: the acceptance rule ties them to w's).
  for (const j of input.judgments) {
    const acc = input.accepted.get(j.tweet);
    const l = input.llm.get(j.tweet);
    if (acc === undefined || l === undefined) continue;
    workersSeen.add(j.worker);
    if (acc === l) continue;
    let list = rows.get(j.worker);
    if (!list) rows.set(j.worker, (list = []));
    list.push({ tweet: j.tweet, accepted: acc, llm: l, label: j.label, pair: pairKey(acc, l) });
  }

  // The workers flagged so far are left out of every other worker's null (an echo worker would raise it and hide
  // another), for `exclusionRounds` rounds or until the flagged set no longer changes.
  let excluded = new Set<string>();
  let round = testRound(excluded);
  for (let r = 0; r < exclusionRounds; r++) {
    const next = new Set(round.filter((w) => w.flagged).map((w) => w.worker));
    if (next.size === excluded.size && [...next].every((w) => excluded.has(w))) break;
    excluded = next;
    round = testRound(excluded);
  }
  const results = round;
  const rank = (w: WorkerEcho) => (w.flagged ? 0 : w.tested ? 1 : 2);
  results.sort((a, b) => rank(a) - rank(b) || (a.p ?? 1) - (b.p ?? 1) || (a.worker < b.worker ? -1 : a.worker > b.worker ? 1 : 0));
  return {
    alpha,
    minTweets,
    comparedTweets: compared,
    disagreementTweets: disagreements,
    crowdAccuracy,
    tested: results.filter((w) => w.tested).length,
    flagged: results.filter((w) => w.flagged).length,
    workers: results,
  };

  function testRound(out: ReadonlySet<string>): WorkerEcho[] {
    const all = zero();
    const byWorker = new Map<string, Sums>();
    const pairSums = new Map<string, Sums>();
    const tweetSums = new Map<string, Sums>();
    const workerPairSums = new Map<string, Map<string, Sums>>();
    const get = <K>(m: Map<K, Sums>, key: K) => {
      let s = m.get(key);
      if (!s) m.set(key, (s = zero()));
      return s;
    };
    for (const [worker, list] of rows) {
      if (out.has(worker)) continue;
      const x = accuracyOf(worker);
      let wp = workerPairSums.get(worker);
      if (!wp) workerPairSums.set(worker, (wp = new Map()));
      for (const r of list) {
        const y = r.label === r.llm ? 1 : 0;
        addTo(all, x, y);
        addTo(get(byWorker, worker), x, y);
        addTo(get(pairSums, r.pair), x, y);
        addTo(get(tweetSums, r.tweet), x, y);
        addTo(get(wp, r.pair), x, y);
      }
    }
    const fitWithout = (w: Sums): [number, number] => {
      const n = all.n - w.n;
      const sx = all.x - w.x;
      const sxx = all.xx - w.xx;
      const sy = all.y - w.y;
      const sxy = all.xy - w.xy;
      if (n <= 0) return [1 / wrongLabels, 0];
      const varX = sxx - (sx * sx) / n;
      const b1 = varX > 1e-9 * n ? (sxy - (sx * sy) / n) / varX : 0;
      return [(sy - b1 * sx) / n, b1];
    };
    const rate = (fit: [number, number], a: number) => Math.min(1, Math.max(MIN_RATE, fit[0] + fit[1] * a));

    const results: WorkerEcho[] = [];
    const testedIdx: number[] = [];
    const pvalues: number[] = [];
    for (const worker of workersSeen) {
      const g = input.gold.get(worker) ?? { correct: 0, total: 0 };
      const accuracy = accuracyOf(worker);
      const list = rows.get(worker) ?? [];
      const inSums = !out.has(worker);
      const fit = fitWithout((inSums && byWorker.get(worker)) || zero());
      const mine = inSums ? workerPairSums.get(worker) : undefined;
      // Per tweet, the pair's factor f from the others' judgments on the pair's other tweets.
      const factors: number[] = [];
      let k = 0;
      for (const r of list) {
        const p = pairSums.get(r.pair) ?? zero();
        const own = mine?.get(r.pair) ?? zero();
        const here = tweetSums.get(r.tweet) ?? zero();
        const echoed = r.label === r.llm ? 1 : 0;
        const n = p.n - own.n - (here.n - (inSums ? 1 : 0));
        const y = p.y - own.y - (here.y - (inSums ? echoed : 0));
        const sx = p.x - own.x - (here.x - (inSums ? accuracy : 0));
        const fitted = Math.max(0, n * fit[0] + fit[1] * sx);
        factors.push((Math.max(0, y) + pairPriorWeight) / (fitted + pairPriorWeight));
        k += echoed;
      }
      const psAt = (a: number) => factors.map((f) => Math.min(1, f * rate(fit, a)));
      const tested = list.length >= minTweets;
      const p = tested ? posteriorTail(psAt, k, g.correct + priorWeight * crowdAccuracy, g.total - g.correct + priorWeight * (1 - crowdAccuracy)) : null;
      const evidence = list
        .map((r) => ({ tweet: r.tweet, accepted: r.accepted, llm: r.llm, label: r.label, echoed: r.label === r.llm }))
        .sort((a, b) => Number(b.echoed) - Number(a.echoed))
        .slice(0, maxEvidence);
      if (tested) {
        testedIdx.push(results.length);
        pvalues.push(p as number);
      }
      results.push({ worker, tweets: list.length, echoes: k, expected: psAt(accuracy).reduce((a, b) => a + b, 0), accuracy, goldCorrect: g.correct, goldTotal: g.total, tested, p, pAdjusted: null, flagged: false, evidence });
    }
    const adjusted = benjaminiHochberg(pvalues);
    testedIdx.forEach((i, x) => {
      results[i].pAdjusted = adjusted[x];
      results[i].flagged = adjusted[x] <= alpha;
    });
    return results;
  }
}

type Sums = { n: number; x: number; xx: number; y: number; xy: number };
const zero = (): Sums => ({ n: 0, x: 0, xx: 0, y: 0, xy: 0 });
function addTo(s: Sums, x: number, y: number): void {
  s.n++;
  s.x += x;
  s.xx += x * x;
  s.y += y;
  s.xy += x * y;
}
