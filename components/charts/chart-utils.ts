/** Colours and axis formatters shared by the dashboard's charts. */
export const COLORS = {
  approve: "#10b981",
  reject: "#ef4444",
  hold: "#f59e0b",
  kappa: "#2f6fdb",
  alpha: "#8b5cf6",
  observed: "#0d9488",
  majority: "#ea580c",
  spend: "#2459b8",
  budget: "#dc2626",
  bar: "#2f6fdb",
  muted: "#94a3b8",
} as const;

export const SERIES_PALETTE = ["#2f6fdb", "#0d9488", "#ea580c", "#8b5cf6", "#db2777", "#65a30d", "#0891b2", "#ca8a04", "#7c3aed", "#dc2626", "#475569", "#16a34a"];

/** A tick for a time axis: HH:MM within a day, else MM-DD (UTC, like every time on the dashboard). */
export function timeTick(spanMs: number): (t: number) => string {
  return (t: number) => {
    const iso = new Date(t).toISOString();
    return spanMs <= 36 * 3600_000 ? iso.slice(11, 16) : iso.slice(5, 10);
  };
}

export function timeLabel(t: unknown): string {
  return typeof t === "number" ? `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC` : String(t);
}

export function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(cents >= 100_000 ? 0 : 2)}`;
}

export const AXIS_STYLE = { fontSize: 11, fill: "#64748b" } as const;
