/** An error the Prolific simulator answers with, in the first of Prolific's two body shapes. */
export class ProlificSimError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string | Record<string, string[]>,
  ) {
    super(typeof detail === "string" ? detail : title);
    this.name = "ProlificSimError";
  }

  body(): Record<string, unknown> {
    // error_code is opaque in Prolific's API (no catalogue is published): the simulator sends status × 1000.
    return { error: { status: this.status, error_code: this.status * 1000, title: this.title, detail: this.detail, additional_information: "" } };
  }
}

export const badRequest = (detail: string | Record<string, string[]>) => new ProlificSimError(400, "Bad request", detail);
export const notFound = (what: string) => new ProlificSimError(404, "Not found", `${what} not found.`);
export const tooManyRequests = () => new ProlificSimError(429, "Too many requests", "Request was throttled.");
export const serverError = () => new ProlificSimError(500, "Internal server error", "Something went wrong; please try again.");
