/** Display formatting shared by the dashboard's server and client components (pure). */

const intFormat = new Intl.NumberFormat("en-US");

export function formatInt(n: number | null | undefined): string {
  return n === null || n === undefined || Number.isNaN(n) ? "–" : intFormat.format(n);
}

/** A ratio in [0, 1] as a percentage with `digits` decimals; "–" when undefined. */
export function formatPercent(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  return `${(value * 100).toFixed(digits)}%`;
}

/** count / total as a percentage, "–" when total is 0. */
export function formatShare(count: number, total: number, digits = 1): string {
  return total > 0 ? formatPercent(count / total, digits) : "–";
}

/** An agreement coefficient (κ, α) with three decimals, "–" when undefined (NaN or null). */
export function formatCoefficient(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  return value.toFixed(digits);
}

/** The currency of MTurk and the in-house crowd, and of Accord's global settings (budget cap, default reward). */
export const DEFAULT_CURRENCY = "USD";

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** en-US currency formatting for an ISO 4217 code (Intl knows each currency's symbol and minor-unit digits). */
function moneyFormat(currency: string, whole = false): Intl.NumberFormat {
  const key = `${currency}|${whole}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency, ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}) });
    moneyFormats.set(key, format);
  }
  return format;
}

/** The major amount of `minor` units of a currency (cents, pence: 2 digits; yen: 0), as Intl defines the currency. */
export function minorToMajor(minor: number, currency: string): number {
  const digits = moneyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
  return Math.round(minor) / 10 ** digits;
}

/**
 * An amount in minor units of `currency` (as Prolific and MTurk count money) as "$1,234.56", "£1.50" or "€0.20";
 * `whole` drops the minor digits (chart axes). "–" when undefined; an unknown code is shown after the number.
 */
export function formatMoney(minor: number | null | undefined, currency: string, options: { whole?: boolean } = {}): string {
  if (minor === null || minor === undefined || !Number.isFinite(minor)) return "–";
  try {
    return moneyFormat(currency, options.whole).format(minorToMajor(minor, currency));
  } catch {
    return `${(Math.round(minor) / 100).toFixed(2)} ${currency}`;
  }
}

/** What a form's amount field counts in: "cents" for USD, else "minor units of GBP" (Prolific counts pence). */
export function minorUnitName(currency: string): string {
  return currency === DEFAULT_CURRENCY ? "cents" : `minor units of ${currency}`;
}

/** Cents in US dollars: Accord's global settings and MTurk events. */
export function formatCents(cents: number | null | undefined): string {
  return formatMoney(cents, DEFAULT_CURRENCY);
}

/** A date as YYYY-MM-DD (UTC), "–" when missing. */
export function formatDate(d: Date | string | null | undefined): string {
  if (!d) return "–";
  const date = typeof d === "string" ? new Date(d) : d;
  return Number.isNaN(date.getTime()) ? "–" : date.toISOString().slice(0, 10);
}

/** A timestamp as YYYY-MM-DD HH:MM:SS UTC. */
export function formatDateTime(d: Date | string | number | null | undefined): string {
  if (d === null || d === undefined) return "–";
  const date = d instanceof Date ? d : new Date(d);
  return Number.isNaN(date.getTime()) ? "–" : `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** A duration in seconds as "1 h 05 min", "4 min 10 s" or "12 s". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "–";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
}
