import { IMPORT_STATUS } from "@/lib/db/enums";

type StepLike = { step?: unknown; label?: unknown; removed?: unknown };

/** The funnel's steps that removed rows (not the row errors' "valid" step), biggest first, by their label. */
function droppingSteps(funnel: unknown): Array<{ label: string; removed: number }> {
  if (!Array.isArray(funnel)) return [];
  return (funnel as StepLike[])
    .filter((s) => typeof s?.removed === "number" && s.removed > 0 && s.step !== "valid" && s.step !== "read")
    .map((s) => ({ label: typeof s.label === "string" ? s.label : String(s.step), removed: s.removed as number }))
    .sort((a, b) => b.removed - a.removed);
}

/**
 * Whether a finished import deserves a warning rather than a green "completed": nothing stored, or more
 * than half of the rows read dropped (filters and errors together). null: no warning. The sentence points at what
 * dropped the rows: the row errors only when there are some, else the funnel's steps that removed most.
 */
export function importWarning({ status, rowsRead, rowsStored, errorCount, funnel }: { status: string; rowsRead: number; rowsStored: number; errorCount?: number; funnel?: unknown }): string | null {
  if (status !== IMPORT_STATUS.completed) return null;
  const n = (x: number) => x.toLocaleString("en-US");
  const steps = droppingSteps(funnel).slice(0, 2);
  const where = [
    ...(errorCount ? [`the ${n(errorCount)} row error${errorCount === 1 ? "" : "s"}`] : []),
    ...steps.map((s) => `${s.label} (${n(s.removed)})`),
  ];
  const see = where.length ? `dropped by ${where.join(", ")}: see the funnel${errorCount ? " and the row errors" : ""}.` : errorCount === 0 ? "no row had an error: see the funnel." : "see the funnel and the row errors.";
  if (rowsStored === 0) return rowsRead === 0 ? "Nothing was stored." : `Nothing was stored from ${n(rowsRead)} rows read: ${see}`;
  if (rowsStored * 2 < rowsRead) return `Only ${n(rowsStored)} of ${n(rowsRead)} rows were stored (more than half were dropped): ${see}`;
  return null;
}
