/**
 * The one error contract: a UserError is expected (bad input, a refused action, a provider message a
 * researcher can act on) and its message is shown as is. Anything else is logged on the server and
 * shown as a generic message.
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly code: string = "user_error",
    readonly fieldErrors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = "UserError";
  }
}

export class AuthError extends UserError {
  constructor(message = "Please sign in.", code: "unauthenticated" | "forbidden" = "unauthenticated") {
    super(message, code);
    this.name = "AuthError";
  }
}

export const GENERIC_ERROR_MESSAGE = "Something went wrong on the server. The error was logged; please try again.";

/** The one sentence shown for an unexpected error, naming the reference under which it was logged. */
export function unexpectedErrorMessage(reference: string): string {
  return `Something went wrong on the server (logged as ${reference}); please try again.`;
}

export function publicMessage(err: unknown): string {
  if (err instanceof UserError) return err.message;
  return GENERIC_ERROR_MESSAGE;
}
