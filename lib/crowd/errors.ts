import { UserError } from "@/lib/errors";

/**
 * Stable error codes of every crowd provider. Callers branch on `code`, never on the message.
 * - hit_already_exists: a HIT with the same UniqueRequestToken exists (publishHit recovers it itself).
 * - duplicate_request: an idempotency token was already used (bonus / extra assignments already applied).
 * - insufficient_funds: the account balance cannot cover reward + fee (or bonus + fee).
 * - invalid_assignment_state / invalid_hit_state: the operation is not allowed in the current state.
 * - invalid_assignment_increase: a HIT with < 10 assignments cannot grow to ≥ 10.
 * - not_found: HIT, assignment, qualification type or qualification does not exist.
 * - already_exists: e.g. a qualification type with the same name.
 * - worker_not_found_sandbox: a WorkerId is not valid in the sandbox (production ids are not).
 * - invalid_parameter: a request member is missing or malformed.
 * - permission_denied: the requester may not do this (e.g. a qualification type it does not own).
 * - throttled / service_unavailable: still failing after the SDK's retries.
 * - too_large: an XML document exceeds MTurk's 64 KB limit.
 * - network: the endpoint could not be reached.
 * - unknown: anything else (message passed through).
 */
export type CrowdErrorCode =
  | "hit_already_exists"
  | "duplicate_request"
  | "insufficient_funds"
  | "invalid_assignment_state"
  | "invalid_hit_state"
  | "invalid_assignment_increase"
  | "not_found"
  | "already_exists"
  | "worker_not_found_sandbox"
  | "invalid_parameter"
  | "permission_denied"
  | "throttled"
  | "service_unavailable"
  | "too_large"
  | "network"
  | "unknown";

export interface CrowdErrorDetails {
  /** The provider's own code, e.g. "AWS.MechanicalTurk.InsufficientFunds" or "ThrottlingException". */
  providerCode?: string;
  /** The provider operation, e.g. "CreateHIT". */
  operation?: string;
  httpStatus?: number;
  /** The provider's original message. */
  providerMessage?: string;
}

export class CrowdError extends UserError {
  declare readonly code: CrowdErrorCode;

  constructor(
    message: string,
    code: CrowdErrorCode,
    readonly details: CrowdErrorDetails = {},
  ) {
    super(message, code);
    this.name = "CrowdError";
  }
}

export function isCrowdError(err: unknown, code?: CrowdErrorCode): err is CrowdError {
  return err instanceof CrowdError && (code === undefined || err.code === code);
}
