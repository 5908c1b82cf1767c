import { stringify } from "csv-stringify/sync";
import type { RowError } from "./rows";

/** A cell that a spreadsheet would run as a formula gets a leading apostrophe. */
export function csvSafeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The per-row error report as CSV: line,column,reason,raw. */
export function renderImportErrorsCsv(errors: ReadonlyArray<Pick<RowError, "line" | "column" | "reason" | "raw">>): string {
  return stringify(
    errors.map((e) => [String(e.line), csvSafeCell(e.column ?? ""), csvSafeCell(e.reason), csvSafeCell(e.raw ?? "")]),
    { header: true, columns: ["line", "column", "reason", "raw"], record_delimiter: "\n" },
  );
}
