import { describe, expect, it } from "vitest";
import { timeTicks } from "./chart-utils";

describe("timeTicks", () => {
  it("gives round, distinct ticks over a few minutes (no repeated HH:MM)", () => {
    const min = Date.UTC(2026, 0, 5, 18, 50, 10);
    const { ticks, format } = timeTicks(min, min + 4 * 60_000);
    const labels = ticks.map(format);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels[0]).toBe("18:51");
    expect(ticks.length).toBeLessThanOrEqual(6);
  });
  it("shows seconds when the span is under a minute and dates over days", () => {
    const min = Date.UTC(2026, 0, 5, 18, 50, 0);
    expect(timeTicks(min, min + 40_000).format(min)).toBe("18:50:00");
    expect(timeTicks(min, min + 5 * 86_400_000).format(min)).toBe("01-05");
  });
});
