import { createRng, pick, seedFrom, type Rng } from "@/lib/util/random";

/**
 * Simulated worker profiles. accuracy = probability of giving the true label (otherwise a uniformly chosen wrong
 * one); spammers ignore the content. Times are seconds per item (uniform in the range, then scaled by the HIT's
 * item count); returnRate/abandonRate = probability that an accepted assignment is returned / abandoned.
 */
export type WorkerProfileName = "careful" | "average" | "sloppy" | "spammer-random" | "spammer-constant" | "llm-echo";

export interface WorkerProfile {
  name: WorkerProfileName;
  /** llm-echo: with probability LLM_ECHO_RATE the LLM simulator's label of the tweet, else as `accurate`. */
  strategy: "accurate" | "random" | "constant" | "llm-echo";
  accuracy: number;
  secondsPerItem: [number, number];
  returnRate: number;
  abandonRate: number;
  /** Range of the worker's lifetime approval record (system qualifications). */
  hitsApproved: [number, number];
  percentApproved: [number, number];
}

export const WORKER_PROFILES: Record<WorkerProfileName, WorkerProfile> = {
  careful: { name: "careful", strategy: "accurate", accuracy: 0.9, secondsPerItem: [8, 20], returnRate: 0.02, abandonRate: 0.01, hitsApproved: [1000, 30000], percentApproved: [97, 100] },
  average: { name: "average", strategy: "accurate", accuracy: 0.7, secondsPerItem: [5, 12], returnRate: 0.04, abandonRate: 0.02, hitsApproved: [200, 10000], percentApproved: [94, 99] },
  sloppy: { name: "sloppy", strategy: "accurate", accuracy: 0.5, secondsPerItem: [3, 7], returnRate: 0.05, abandonRate: 0.04, hitsApproved: [50, 3000], percentApproved: [88, 97] },
  "spammer-random": { name: "spammer-random", strategy: "random", accuracy: 0, secondsPerItem: [0.5, 2], returnRate: 0.01, abandonRate: 0.01, hitsApproved: [0, 500], percentApproved: [75, 95] },
  "spammer-constant": { name: "spammer-constant", strategy: "constant", accuracy: 0, secondsPerItem: [0.3, 1], returnRate: 0.01, abandonRate: 0.01, hitsApproved: [0, 500], percentApproved: [75, 95] },
  // Last, so that a mix without it draws the same pool as before (createWorkerPool walks the profiles in order).
  "llm-echo": { name: "llm-echo", strategy: "llm-echo", accuracy: 0.7, secondsPerItem: [2, 6], returnRate: 0.04, abandonRate: 0.02, hitsApproved: [200, 10000], percentApproved: [94, 99] },
};

/** How often an llm-echo worker answers the LLM simulator's label (otherwise it answers as an average worker). */
export const LLM_ECHO_RATE = 0.8;

export interface SimLocale {
  Country: string;
  Subdivision?: string;
}

/** A simulated worker as stored in the simulator state (JSON-serialisable). */
export interface SimWorker {
  workerId: string;
  profile: WorkerProfileName;
  accuracy: number;
  locale: SimLocale;
  numberHitsApproved: number;
  percentApproved: number;
  adult: boolean;
  masters: boolean;
  /** Index into a form's options for the constant spammer. */
  constantIndex: number;
  status: "idle" | "sleeping" | "working";
  currentAssignmentId?: string;
  doneHitIds: string[];
  /** Qualification type id → last test attempt (epoch ms). */
  testAttempts: Record<string, number>;
  /** Decisions made so far (feeds the per-decision seed). */
  decisions: number;
  /** A passive worker never acts by itself; it only works through the programmatic worker API (tests, demos). */
  passive?: boolean;
}

/** Per-profile counts, e.g. "careful:20,average:10,spammer-random:2". */
export type WorkerMix = Partial<Record<WorkerProfileName, number>>;

export function parseWorkerMix(spec: string): WorkerMix {
  const mix: WorkerMix = {};
  for (const part of spec.split(",").map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z-]+):(\d+)$/.exec(part);
    if (!m || !(m[1] in WORKER_PROFILES)) {
      throw new Error(`"${part}" is not <profile>:<count> with a profile among ${Object.keys(WORKER_PROFILES).join(", ")}`);
    }
    mix[m[1] as WorkerProfileName] = (mix[m[1] as WorkerProfileName] ?? 0) + Number(m[2]);
  }
  return mix;
}

