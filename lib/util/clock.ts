/**
 * Where code that waits (leases, renewals) reads the time and schedules its repeats. Production uses wall time and
 * real timers; tests pass a ManualTimers and move it by hand, so no test depends on how fast the machine is.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `fn` every `ms` until stopped (a returned promise is awaited by ManualTimers.advance, ignored otherwise). */
  every(ms: number, fn: () => void | Promise<void>): { stop(): void };
}

export const systemClock: Clock = {
  now: () => Date.now(),
  every(ms, fn) {
    const timer = setInterval(() => void fn(), ms);
    timer.unref?.();
    return { stop: () => clearInterval(timer) };
  },
};

type Repeat = { ms: number; next: number; fn: () => void | Promise<void>; stopped: boolean };

/** A clock that only moves when a test advances it; repeats fire at their due times, in order, and are awaited. */
export class ManualTimers implements Clock {
  private current: number;
  private readonly repeats: Repeat[] = [];

  constructor(startMs: number = Date.UTC(2026, 0, 5, 12, 0, 0)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  every(ms: number, fn: () => void | Promise<void>): { stop(): void } {
    if (!(ms > 0)) throw new RangeError("A repeat needs a positive interval");
    const repeat: Repeat = { ms, next: this.current + ms, fn, stopped: false };
    this.repeats.push(repeat);
    return {
      stop: () => {
        repeat.stopped = true;
      },
    };
  }

  /** Moves time forward by `ms`, running (and awaiting) each repeat that falls due on the way, at its own time. */
  async advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError("A clock only moves forward");
    const end = this.current + ms;
    for (;;) {
      const due = this.repeats.filter((r) => !r.stopped && r.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      this.current = due.next;
      due.next += due.ms;
      await due.fn();
    }
    this.current = end;
  }

  /** How many repeats are still scheduled (a test checks that a stopped renewal is gone). */
  get scheduled(): number {
    return this.repeats.filter((r) => !r.stopped).length;
  }
}
