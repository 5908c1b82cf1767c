import { CrowdError, type CrowdErrorCode } from "../errors";

/** Prolific's two error body shapes ([1] the CLI parses them in this order); anything else is passed as text. */
export function prolificErrorText(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return typeof body === "string" && body.trim() ? body.trim() : undefined;
  const record = body as Record<string, unknown>;
  const inner = record.error && typeof record.error === "object" ? (record.error as Record<string, unknown>) : record;
  const parts = [inner.title, inner.message, detailText(inner.detail), inner.additional_information].filter(
    (p): p is string => typeof p === "string" && p.trim() !== "",
  );
  return parts.length ? [...new Set(parts)].join(": ") : undefined;
}

/** `detail` is a string or an object of field → messages. */
function detailText(detail: unknown): string | undefined {
  if (typeof detail === "string") return detail;
  if (!detail || typeof detail !== "object") return undefined;
  return Object.entries(detail as Record<string, unknown>)
    .map(([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.join(" ") : String(messages)}`)
    .join("; ");
}

const BY_STATUS: Record<number, CrowdErrorCode> = {
  400: "invalid_parameter",
  401: "permission_denied",
  403: "permission_denied",
  404: "not_found",
  405: "invalid_parameter",
  422: "invalid_parameter",
  429: "throttled",
};

const ADVICE: Partial<Record<CrowdErrorCode, string>> = {
  permission_denied: "Check the Prolific API token in Settings (tokens carry the account's permissions; a 401 can also mean the item belongs to another workspace).",
  throttled: "Prolific is busy with this workspace's wallet; Accord retried with back-off. Wait a minute and resume.",
  service_unavailable: "Prolific answered with a server error; Accord retried. Try again later.",
  network: "Check this server's connection to api.prolific.com.",
};

/** A researcher-readable CrowdError for an HTTP answer of Prolific's. */
export function prolificHttpError(operation: string, status: number, body: unknown): CrowdError {
  const code = BY_STATUS[status] ?? (status >= 500 ? "service_unavailable" : "unknown");
  const text = prolificErrorText(body);
  const message = [`Prolific refused ${operation} (HTTP ${status})${text ? `: ${text}` : "."}`, ADVICE[code]].filter(Boolean).join(" ");
  return new CrowdError(message, code, { operation, httpStatus: status, providerMessage: text });
}

export function prolificNetworkError(operation: string, cause: unknown): CrowdError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new CrowdError(`Cannot reach Prolific for ${operation} (${detail}). ${ADVICE.network}`, "network", { operation, providerMessage: detail });
}
