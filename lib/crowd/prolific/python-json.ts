/**
 * JSON as Python's `json.dumps` writes it by default (", " and ": " separators, non-ASCII escaped as \uXXXX).
 * Prolific's docs sign `timestamp + json.dumps(body)` ([?] whether the raw body is the same bytes), so the webhook
 * check falls back to it, and the local simulator sends exactly these bytes.
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError("JSON has no NaN or Infinity");
    return JSON.stringify(value);
  }
  if (typeof value === "string") return asciiString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${asciiString(k)}: ${pythonJsonDumps(v)}`).join(", ")}}`;
  }
  throw new TypeError(`cannot serialise a ${typeof value} as JSON`);
}

/** JSON.stringify's escaping, then every non-ASCII UTF-16 unit as \uXXXX (ensure_ascii=True). */
function asciiString(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
