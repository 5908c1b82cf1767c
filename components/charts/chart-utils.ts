/** Colours and axis formatters shared by the dashboard's charts. */
import { formatMoney, minorToMajor } from "@/lib/text/format";
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

/**
 * A tick formatter for a time axis whose ticks are at least `stepMs` apart (UTC, like every time on the dashboard):
 * HH:MM:SS under a minute, HH:MM under a day, else MM-DD — so that two ticks never read the same.
 */
export function timeTick(stepMs: number): (t: number) => string {
  return (t: number) => {
    const iso = new Date(t).toISOString();
    return stepMs < 60_000 ? iso.slice(11, 19) : stepMs < 86_400_000 ? iso.slice(11, 16) : iso.slice(5, 10);
  };
}

const NICE_STEPS_MS = [1, 2, 5, 10, 15, 30].map((s) => s * 1000).concat([1, 2, 5, 10, 15, 30].map((m) => m * 60_000), [1, 2, 3, 6, 12].map((h) => h * 3_600_000), [1, 2, 7, 14, 30].map((d) => d * 86_400_000));

/** Round-numbered ticks (every 5 min, every hour, …) from `min` to `max`, at most `count` of them, and their formatter. */
export function timeTicks(min: number, max: number, count = 6): { ticks: number[]; format: (t: number) => string } {
  const span = Math.max(1, max - min);
  const step = NICE_STEPS_MS.find((s) => span / s <= count) ?? NICE_STEPS_MS[NICE_STEPS_MS.length - 1];
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max; t += step) ticks.push(t);
  return { ticks: ticks.length ? ticks : [min], format: timeTick(step) };
}

/** Legends list their series in the order the chart draws them (recharts sorts them by name otherwise). */
export const LEGEND_PROPS = { itemSorter: null, wrapperStyle: { fontSize: 12 } } as const;

export function timeLabel(t: unknown): string {
  return typeof t === "number" ? `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC` : String(t);
}

/** An amount on a chart: whole units from 1,000 up (axis ticks stay short). */
export function chartMoney(minor: number, currency: string): string {
  return formatMoney(minor, currency, { whole: minorToMajor(minor, currency) >= 1000 });
}

export const AXIS_STYLE = { fontSize: 11, fill: "#64748b" } as const;
