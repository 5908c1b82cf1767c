/**
 * Retry with back-off, shared by the crowds' adapters and stores: the delay of an attempt (exponential, capped,
 * jittered as the caller's crowd documents it) and a loop that tries again while a failure is retryable.
 * Throttling is not retried here: each crowd's ThrottleGate (throttle-gate.ts) paces all its calls at once.
 */

export type Backoff = {
  /** The first delay; each further attempt doubles it. */
  baseMs: number;
  /** No delay is longer. */
  capMs?: number;
  /** "half": a random share of 50–100% of the delay (MTurk's guidance); "none": the delay as it is. */
  jitter?: "none" | "half";
};

/** The delay before retry number `retry` (0 for the first retry). */
export function backoffMs(retry: number, { baseMs, capMs = Number.POSITIVE_INFINITY, jitter = "none" }: Backoff, random: () => number = Math.random): number {
  const delay = Math.min(capMs, baseMs * 2 ** retry);
  return jitter === "half" ? delay * (0.5 + random() / 2) : delay;
}

/** Waits `ms` milliseconds (the real clock: a crowd is really waited for). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs `fn` until it succeeds, a failure is not `retryable`, or `attempts` attempts failed (the last failure is
 * thrown); waits `delayMs(retry)` between attempts.
 */
export async function retryWithBackoff<T>(
  fn: (attempt: number) => Promise<T>,
  { attempts, retryable, delayMs, sleep = pause }: { attempts: number; retryable: (err: unknown) => boolean; delayMs: (retry: number) => number; sleep?: (ms: number) => Promise<void> },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= attempts || !retryable(err)) throw err;
      await sleep(delayMs(attempt - 1));
    }
  }
}
