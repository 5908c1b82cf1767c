import { createRng, seedFrom, type Rng } from "@/lib/util/random";

/** Fault injection, each at a seeded rate (same seed and request order → same faults). Rates are fractions 0–1. */
export interface LlmSimulatorFaults {
  /** Requests answered 429 with a `retry-after` header. */
  rateLimitRate?: number;
  /** Seconds in that `retry-after` header (default 1; fractions allowed, the openai client honours them). */
  retryAfterSeconds?: number;
  /** Requests answered 500 (OpenAI's server_error body). */
  serverErrorRate?: number;
  /** Requests never answered: held until the client gives up (or `hangMs`, default 10 minutes, then dropped). */
  timeoutRate?: number;
  hangMs?: number;
  /** Extra latency per answered request in ms: a fixed number or a [min, max] range. */
  latencyMs?: number | [number, number];
  /** Answers whose content (or tool arguments) is not valid JSON: cut short, or wrapped in prose. */
  malformedRate?: number;
  /** Items (not requests) answered with a label outside the scheme. */
  outOfSchemeRate?: number;
}

/** What a request gets, forced by the `x-simulator-fault` header or drawn at the rates above. */
export type RequestFault = "rate_limit" | "server_error" | "timeout" | null;

export const FORCEABLE_FAULTS = ["rate_limit", "server_error", "timeout", "malformed", "out_of_scheme"] as const;
export type ForcedFault = (typeof FORCEABLE_FAULTS)[number];

export class FaultInjector {
  private readonly rng: Rng;

  constructor(
    public faults: LlmSimulatorFaults,
    seed: number,
  ) {
    this.rng = createRng(seedFrom(seed, "llm-faults"));
  }

  private hit(rate: number | undefined): boolean {
    return !!rate && rate > 0 && this.rng() < rate;
  }

  latency(): number {
    const l = this.faults.latencyMs;
    if (l === undefined) return 0;
    return typeof l === "number" ? l : l[0] + this.rng() * (l[1] - l[0]);
  }

  /** Drawn in a fixed order (one draw per configured rate) so the stream of faults depends only on the seed. */
  requestFault(forced: ForcedFault | null): RequestFault {
    if (forced === "rate_limit" || forced === "server_error" || forced === "timeout") return forced;
    if (this.hit(this.faults.rateLimitRate)) return "rate_limit";
    if (this.hit(this.faults.serverErrorRate)) return "server_error";
    if (this.hit(this.faults.timeoutRate)) return "timeout";
    return null;
  }

  malformed(forced: ForcedFault | null): "truncated" | "prose" | null {
    if (forced !== "malformed" && !this.hit(this.faults.malformedRate)) return null;
    return this.rng() < 0.5 ? "truncated" : "prose";
  }

  outOfScheme(forced: ForcedFault | null): boolean {
    return forced === "out_of_scheme" || this.hit(this.faults.outOfSchemeRate);
  }
}

/** A label a model might plausibly answer that is not in the scheme (a paraphrase, a refusal, a catch-all). */
export function outOfSchemeLabel(label: string, labels: string[], rng: Rng): string {
  const candidates = [label.replace(/_/g, " "), label.toUpperCase(), "other", "not_relevant", "I cannot determine the category", "N/A"];
  const outside = candidates.filter((c) => !labels.includes(c));
  return outside[Math.floor(rng() * outside.length)];
}
