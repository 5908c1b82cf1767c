import { type FunnelStep, skippedStep, StepCounter } from "../funnel";
import type { IngestRow } from "../rows";

/**
 * Step 4 (HumAID §3.1 step 5): words and hashtags of a tweet. URLs, user mentions and numbers do not
 * count; a token counts when, stripped of surrounding punctuation, it is a hashtag or contains a letter.
 */
export function countWords(text: string): number {
  let n = 0;
  for (const raw of text.split(/\s+/)) {
    if (!raw) continue;
    if (/^(https?:\/\/|www\.)/i.test(raw)) continue;
    if (raw.startsWith("@") || raw.startsWith("＠")) continue;
    const token = raw.replace(/^[^\p{L}\p{N}#]+|[^\p{L}\p{N}]+$/gu, "");
    if (!token) continue;
    if (token.startsWith("#")) {
      if (/[\p{L}\p{N}]/u.test(token)) n++;
      continue;
    }
    if (/\p{L}/u.test(token)) n++;
  }
  return n;
}

export function filterByWordCount(
  rows: IngestRow[],
  { minWords = 3, enabled = true }: { minWords?: number; enabled?: boolean },
): { rows: IngestRow[]; step: FunnelStep } {
  if (!enabled) return { rows, step: skippedStep("wordCount", rows.length, "switched off") };
  const counter = new StepCounter();
  const kept: IngestRow[] = [];
  const reason = `fewer than ${minWords} words or hashtags`;
  for (const row of rows) {
    if (countWords(row.text) >= minWords) kept.push(row);
    else counter.remove(reason, row);
  }
  return { rows: kept, step: counter.step("wordCount", rows.length) };
}