export const DEFAULT_WORKER_MIX: WorkerMix = { careful: 12, average: 10, sloppy: 4, "spammer-random": 2, "spammer-constant": 2 };

const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** MTurk-format worker id: "A" + 13 characters of [A-Z0-9] (e.g. A143XRCI1YXAFE). */
export function makeWorkerId(rng: Rng): string {
  let id = "A";
  for (let i = 0; i < 13; i++) id += ID_CHARS[Math.floor(rng() * ID_CHARS.length)];
  return id;
}

const LOCALES: Array<[SimLocale, number]> = [
  [{ Country: "US", Subdivision: "CA" }, 0.2],
  [{ Country: "US", Subdivision: "NY" }, 0.15],
  [{ Country: "US", Subdivision: "TX" }, 0.15],
  [{ Country: "US" }, 0.2],
  [{ Country: "IN" }, 0.15],
  [{ Country: "GB" }, 0.05],
  [{ Country: "CA" }, 0.05],
  [{ Country: "PH" }, 0.05],
];

function pickLocale(rng: Rng): SimLocale {
  let r = rng();
  for (const [loc, p] of LOCALES) {
    if (r < p) return { ...loc };
    r -= p;
  }
  return { Country: "US" };
}

function between(rng: Rng, [lo, hi]: [number, number]): number {
  return lo + rng() * (hi - lo);
}

/** Creates the pool deterministically from the seed (same seed and mix → same workers). */
export function createWorkerPool({ seed, mix }: { seed: number; mix: WorkerMix }): SimWorker[] {
  const rng = createRng(seedFrom(seed, "worker-pool"));
  const workers: SimWorker[] = [];
  const ids = new Set<string>();
  for (const name of Object.keys(WORKER_PROFILES) as WorkerProfileName[]) {
    const p = WORKER_PROFILES[name];
    for (let i = 0; i < (mix[name] ?? 0); i++) {
      let workerId = makeWorkerId(rng);
      while (ids.has(workerId)) workerId = makeWorkerId(rng);
      ids.add(workerId);
      workers.push({
        workerId,
        profile: name,
        accuracy: p.accuracy,
        locale: pickLocale(rng),
        numberHitsApproved: Math.round(between(rng, p.hitsApproved)),
        percentApproved: Math.round(between(rng, p.percentApproved)),
        adult: rng() < 0.9,
        masters: name === "careful" && rng() < 0.3,
        constantIndex: Math.floor(rng() * 1000),
        status: "idle",
        doneHitIds: [],
        testAttempts: {},
        decisions: 0,
      });
    }
  }
  return workers;
}

/** A fresh RNG for the worker's next decision (reproducible, and persists as a counter). */
export function decisionRng(seed: number, worker: SimWorker, what: string): Rng {
  worker.decisions += 1;
  return createRng(seedFrom(seed, worker.workerId, what, worker.decisions));
}

/**
 * The worker's answer among `options` given the true answer `truth` (always one of the options when defined).
 */
export function chooseAnswer({
  worker,
  options,
  truth,
  rng,
  llmLabel,
}: {
  worker: SimWorker;
  options: string[];
  truth: string | undefined;
  rng: Rng;
  /** The LLM simulator's label of the question's tweet (llm-echo workers only; workers-llm-echo.ts). */
  llmLabel?: () => string | undefined;
}): string {
  const strategy = WORKER_PROFILES[worker.profile].strategy;
  if (strategy === "constant") return options[worker.constantIndex % options.length];
  if (strategy === "llm-echo" && rng() < LLM_ECHO_RATE) {
    const echoed = llmLabel?.();
    if (echoed !== undefined && options.includes(echoed)) return echoed;
  }
  if (strategy === "random" || truth === undefined || !options.includes(truth)) return pick(options, rng);
  if (rng() < worker.accuracy) return truth;
  const wrong = options.filter((o) => o !== truth);
  return wrong.length > 0 ? pick(wrong, rng) : truth;
}

/** Seconds the worker spends on a task of `items` questions. */
export function workSeconds(worker: SimWorker, items: number, rng: Rng): number {
  const [lo, hi] = WORKER_PROFILES[worker.profile].secondsPerItem;
  const perItem = lo + rng() * (hi - lo);
  return Math.max(5, Math.round(perItem * Math.max(1, items) + 5 + rng() * 20));
}
