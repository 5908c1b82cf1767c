import { type Clock, systemClock } from "@/lib/util/clock";
import { CrowdError, isCrowdError } from "./errors";
import type { CrowdProvider } from "./provider";

/**
 * A crowd's circuit breaker: `failures` outage errors in a row (the crowd cannot be reached, or answers
 * "unavailable") open it; while open, calls fail at once without leaving the process, except one probe every
 * `probeMs`; the first call that gets an answer closes it again. Any answer counts as reached, a refusal too
 * (not found, invalid parameter): only the crowd being unreachable counts against it. When it opens, the calls still
 * waiting on the crowd stop waiting (guardProvider): the pass that saw the crowd go down ends at once, instead of
 * after the slowest of its calls in flight (a hanging address holds each one until its deadline).
 */
export type BreakerState = "closed" | "open" | "half-open";
export type BreakerOptions = { failures?: number; probeMs?: number; clock?: Clock };

export const DEFAULT_OUTAGE_FAILURES = 3;
export const DEFAULT_OUTAGE_PROBE_MS = 5_000;

/** A provider that cannot be reached (or answers "unavailable" after its retries): every call would fail alike. */
export function isOutageError(err: unknown): boolean {
  return isCrowdError(err, "network") || isCrowdError(err, "service_unavailable");
}

export class CircuitBreaker {
  readonly failures: number;
  readonly probeMs: number;
  private readonly clock: Clock;
  private consecutive = 0;
  private current: BreakerState = "closed";
  private nextProbeAt = 0;
  private probeSentAt = 0;
  private lastError: unknown = null;
  private readonly openListeners = new Set<() => void>();

  constructor({ failures = DEFAULT_OUTAGE_FAILURES, probeMs = DEFAULT_OUTAGE_PROBE_MS, clock = systemClock }: BreakerOptions = {}) {
    if (!(failures >= 1)) throw new RangeError("A breaker opens after at least one failure");
    this.failures = failures;
    this.probeMs = probeMs;
    this.clock = clock;
  }

  get state(): BreakerState {
    return this.current;
  }

  /** Open or probing: the crowd is taken to be down (the SDK then retries less). */
  get isOpen(): boolean {
    return this.current !== "closed";
  }

  /** The error that opened the breaker (or the last one while open). */
  get error(): unknown {
    return this.lastError;
  }

  /**
   * Whether a probe may go out now: the breaker is open and its wait is over, or a probe went out `probeMs` ago and
   * never reported (a listing nobody read): another one goes, so the breaker cannot stay half-open for good.
   */
  get probeDue(): boolean {
    if (this.current === "open") return this.clock.now() >= this.nextProbeAt;
    return this.current === "half-open" && this.clock.now() >= this.probeSentAt + this.probeMs;
  }

  /** Whether a call may go out now: always while closed; while open, one probe when due (then half-open). */
  allow(): boolean {
    if (this.current === "closed") return true;
    if (this.probeDue) {
      this.current = "half-open";
      this.probeSentAt = this.clock.now();
      return true;
    }
    return false;
  }

  /** Calls `fn` each time the breaker opens (or opens again after a failed probe) until the returned function is called. */
  onOpen(fn: () => void): () => void {
    this.openListeners.add(fn);
    return () => {
      this.openListeners.delete(fn);
    };
  }

  private open(): void {
    this.current = "open";
    this.nextProbeAt = this.clock.now() + this.probeMs;
    for (const fn of [...this.openListeners]) fn();
  }

  /** A call got an answer: the breaker closes. "recovered" when it was open. */
  succeeded(): "recovered" | null {
    const was = this.current;
    this.consecutive = 0;
    this.current = "closed";
    this.lastError = null;
    return was === "closed" ? null : "recovered";
  }

  /** A call failed: an outage error counts; "opened" when this one opened the breaker. */
  failed(err: unknown): "opened" | null {
    if (!isOutageError(err)) {
      this.succeeded();
      return null;
    }
    this.consecutive++;
    this.lastError = err;
    if (this.current === "half-open" || (this.current === "open" && this.consecutive >= this.failures)) {
      this.open();
      return null;
    }
    if (this.current === "closed" && this.consecutive >= this.failures) {
      this.open();
      return "opened";
    }
    return null;
  }
}

/** The error of a call the open breaker did not let out (an outage error: the sync treats it as the crowd down). */
export function breakerRefusal(kind: string, breaker: CircuitBreaker): CrowdError {
  const cause = breaker.error instanceof Error ? breaker.error.message : "it could not be reached";
  return new CrowdError(`${kind} is treated as unreachable after ${breaker.failures} failed calls in a row (${cause}); it is tried again every ${Math.round(breaker.probeMs / 1000)} s.`, "network");
}

