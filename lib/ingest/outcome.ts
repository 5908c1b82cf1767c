import { IMPORT_STATUS } from "@/lib/db/enums";

/**
 * Whether a finished import deserves a warning rather than a green "completed": nothing stored, or more
 * than half of the rows read dropped (filters and errors together). null: no warning.
 */
export function importWarning({ status, rowsRead, rowsStored }: { status: string; rowsRead: number; rowsStored: number }): string | null {
  if (status !== IMPORT_STATUS.completed) return null;
  const n = (x: number) => x.toLocaleString("en-US");
  if (rowsStored === 0) return rowsRead === 0 ? "Nothing was stored." : `Nothing was stored from ${n(rowsRead)} rows read: see the funnel and the row errors.`;
  if (rowsStored * 2 < rowsRead) {
    return `Only ${n(rowsStored)} of ${n(rowsRead)} rows were stored (more than half were dropped): see the funnel and the row errors.`;
  }
  return null;
}
