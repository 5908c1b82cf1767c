import { MTurkClient } from "@aws-sdk/client-mturk";
import type { RetryErrorInfo, RetryStrategyV2, RetryToken, StandardRetryToken } from "@smithy/types";
import { StandardRetryStrategy } from "@smithy/util-retry";
import { CrowdError } from "../errors";
import { addQuestionSlots } from "./question-body";

/**
 * MTurk client factory. Modes:
 * - simulator (default): the local simulator (lib/crowd/simulator), `simulatorUrl` (default http://127.0.0.1:9400);
 * - sandbox: https://mturk-requester-sandbox.us-east-1.amazonaws.com (no real money);
 * - production: https://mturk-requester.us-east-1.amazonaws.com.
 * Always region us-east-1 (MTurk exists only there; signing with "sandbox" as region would be wrong).
 * Credentials are passed in by the caller (server side: environment or encrypted settings); this module never
 * reads them itself, and nothing here may be imported into browser code.
 */
export type MturkMode = "simulator" | "sandbox" | "production";
export type MturkRetryMode = "standard" | "adaptive";

export const MTURK_ENDPOINTS = {
  production: "https://mturk-requester.us-east-1.amazonaws.com",
  sandbox: "https://mturk-requester-sandbox.us-east-1.amazonaws.com",
} as const;

export const DEFAULT_SIMULATOR_URL = "http://127.0.0.1:9400";
export const MTURK_REGION = "us-east-1";
/** More attempts than the SDK's default of 3: throttling under batch publishing is normal on MTurk. */
export const DEFAULT_MAX_ATTEMPTS = 8;
/** A call that has not connected, or not received its next bytes, within this many ms has failed. */
export const DEFAULT_CALL_TIMEOUT_MS = 10_000;

export interface MturkCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface MturkClientConfig {
  mode: MturkMode;
  /** Required for sandbox and production; the simulator accepts any (defaults to static fake ones). */
  credentials?: MturkCredentials;
  /** Simulator endpoint (mode "simulator" only). */
  simulatorUrl?: string;
  /** SDK attempts per call including the first (default 8); a function is asked at every call (fewer while the crowd is down). */
  maxAttempts?: number | (() => number);
  /** The longest a call may wait to connect, and for each read, in ms (default 10 s: a dead address fails in time). */
  callTimeoutMs?: number;
  /** The SDK's retry mode (default "standard"; see DEFAULT_RETRY_MODE). */
  retryMode?: MturkRetryMode;
  /**
   * Who retries a throttled call: "sdk" (default), or "caller" — the SDK then gives a ThrottlingException back at
   * once and retries only faults and network errors, because the caller paces the whole client itself (the
   * MturkProvider's ThrottleGate). Standard retry mode only.
   */
  throttling?: "sdk" | "caller";
}

/** The SDK's standard retries, except for throttling, which is left to the caller (see `throttling`). */
class StandardRetriesExceptThrottling implements RetryStrategyV2 {
  private readonly inner: StandardRetryStrategy;
  constructor(maxAttempts: number | (() => Promise<number>)) {
    this.inner = typeof maxAttempts === "number" ? new StandardRetryStrategy(maxAttempts) : new StandardRetryStrategy(maxAttempts);
  }
  acquireInitialRetryToken(scope: string): Promise<RetryToken> {
    return this.inner.acquireInitialRetryToken(scope);
  }
  refreshRetryTokenForRetry(token: RetryToken, errorInfo: RetryErrorInfo): Promise<RetryToken> {
    // Refusing the token makes the SDK throw the ThrottlingException itself.
    if (errorInfo.errorType === "THROTTLING") return Promise.reject(new Error("throttling is retried by the caller"));
    return this.inner.refreshRetryTokenForRetry(token as StandardRetryToken, errorInfo);
  }
  recordSuccess(token: RetryToken): void {
    this.inner.recordSuccess(token as StandardRetryToken);
  }
}

/**
 * Standard retries: a faulted call is tried again after a jittered exponential back-off; throttling is paced by the
 * MturkProvider's ThrottleGate (createMturkProvider sets `throttling: "caller"`). Not "adaptive": its client-side
 * rate limiter cuts the sending rate by 30% at every throttled response, so sporadic throttling (the benchmark's
 * 3% at random under a 50 req/s limit) holds the whole client near 14 req/s, and each request then waits alone
 * (scripts/bench/campaign.ts --retry-mode adaptive against --throttle-retries sdk; figures in the README).
 */
export const DEFAULT_RETRY_MODE: MturkRetryMode = "standard";

export function mturkEndpoint(config: Pick<MturkClientConfig, "mode" | "simulatorUrl">): string {
  return config.mode === "simulator" ? (config.simulatorUrl ?? DEFAULT_SIMULATOR_URL) : MTURK_ENDPOINTS[config.mode];
}

export function createMturkClient(config: MturkClientConfig): MTurkClient {
  let credentials = config.credentials;
  if (!credentials || !credentials.accessKeyId || !credentials.secretAccessKey) {
    if (config.mode !== "simulator") {
      throw new CrowdError(
        `MTurk ${config.mode} needs AWS credentials (an access key id and secret access key of the requester account). Set them in the server's environment or in the encrypted settings.`,
        "invalid_parameter",
      );
    }
    credentials = { accessKeyId: "SIMULATOR", secretAccessKey: "simulator-secret" };
  }
  const attempts = config.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const maxAttempts = typeof attempts === "function" ? async () => attempts() : attempts;
  const timeout = config.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const retryMode = config.retryMode ?? DEFAULT_RETRY_MODE;
  if (config.throttling === "caller" && retryMode !== "standard") throw new Error('throttling "caller" needs the standard retry mode');
  const client = new MTurkClient({
    region: MTURK_REGION,
    endpoint: mturkEndpoint(config),
    credentials,
    maxAttempts,
    retryMode,
    ...(config.throttling === "caller" ? { retryStrategy: new StandardRetriesExceptThrottling(maxAttempts) } : {}),
    requestHandler: { connectionTimeout: timeout, requestTimeout: timeout },
    // Resolves each command's middleware stack once instead of at every call (Accord never changes the stack).
    cacheMiddleware: true,
  });
  addQuestionSlots(client); // CreateHIT's question as JSON.stringify writes it (question-body.ts)
  return client;
}
