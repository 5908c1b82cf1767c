import "server-only";
import { env } from "@/lib/config/env";
import { CircuitBreaker } from "@/lib/crowd/circuit-breaker";

// One breaker per crowd and process, kept on globalThis: the sync loop opens it, the crowd's client reads it to retry
// less while the crowd is down (every bundle of the server shares them).
const g = globalThis as unknown as { __accordCrowdBreakers?: Map<string, CircuitBreaker> };

/** The crowd's breaker, made from ACCORD_CROWD_OUTAGE_FAILURES and ACCORD_CROWD_OUTAGE_PROBE_MS at first use. */
export function crowdBreaker(crowd: string): CircuitBreaker {
  const breakers = (g.__accordCrowdBreakers ??= new Map());
  let breaker = breakers.get(crowd);
  if (!breaker) {
    const config = env();
    breaker = new CircuitBreaker({ failures: config.ACCORD_CROWD_OUTAGE_FAILURES, probeMs: config.ACCORD_CROWD_OUTAGE_PROBE_MS });
    breakers.set(crowd, breaker);
  }
  return breaker;
}
