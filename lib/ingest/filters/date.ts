import { snowflakeTime } from "../dates";
import { type FunnelStep, skippedStep, StepCounter } from "../funnel";
import type { IngestRow } from "../rows";

const DAY_MS = 86_400_000;

/**
 * The event's date range as [from, to): an end date at midnight UTC (a date picked without a time)
 * includes that whole day, so 2017-08-25 … 2017-09-01 keeps tweets of September 1.
 */
export function eventTimeRange(startDate?: Date | null, endDate?: Date | null): { from: number | null; to: number | null } {
  const from = startDate ? startDate.getTime() : null;
  let to: number | null = null;
  if (endDate) {
    const t = endDate.getTime();
    to = t % DAY_MS === 0 ? t + DAY_MS : t + 1;
  }
  return { from, to };
}

/**
 * Step 1: keep tweets inside the event's date range, when the row has a time (its own, or, with
 * `timeFromId`, the one encoded in its tweet id, which the row then keeps, even when the step is off).
 * Rows without a time pass.
 */
export function filterByDate(
  rows: IngestRow[],
  { startDate, endDate, enabled = true, timeFromId = true }: { startDate?: Date | null; endDate?: Date | null; enabled?: boolean; timeFromId?: boolean },
): { rows: IngestRow[]; step: FunnelStep } {
  const counter = new StepCounter();
  if (timeFromId) {
    for (const row of rows) {
      if (row.tweetedAt) continue;
      const t = snowflakeTime(row.externalId);
      if (t) {
        row.tweetedAt = t;
        counter.count("time taken from the tweet id");
      }
    }
  }
  if (!enabled) return { rows, step: skippedStep("date", rows.length, "switched off") };
  const { from, to } = eventTimeRange(startDate, endDate);
  if (from === null && to === null) return { rows, step: skippedStep("date", rows.length, "the event has no date range") };
  const kept: IngestRow[] = [];
  for (const row of rows) {
    const t = row.tweetedAt?.getTime();
    if (t === undefined) {
      counter.count("no time (kept)");
      kept.push(row);
    } else if (from !== null && t < from) counter.remove("before the event", row);
    else if (to !== null && t >= to) counter.remove("after the event", row);
    else kept.push(row);
  }
  return { rows: kept, step: counter.step("date", rows.length) };
}
