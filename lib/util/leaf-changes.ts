/**
 * The leaves of two settings objects that differ, by dot path ("qualification.passCorrect"), in key order: what a
 * change of settings records. Arrays, non-plain values and whatever `isLeaf` names (e.g. a {num, den} ratio)
 * compare as whole values.
 */
export type LeafChange = { key: string; oldValue: unknown; newValue: unknown };

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function leafChanges(before: unknown, after: unknown, { isLeaf = () => false, prefix = "" }: { isLeaf?: (value: unknown) => boolean; prefix?: string } = {}): LeafChange[] {
  if (isPlainObject(before) && isPlainObject(after) && !isLeaf(before) && !isLeaf(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => leafChanges(before[k], after[k], { isLeaf, prefix: prefix ? `${prefix}.${k}` : k }));
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [{ key: prefix || "(settings)", oldValue: before ?? null, newValue: after ?? null }];
}

/** A setting's value in words for a history table: a ratio as "3/4", a list comma-separated, "–" for none. */
export function settingValueText(value: unknown): string {
  if (value === null || value === undefined) return "–";
  if (typeof value === "object" && !Array.isArray(value) && "num" in value && "den" in value) return `${String(value.num)}/${String(value.den)}`;
  if (Array.isArray(value)) return value.length ? value.map((v) => settingValueText(v)).join(", ") : "(none)";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
