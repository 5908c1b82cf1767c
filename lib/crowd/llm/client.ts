import OpenAI from "openai";
import { breakerRefusal, type CircuitBreaker } from "@/lib/crowd/circuit-breaker";
import { CrowdError } from "@/lib/crowd/errors";
import { backoffMs, pause, retryWithBackoff } from "@/lib/crowd/retry";
import type { LabelRequest } from "./prompt";

/**
 * One chat-completion call through the official `openai` package, with the SDK's own retries off (maxRetries 0):
 * Accord's back-off (lib/crowd/retry.ts; a 429 waits its `retry-after`) and the crowd circuit breaker decide, so an
 * outage of the endpoint shows the banner like any crowd's. Errors become CrowdErrors a researcher can act on.
 */
export const LLM_CROWD = "llm";

export type LlmCompletion = { text: string | null; promptTokens: number; completionTokens: number };

export type LlmClientOptions = {
  baseUrl: string;
  apiKey: string;
  model: string;
  temperature: number;
  timeoutMs: number;
  breaker: CircuitBreaker;
  /** Attempts per call (first included) before its error is thrown. */
  attempts?: number;
  /** The back-off's first delay (doubles per retry, capped at 30 s, half jitter). */
  baseDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** The breaker opened (the banner goes up) or closed again. */
  onOutage?: (err: unknown) => void;
  onRecovered?: () => void;
  /** Extra headers on every call (tests force a simulator fault with `x-simulator-fault`). */
  headers?: Record<string, string>;
};

export type LlmClient = { complete(request: LabelRequest, signal?: AbortSignal): Promise<LlmCompletion> };

/** A failed call as a CrowdError: 429 throttled, 5xx unavailable, no answer network; the rest are refusals. */
export function toLlmError(err: unknown): CrowdError {
  if (err instanceof CrowdError) return err;
  if (err instanceof OpenAI.APIConnectionError) {
    const what = err instanceof OpenAI.APIConnectionTimeoutError ? "did not answer in time" : `could not be reached (${err.message})`;
    return new CrowdError(`The language model endpoint ${what}.`, "network", { providerMessage: err.message });
  }
  if (err instanceof OpenAI.APIError && err.status !== undefined) {
    const details = { httpStatus: err.status, providerMessage: err.message, providerCode: typeof err.code === "string" ? err.code : undefined };
    if (err.status === 429) return new CrowdError(`The language model endpoint is rate limiting Accord's calls (${err.message}).`, "throttled", details);
    if (err.status >= 500) return new CrowdError(`The language model endpoint failed (HTTP ${err.status}: ${err.message}).`, "service_unavailable", details);
    if (err.status === 401 || err.status === 403) return new CrowdError(`The language model endpoint refused the API key (HTTP ${err.status}); check it in Settings.`, "permission_denied", details);
    if (err.status === 404) return new CrowdError(`The language model endpoint does not know this model or address (${err.message}); check the base URL and model in Settings.`, "not_found", details);
    return new CrowdError(`The language model endpoint refused the request (HTTP ${err.status}: ${err.message}).`, "invalid_parameter", details);
  }
  return new CrowdError(`The language model call failed: ${err instanceof Error ? err.message : String(err)}`, "unknown");
}

const RETRYABLE = new Set(["throttled", "service_unavailable", "network"]);

/** Seconds a 429 asks to wait (`retry-after`), when it says. */
function retryAfterMs(err: unknown): number | null {
  const original = err instanceof CrowdError ? (err as CrowdError & { cause?: unknown }).cause : err;
  if (!(original instanceof OpenAI.APIError) || !original.headers) return null;
  const value = Number(original.headers.get("retry-after"));
  return Number.isFinite(value) && value >= 0 ? value * 1000 : null;
}

export function createLlmClient(opts: LlmClientOptions): LlmClient {
  const { breaker, sleep = pause, attempts = 8, baseDelayMs = 500 } = opts;
  const openai = new OpenAI({ baseURL: opts.baseUrl, apiKey: opts.apiKey, timeout: opts.timeoutMs, maxRetries: 0, defaultHeaders: opts.headers });
  async function once(request: LabelRequest, signal: AbortSignal | undefined, failed: (err: unknown) => void): Promise<LlmCompletion> {
    if (!breaker.allow()) throw breakerRefusal("The language model endpoint", breaker);
    try {
      const res = await openai.chat.completions.create(
        { model: opts.model, temperature: opts.temperature, messages: request.messages, response_format: request.responseFormat },
        { signal },
      );
      if (breaker.succeeded() === "recovered") opts.onRecovered?.();
      const message = res.choices[0]?.message;
      const text = message?.content ?? message?.tool_calls?.find((c) => c.type === "function")?.function.arguments ?? null;
      return { text, promptTokens: res.usage?.prompt_tokens ?? 0, completionTokens: res.usage?.completion_tokens ?? 0 };
    } catch (err) {
      const mapped = toLlmError(err);
      Object.defineProperty(mapped, "cause", { value: err });
      if (breaker.failed(mapped) === "opened") opts.onOutage?.(mapped);
      failed(mapped);
      throw mapped;
    }
  }

  return {
    complete: (request, signal) => {
      // This call's last error (a 429's retry-after is its own, not another call's).
      let last: unknown = null;
      return retryWithBackoff(() => once(request, signal, (err) => (last = err)), {
        attempts,
        retryable: (err) => !signal?.aborted && err instanceof CrowdError && RETRYABLE.has(err.code),
        delayMs: (retry) => {
          const asked = retryAfterMs(last);
          if (asked !== null) return asked;
          if (breaker.isOpen) return breaker.probeMs;
          return backoffMs(retry, { baseMs: baseDelayMs, capMs: 30_000, jitter: "half" });
        },
        sleep,
      });
    },
  };
}
