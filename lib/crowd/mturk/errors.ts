import { CrowdError, type CrowdErrorCode } from "../errors";
import type { MturkMode } from "./client";

interface SdkErrorLike {
  name?: string;
  message?: string;
  code?: string;
  TurkErrorCode?: string;
  $fault?: "client" | "server";
  $metadata?: { httpStatusCode?: number };
}

/** "Hit 3ABC… does not exist. (1624047673969)" → "Hit 3ABC… does not exist." */
export function stripServiceTimestamp(message: string): string {
  return message.replace(/\s*\(\d{10,}(?: s)?\)\s*$/, "").trim();
}

const TURK_CODES: Record<string, CrowdErrorCode> = {
  HitAlreadyExists: "hit_already_exists",
  InsufficientFunds: "insufficient_funds",
  InvalidAssignmentState: "invalid_assignment_state",
  InvalidHITState: "invalid_hit_state",
  InvalidMaximumAssignmentsIncrease: "invalid_assignment_increase",
  HITDoesNotExist: "not_found",
  AssignmentDoesNotExist: "not_found",
  QualificationDoesNotExist: "not_found",
  QualificationTypeDoesNotExist: "not_found",
  QualificationRequestDoesNotExist: "not_found",
  HITTypeDoesNotExist: "not_found",
  HITLayoutDoesNotExist: "not_found",
  QualificationTypeAlreadyExists: "already_exists",
  PermissionDenied: "permission_denied",
  HITTooOldForExtension: "invalid_hit_state",
};

const PREFIX: Record<CrowdErrorCode, string> = {
  hit_already_exists: "HIT already exists",
  duplicate_request: "Already done",
  insufficient_funds: "Insufficient funds in the MTurk account",
  invalid_assignment_state: "The assignment is not in a state that allows this",
  invalid_hit_state: "The HIT is not in a state that allows this",
  invalid_assignment_increase: "Cannot add these assignments",
  not_found: "Not found on MTurk",
  already_exists: "Already exists on MTurk",
  worker_not_found_sandbox: "Worker not found in the MTurk sandbox",
  invalid_parameter: "MTurk rejected a parameter",
  permission_denied: "Permission denied by MTurk",
  throttled: "MTurk is throttling requests",
  service_unavailable: "MTurk is unavailable",
  too_large: "Too large for MTurk",
  network: "Cannot reach MTurk",
  unknown: "MTurk error",
};

const ADVICE: Partial<Record<CrowdErrorCode, string>> = {
  insufficient_funds: "Add funds to the requester account (or lower the reward) and try again.",
  worker_not_found_sandbox: "Sandbox and production have separate worker ids; use a worker id from the sandbox.",
  throttled: "Accord retried with backoff; wait a minute and resume.",
  service_unavailable: "Accord retried with backoff; try again later.",
  invalid_assignment_increase: "A HIT created with fewer than 10 assignments cannot be extended to 10 or more; publish a new HIT instead.",
};

/**
 * Turns any error thrown by the SDK (or the network) into a CrowdError with a stable code and a message a
 * researcher can act on. `operation` names the call for the message.
 */
export function toCrowdError(err: unknown, { operation, mode, endpoint }: { operation: string; mode: MturkMode; endpoint?: string }): CrowdError {
  if (err instanceof CrowdError) return err;
  const e = (err ?? {}) as SdkErrorLike;
  const name = e.name ?? "Error";
  const providerMessage = stripServiceTimestamp(e.message ?? String(err));
  const httpStatus = e.$metadata?.httpStatusCode;
  const turk = e.TurkErrorCode?.replace(/^AWS\.MechanicalTurk\./, "");
  let code: CrowdErrorCode = "unknown";
  if (turk && TURK_CODES[turk]) code = TURK_CODES[turk];
  else if (/idempotency token .* has already been processed/i.test(providerMessage)) code = "duplicate_request";
  else if (name === "ParameterValidationError") {
    code = /parameter WorkerId/.test(providerMessage) ? (mode === "sandbox" ? "worker_not_found_sandbox" : "not_found") : "invalid_parameter";
  } else if (name === "ValidationException") code = "invalid_parameter";
  else if (name === "ThrottlingException" || name === "TooManyRequestsException" || httpStatus === 429) code = "throttled";
  else if (name === "ServiceFault" || (httpStatus !== undefined && httpStatus >= 500)) code = "service_unavailable";
  else if (["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "EAI_AGAIN"].includes(e.code ?? "") || name === "TimeoutError") code = "network";
  else if (name === "RequestError") code = "invalid_parameter";

  let message = `${PREFIX[code]} (${operation}): ${providerMessage}`;
  if (code === "network") {
    message =
      mode === "simulator"
        ? `Cannot reach the MTurk simulator at ${endpoint ?? "its endpoint"} (${operation}). Start it with "npx accord simulator" or check the simulator URL.`
        : `Cannot reach MTurk ${mode} at ${endpoint ?? "its endpoint"} (${operation}): ${providerMessage}`;
  }
  const advice = ADVICE[code];
  if (advice) message += ` ${advice}`;
  return new CrowdError(message, code, { providerCode: e.TurkErrorCode ?? name, operation, httpStatus, providerMessage });
}

/** The HIT id inside a HitAlreadyExists message, if the service put one there. */
export function hitIdFromMessage(message: string): string | undefined {
  const m = /HITId[:\s"]+([A-Z0-9]{20,64})\b/.exec(message) ?? /\b(3[A-Z0-9]{29})\b/.exec(message);
  return m?.[1];
}
