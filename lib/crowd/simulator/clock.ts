/**
 * The simulator's clock. All simulated time (HIT expiry, deadlines, auto-approval, worker behaviour) reads it.
 * - ManualClock: only moves when a test calls advance()/set() (deterministic tests).
 * - RealClock: wall time, optionally sped up (speedup 60 = one simulated minute per real second) for demos.
 */
export interface SimClock {
  readonly kind: "manual" | "real";
  /** Epoch milliseconds. */
  now(): number;
  /** Called whenever time jumps (manual clocks); the simulator processes due events then. */
  onAdvance(listener: () => void): () => void;
  /**
   * Simulated epoch ms → the wall-clock ms it happens at. The API answers in wall-clock time, so a sped-up demo's
   * accept and submit times line up with Accord's own (real) decision times: one clock on every page and export.
   */
  toWall(simMs: number): number;
  /** Wall-clock epoch ms (e.g. an ExpireAt sent by Accord) → simulated epoch ms. */
  fromWall(wallMs: number): number;
}

export class ManualClock implements SimClock {
  readonly kind = "manual" as const;
  private current: number;
  private readonly listeners = new Set<() => void>();

  constructor(startMs: number = Date.UTC(2026, 0, 5, 12, 0, 0)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  /** Moves time forward by `seconds` and lets the simulator process everything due. */
  advance(seconds: number): void {
    if (!(seconds >= 0)) throw new RangeError("A clock only moves forward");
    this.set(this.current + Math.round(seconds * 1000));
  }

  set(ms: number): void {
    if (ms < this.current) throw new RangeError("A clock only moves forward");
    this.current = ms;
    for (const l of [...this.listeners]) l();
  }

  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A manual clock is the tests' only clock: its times are given as they are. */
  toWall(simMs: number): number {
    return simMs;
  }

  fromWall(wallMs: number): number {
    return wallMs;
  }
}

export class RealClock implements SimClock {
  readonly kind = "real" as const;
  private readonly realStart = Date.now();
  private readonly simStart: number;

  constructor(
    readonly speedup = 1,
    startMs?: number,
  ) {
    if (!(speedup > 0)) throw new RangeError("speedup must be > 0");
    this.simStart = startMs ?? this.realStart;
  }

  now(): number {
    return Math.floor(this.simStart + (Date.now() - this.realStart) * this.speedup);
  }

  onAdvance(): () => void {
    return () => undefined;
  }

  toWall(simMs: number): number {
    return Math.round(this.realStart + (simMs - this.simStart) / this.speedup);
  }

  fromWall(wallMs: number): number {
    return Math.round(this.simStart + (wallMs - this.realStart) * this.speedup);
  }
}

/**
 * AcceptTime on the wire (epoch seconds). Once submitted it is the submit time less the simulated work, so a sped-up
 * clock does not shrink a worker's time on task (20 simulated minutes are not 20 s of work at speedup 60, nor an hourly
 * wage 60 times too high); before submission, the accept time as it happened on the wall clock.
 */
export function workedAcceptWire(clock: Pick<SimClock, "toWall">, acceptMs: number | undefined, submitMs: number | undefined): number | undefined {
  if (acceptMs === undefined) return undefined;
  if (submitMs === undefined) return clock.toWall(acceptMs) / 1000;
  return (clock.toWall(submitMs) - (submitMs - acceptMs)) / 1000;
}
