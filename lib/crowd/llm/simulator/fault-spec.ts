import type { LlmSimulatorFaults } from "./faults";

const KEYS: Record<string, keyof LlmSimulatorFaults> = {
  "rate-limit": "rateLimitRate",
  "server-error": "serverErrorRate",
  timeout: "timeoutRate",
  malformed: "malformedRate",
  "out-of-scheme": "outOfSchemeRate",
  "retry-after": "retryAfterSeconds",
  latency: "latencyMs",
};
const RATES = new Set<keyof LlmSimulatorFaults>(["rateLimitRate", "serverErrorRate", "timeoutRate", "malformedRate", "outOfSchemeRate"]);

/**
 * `rate-limit:0.1,server-error:0.05,timeout:0.01,malformed:0.02,out-of-scheme:0.02,retry-after:2,latency:50` →
 * faults (rates are fractions 0–1, retry-after in seconds, latency in ms). Throws naming the bad entry.
 */
export function parseLlmFaultSpec(spec: string): LlmSimulatorFaults {
  const faults: LlmSimulatorFaults = {};
  for (const part of spec.split(",").map((p) => p.trim()).filter(Boolean)) {
    const [name, value, ...rest] = part.split(":");
    const key = KEYS[name];
    const n = Number(value);
    if (!key || rest.length > 0) throw new Error(`unknown fault "${part}" (known: ${Object.keys(KEYS).join(", ")}, each as name:number)`);
    if (value === undefined || !Number.isFinite(n) || n < 0 || (RATES.has(key) && n > 1)) throw new Error(`"${part}": ${RATES.has(key) ? "a fraction between 0 and 1" : "a number >= 0"}`);
    (faults as Record<string, number>)[key] = n;
  }
  return faults;
}
