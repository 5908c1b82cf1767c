import { DEFAULT_CURRENCY, formatMoney } from "@/lib/text/format";

/**
 * Money across crowds (pure): amounts are summed per currency and never across (USD + GBP is not a number), shown as
 * "$12.00 + £3.50", and ranked currency first, then amount.
 */
export type Money = { currency: string; minor: number };

/** Accord's default currency (USD) first, then by ISO code: the order totals are listed and sort groups ranked in. */
export function compareCurrencies(a: string, b: string): number {
  if (a === b) return 0;
  if (a === DEFAULT_CURRENCY) return -1;
  if (b === DEFAULT_CURRENCY) return 1;
  return a < b ? -1 : 1;
}

/** One total per currency, in compareCurrencies order. */
export function sumByCurrency(amounts: Iterable<Money>): Money[] {
  const totals = new Map<string, number>();
  for (const { currency, minor } of amounts) totals.set(currency, (totals.get(currency) ?? 0) + minor);
  return [...totals].map(([currency, minor]) => ({ currency, minor })).sort((a, b) => compareCurrencies(a.currency, b.currency));
}

/** A total with nothing in it as zero in `currency` (a row then still says which currency it counts in). */
export function orZero(totals: Money[], currency: string): Money[] {
  return totals.length ? totals : [{ currency, minor: 0 }];
}

/** The part of a total in one currency (0 when it has none). */
export function amountIn(totals: readonly Money[], currency: string): number {
  return totals.reduce((sum, m) => (m.currency === currency ? sum + m.minor : sum), 0);
}

/** "$12.00 + £3.50"; a total with nothing in it is zero in `emptyCurrency`. */
export function formatMoneyTotals(totals: readonly Money[], emptyCurrency: string = DEFAULT_CURRENCY): string {
  return totals.length ? totals.map((m) => formatMoney(m.minor, m.currency)).join(" + ") : formatMoney(0, emptyCurrency);
}

/**
 * Orders totals for a sortable column: by currency group (a total's first currency; the groups stay in
 * compareCurrencies order whatever the direction), then by the amount in that currency in `dir`.
 */
export function compareMoneyTotals(a: readonly Money[], b: readonly Money[], dir: "asc" | "desc", emptyCurrency: string = DEFAULT_CURRENCY): number {
  const x = a[0] ?? { currency: emptyCurrency, minor: 0 };
  const y = b[0] ?? { currency: emptyCurrency, minor: 0 };
  return compareCurrencies(x.currency, y.currency) || (dir === "asc" ? 1 : -1) * (x.minor - y.minor);
}
