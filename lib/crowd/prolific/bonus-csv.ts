/**
 * Bonuses are set up with `csv_bonuses`, the one place in Prolific's API that takes MAJOR units ("4.25" = £4.25);
 * Accord keeps integer minor units, so the conversion is integer arithmetic, never a float division.
 */
export type BonusLine = { id: string; cents: number };

export function formatBonusCsv(lines: BonusLine[]): string {
  return lines
    .map(({ id, cents }) => {
      if (!Number.isSafeInteger(cents) || cents <= 0) throw new RangeError(`bonus for ${id} must be a positive whole number of minor units, got ${cents}`);
      if (/[\s,]/.test(id)) throw new RangeError(`participant or submission id "${id}" cannot contain commas or spaces`);
      return `${id},${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
    })
    .join("\n");
}

/** The inverse, for the simulator: "4.25" → 425; refuses anything that is not a plain amount with ≤ 2 decimals. */
export function parseBonusAmount(text: string): number | null {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"));
}
