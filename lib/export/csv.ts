import { stringify } from "csv-stringify/sync";

/**
 * CSV for exports: RFC 4180 quoting by a well-kept library (csv-stringify), UTF-8, "\n" line ends, and
 * every cell that a spreadsheet would run as a formula neutralised: a cell that begins with =, +, -, @
 * (or a tab or carriage return, which some spreadsheets skip before one) gets a leading apostrophe,
 * the convention spreadsheets show as text (OWASP "CSV injection").
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export type CsvCell = string | number | boolean | null | undefined;

function cellText(value: CsvCell, neutralise: boolean): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  return neutralise ? neutraliseCell(value) : value;
}

/**
 * Rows → CSV text (no header unless it is the first row). Strings are neutralised; numbers are not. `rawColumns`
 * keeps the strings of those columns as they are (an export's tweet text as data for code, documented as such in its
 * manifest; never the default): every other cell stays protected.
 */
export function csvRows(rows: ReadonlyArray<ReadonlyArray<CsvCell>>, { rawColumns = [] }: { rawColumns?: readonly number[] } = {}): string {
  if (rows.length === 0) return "";
  const raw = new Set(rawColumns);
  return stringify(
    rows.map((r) => r.map((c, k) => cellText(c, !raw.has(k)))),
    { record_delimiter: "\n" },
  );
}

export function csvLine(cells: ReadonlyArray<CsvCell>, options: { rawColumns?: readonly number[] } = {}): string {
  return csvRows([cells], options);
}

/** How a CSV export wrote its text cells, as its manifest records it. */
export type CsvTextMode = "formula-protected" | "raw";

export const CSV_TEXT_NOTES: Record<CsvTextMode, string> = {
  "formula-protected": "Text cells that begin with = + - @ (or a tab or carriage return) carry a leading apostrophe so that a spreadsheet shows them as text; strip it to recover the tweet as stored.",
  raw: "The tweet text column is exactly as stored: a tweet that begins with = + - or @ is written as is, and a spreadsheet program could run it as a formula. Open this file with code (e.g. pandas), not a spreadsheet. Other text cells carry a leading apostrophe when they begin with = + - @ (or a tab or carriage return).",
};

/** A TSV cell for the HumAID format (no quoting): tabs and line breaks become spaces. */
export function tsvCell(value: string): string {
  return value.replace(/[\t\r\n]+/g, " ").trim();
}

/** Streams an async iterable of text chunks as a UTF-8 web ReadableStream (for route handlers). */
export function textStream(chunks: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (err) {
        controller.error(err);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** Collects an async iterable of text chunks (tests, small exports). */
export async function collectText(chunks: AsyncIterable<string>): Promise<string> {
  let out = "";
  for await (const c of chunks) out += c;
  return out;
}

/** A file name safe for Content-Disposition (ASCII letters, digits, ._-). */
export function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 120) || "export";
}

export function attachmentHeaders(fileName: string, contentType: string): Record<string, string> {
  return {
    "Content-Type": contentType,
    "Content-Disposition": `attachment; filename="${safeFileName(fileName)}"`,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  };
}
