/**
 * One back-off for the whole MTurk client when MTurk throttles (MTurk's rate limit is per requester account, so
 * every concurrent call is over it, not only the one that was told so).
 *
 * - When a call is throttled the gate closes for a jittered pause; every call of the client, new or retried,
 *   waits for the same reopening. Consecutive throttled reopenings double the pause (up to `capMs`); a call that
 *   succeeds after a reopening resets it.
 * - The calls in flight at once (the window, at most `maxConcurrent`) are halved at each throttled opening and
 *   grow back by one after 10 × window calls in a row without throttling (additive increase, multiplicative
 *   decrease, as TCP does). When the limit is reached, the calls still in flight are most likely throttled too:
 *   a smaller window wastes fewer requests, and a rate limit far below what one call at a time achieves loses
 *   nothing by it.
 *
 * This replaces a back-off per call (the SDK's standard retries), where each throttled call sleeps its own random
 * delay and the client trickles single requests in between. MTurk's guidance for batch work is this: a few
 * concurrent calls, jittered back-off. The window matters: without it the calls in flight when the limit is hit
 * are wasted (the campaign benchmark's figures are in the README's benchmark table).
 */
export type ThrottleGateOptions = {
  /** First pause after a throttled call, in ms (jittered to 50–100% of it). */
  baseMs?: number;
  /** Longest pause, in ms. */
  capMs?: number;
  /** Largest window (calls in flight at once). */
  maxConcurrent?: number;
  /** Random numbers in [0, 1) (tests pass a fixed sequence). */
  random?: () => number;
};

export type ThrottleGateStats = {
  /** Throttled calls reported to the gate. */
  throttled: number;
  /** Times the gate closed (throttled calls of one opening close it once). */
  pauses: number;
  /** Sum of the pauses, in ms. */
  pausedMs: number;
};

/** A call let through the gate: hand it back with `leave`. */
export type GateTicket = { readonly opening: number };
export type CallOutcome = "succeeded" | "throttled" | "failed";

export const DEFAULT_THROTTLE_BASE_MS = 200;
export const DEFAULT_THROTTLE_CAP_MS = 8_000;
/** MTurk's guidance for batch work: at most five concurrent calls. */
export const DEFAULT_MAX_CONCURRENT = 5;
/** Clean calls per window step up. */
const GROWTH_CALLS = 10;

export class ThrottleGate {
  private readonly baseMs: number;
  private readonly capMs: number;
  private readonly maxConcurrent: number;
  private readonly random: () => number;
  /** Bumped at every closing: a call remembers the opening it went out in. */
  private opening = 0;
  /** Consecutive throttled openings (the exponent of the pause). */
  private level = 0;
  private inFlight = 0;
  private cleanCalls = 0;
  private currentWindow: number;
  private waiters: Array<() => void> = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  readonly stats: ThrottleGateStats = { throttled: 0, pauses: 0, pausedMs: 0 };

  constructor({ baseMs = DEFAULT_THROTTLE_BASE_MS, capMs = DEFAULT_THROTTLE_CAP_MS, maxConcurrent = DEFAULT_MAX_CONCURRENT, random = Math.random }: ThrottleGateOptions = {}) {
    this.baseMs = baseMs;
    this.capMs = capMs;
    this.maxConcurrent = Math.max(1, maxConcurrent);
    this.currentWindow = this.maxConcurrent;
    this.random = random;
  }

  /** Whether the gate is closed now. */
  get closed(): boolean {
    return this.timer !== null;
  }

  /** Calls allowed in flight at once now. */
  get window(): number {
    return this.currentWindow;
  }

  /** Waits until the gate is open and the window has room; the call then counts as in flight until `leave`. */
  async enter(): Promise<GateTicket> {
    while (this.timer || this.inFlight >= this.currentWindow) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.inFlight++;
    return { opening: this.opening };
  }

  /** The call of `ticket` is over: a throttled one closes the gate, unless another call of its opening already did. */
  leave(ticket: GateTicket, outcome: CallOutcome): void {
    this.inFlight--;
    const current = ticket.opening === this.opening;
    if (outcome === "succeeded" && current) {
      this.level = 0;
      if (++this.cleanCalls >= GROWTH_CALLS * this.currentWindow && this.currentWindow < this.maxConcurrent) {
        this.currentWindow++;
        this.cleanCalls = 0;
      }
    }
    if (outcome === "throttled") {
      this.stats.throttled++;
      if (current) this.close();
    }
    this.wake();
  }

  private close(): void {
    const pause = Math.min(this.capMs, this.baseMs * 2 ** this.level) * (0.5 + this.random() / 2);
    this.level = Math.min(this.level + 1, 30);
    this.currentWindow = Math.max(1, Math.floor(this.currentWindow / 2));
    this.cleanCalls = 0;
    this.opening++;
    this.stats.pauses++;
    this.stats.pausedMs += pause;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, pause);
  }

  /** Lets the waiting calls try again (those over the window wait on). */
  private wake(): void {
    if (this.timer || this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
