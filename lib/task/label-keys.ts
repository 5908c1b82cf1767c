/**
 * Keyboard shortcuts of the label choices on the task page: 1–9 and 0 for the first ten labels, then the letters
 * a, b, c, … for the eleventh onwards. Pure (used by the client components and by tests).
 */
const DIGITS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];
const LETTERS = "abcdefghijklmnopqrstuvwxyz".split("");

export function labelKeys(count: number): string[] {
  return [...DIGITS, ...LETTERS].slice(0, count);
}

/** The index of the label a key chooses (case-insensitive), or -1. */
export function labelIndexForKey(key: string, count: number): number {
  return labelKeys(count).indexOf(key.length === 1 ? key.toLowerCase() : key);
}