/**
 * A call (its retries included) that has not settled after `ms` (when given) counts as a failure, and its caller
 * stops waiting; so does one still waiting when the breaker opens (the crowd is down: it would fail alike).
 */
function bounded<T>(promise: Promise<T>, { ms, clock, kind, breaker, throttled }: { ms?: number; clock: Clock; kind: string; breaker: CircuitBreaker; throttled: () => boolean }): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // A call that spent its time paced by the crowd's rate limit was answered ("Rate exceeded"): not an outage.
    const late = (s: number) =>
      throttled() ? new CrowdError(`${kind} is throttling Accord's calls (rate exceeded): this one did not finish within ${s} s and is tried again at the next pass.`, "throttled") : new CrowdError(`${kind} did not answer within ${s} s.`, "network");
    const timer = ms ? clock.every(ms, () => settle(() => reject(late(Math.round(ms / 1000))))) : null;
    const unsubscribe = breaker.onOpen(() => settle(() => reject(breakerRefusal(kind, breaker))));
    let settled = false;
    function settle(then: () => void) {
      if (settled) return;
      settled = true;
      timer?.stop();
      unsubscribe();
      then();
    }
    promise.then(
      (v) => settle(() => resolve(v)),
      (err: unknown) => settle(() => reject(err)),
    );
  });
}

/**
 * The provider with every call passed through the breaker: refused at once while it is open (but for the due probe),
 * and each outcome recorded; a call still unsettled after `deadlineMs` (the SDK retrying a dead address) counts as
 * failed. Async generators (listings) count when they end or fail.
 */
export function guardProvider<P extends CrowdProvider>(provider: P, breaker: CircuitBreaker, { deadlineMs, clock = systemClock }: { deadlineMs?: number; clock?: Clock } = {}): P {
  const record = {
    ok: <T>(value: T) => {
      breaker.succeeded();
      return value;
    },
    fail: (err: unknown): never => {
      breaker.failed(err);
      throw err;
    },
  };
  return new Proxy(provider, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== "function" || key === "constructor") return value;
      return (...args: unknown[]) => {
        if (!breaker.allow()) {
          const refused = breakerRefusal(target.kind, breaker);
          // A listing is called without await: refuse it when it is iterated, as the provider itself would.
          return isListing(target, key) ? refusedListing(refused) : Promise.reject(refused);
        }
        let result: unknown;
        try {
          result = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (err) {
          return record.fail(err);
        }
        const throttledAtStart = throttleCount(target);
        const limits = { ms: deadlineMs, clock, kind: target.kind, breaker, throttled: () => throttleCount(target) > throttledAtStart };
        if (result && typeof (result as PromiseLike<unknown>).then === "function") return bounded(result as Promise<unknown>, limits).then(record.ok, record.fail);
        if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
          return watchedListing(result as AsyncIterable<unknown>, record, (next) => bounded(next, limits));
        }
        return result;
      };
    },
  });
}

/** How many of the provider's calls its crowd has throttled so far (providers with a ThrottleGate; 0 otherwise). */
function throttleCount(provider: object): number {
  const gate = (provider as { gate?: { stats?: { throttled?: number } } }).gate;
  return gate?.stats?.throttled ?? 0;
}

/** The provider's methods that hand back an async iterable rather than a promise (CrowdProvider's listings). */
const LISTINGS = new Set<string | symbol>(["listSubmittedAssignments"]);

function isListing(target: object, key: string | symbol): boolean {
  const fn = (target as Record<string | symbol, unknown>)[key];
  return LISTINGS.has(key) || (typeof fn === "function" && fn.constructor?.name === "AsyncGeneratorFunction");
}

// a listing refused while the crowd is out: it fails on its first read
async function* refusedListing(err: unknown): AsyncGenerator<never> {
  yield* [];
  throw err;
}

/** A listing whose every read is bounded like a call (a hanging crowd's listing fails at the deadline, too). */
async function* watchedListing<T>(
  source: AsyncIterable<T>,
  record: { ok: <V>(v: V) => V; fail: (err: unknown) => never },
  limit: (next: Promise<IteratorResult<T>>) => Promise<IteratorResult<T>>,
): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  const close = () => void Promise.resolve(it.return?.()).catch(() => undefined);
  let ended = false;
  try {
    for (;;) {
      const step = await limit(it.next());
      if (step.done) break;
      yield step.value;
    }
    ended = true;
  } catch (err) {
    ended = true;
    close(); // a read that failed (or was cut off) leaves the source to finish on its own
    record.fail(err);
  } finally {
    if (!ended) {
      close(); // the reader stopped early: the crowd answered the reads it made
      record.ok(undefined);
    }
  }
  record.ok(undefined);
}
