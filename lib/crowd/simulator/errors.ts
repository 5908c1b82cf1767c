/** An error the simulator answers with: HTTP status + awsJson1.1 body {"__type","Message","TurkErrorCode"}. */
export class SimError extends Error {
  constructor(
    readonly type: string,
    readonly status: number,
    message: string,
    readonly turkErrorCode?: string,
    /** Throttling uses lower-case "message" as the real service does. */
    readonly lowerCaseMessage = false,
  ) {
    super(message);
    this.name = "SimError";
  }

  body(): Record<string, string> {
    const body: Record<string, string> = { __type: this.type };
    if (this.lowerCaseMessage) body.message = this.message;
    else body.Message = this.message;
    if (this.turkErrorCode) body.TurkErrorCode = this.turkErrorCode;
    return body;
  }
}

/** The service appends "(<epoch-ms>)" to its messages. */
function stamp(message: string, nowMs: number): string {
  return `${message} (${nowMs})`;
}

export function requestError(code: string, message: string, nowMs: number): SimError {
  return new SimError("RequestError", 400, stamp(message, nowMs), `AWS.MechanicalTurk.${code}`);
}

/** A RequestError without a TurkErrorCode (e.g. a reused idempotency token). */
export function plainRequestError(message: string, nowMs: number): SimError {
  return new SimError("RequestError", 400, stamp(message, nowMs));
}

export function serviceFault(nowMs: number): SimError {
  return new SimError("ServiceFault", 500, stamp("We encountered an internal service error. Please try again.", nowMs));
}

export function throttlingError(): SimError {
  return new SimError("ThrottlingException", 400, "Rate exceeded", undefined, true);
}

export function validationError(member: string): SimError {
  const path = member.charAt(0).toLowerCase() + member.slice(1);
  return new SimError("ValidationException", 400, `1 validation error detected: Value null at '${path}' failed to satisfy constraint: Member must not be null`);
}

export function constraintError(member: string, value: unknown, constraint: string): SimError {
  const path = member.charAt(0).toLowerCase() + member.slice(1);
  return new SimError(
    "ValidationException",
    400,
    `1 validation error detected: Value '${typeof value === "string" ? value : JSON.stringify(value)}' at '${path}' failed to satisfy constraint: ${constraint}`,
  );
}

export function parameterValidationError(parameter: string, value: unknown, nowMs: number): SimError {
  const v = typeof value === "string" ? value : JSON.stringify(value);
  return new SimError("ParameterValidationError", 400, stamp(`The value "${v}" is not valid for the parameter ${parameter}.`, nowMs));
}
