import { formatInt } from "@/lib/text/format";

/**
 * Breakdowns shown under a total, whose parts add up to it: nothing a reader must subtract to find.
 */

const OPEN = ["published", "reviewing", "extended"];
/** The HIT statuses past "open", in the order a HIT reaches them, with the words the pages use. */
const ENDED: Array<[string, string]> = [
  ["unresolved", "unresolved"],
  ["expired", "expired"],
  ["deleted", "deleted"],
];

/** "3 — 2 approved · 1 unresolved · 0 open": approved and open always, every other status with HITs in it. */
export function hitBreakdown(byStatus: Record<string, number>, { includeDraft = true }: { includeDraft?: boolean } = {}): string {
  const count = (s: string) => byStatus[s] ?? 0;
  const parts = [`${formatInt(count("approved"))} approved`, `${formatInt(OPEN.reduce((n, s) => n + count(s), 0))} open`];
  for (const [status, words] of ENDED) if (count(status) > 0) parts.push(`${formatInt(count(status))} ${words}`);
  if (includeDraft && count("draft") > 0) parts.push(`${formatInt(count("draft"))} not yet published`);
  const known = new Set(["approved", "draft", ...OPEN, ...ENDED.map(([s]) => s)]);
  const other = Object.entries(byStatus).filter(([s, n]) => !known.has(s) && n > 0);
  for (const [s, n] of other) parts.push(`${formatInt(n)} ${s}`);
  return parts.join(" · ");
}

/**
 * The heading over the majority vote / Dawid–Skene differences: how many differ, split like the summary above it
 * (tweets with an accepted majority label whose label differs, and tweets without one, where Dawid–Skene decides).
 */
export function differencesHeading({ total, withAcceptedLabel, shown }: { total: number; withAcceptedLabel: number; shown: number }): string {
  const withoutLabel = total - withAcceptedLabel;
  const split = total === 0 ? "" : `: ${formatInt(withAcceptedLabel)} with an accepted majority label, ${formatInt(withoutLabel)} without one`;
  return `Tweets where Dawid–Skene's label is not the majority's (${formatInt(total)}${split}${total > shown ? `; first ${formatInt(shown)} shown` : ""})`;
}

/**
 * The Gold health card's badge: "healthy" only when there is gold and good workers have answered it; with no gold, or
 * gold nobody has answered yet, it says so instead.
 */
export function goldHealthBadge(gold: ReadonlyArray<{ suspicious: boolean; retired: boolean; goodShown: number }>): { tone: "red" | "green" | "slate"; text: string } {
  const active = gold.filter((g) => !g.retired);
  if (active.length === 0) return { tone: "slate", text: gold.length === 0 ? "no gold yet" : "no active gold" };
  const suspicious = active.filter((g) => g.suspicious).length;
  if (suspicious > 0) return { tone: "red", text: `${formatInt(suspicious)} suspicious` };
  if (active.every((g) => g.goodShown === 0)) return { tone: "slate", text: "not answered yet" };
  return { tone: "green", text: "healthy" };
}
