import { describe, expect, it } from "vitest";
import type { IngestRow } from "../rows";
import { eventTimeRange, filterByDate } from "./date";

const row = (externalId: string, tweetedAt?: string): IngestRow => ({
  line: 1,
  externalId,
  text: "t",
  ...(tweetedAt ? { tweetedAt: new Date(tweetedAt) } : {}),
});

describe("date filter", () => {
  it("keeps the event's days, the end date's whole day included", () => {
    const { rows, step } = filterByDate(
      [row("a", "2017-08-24T23:59:59Z"), row("b", "2017-08-25T00:00:00Z"), row("c", "2017-09-01T23:59:59Z"), row("d", "2017-09-02T00:00:00Z"), row("e")],
      { startDate: new Date("2017-08-25"), endDate: new Date("2017-09-01"), timeFromId: false },
    );
    expect(rows.map((r) => r.externalId)).toEqual(["b", "c", "e"]);
    expect(step).toMatchObject({ step: "date", in: 5, kept: 3, removed: 2, reasons: { "before the event": 1, "after the event": 1 }, details: { "no time (kept)": 1 } });
  });

  it("an end date with a time is exclusive after that instant", () => {
    expect(eventTimeRange(null, new Date("2017-09-01T12:00:00Z"))).toEqual({ from: null, to: Date.parse("2017-09-01T12:00:00.001Z") });
  });

  it("takes the time from snowflake ids when the row has none, and keeps it", () => {
    const r = row("901646074527535105"); // 2017-08-27
    const { rows, step } = filterByDate([r, row("1")], { startDate: new Date("2017-08-28"), endDate: null });
    expect(rows.map((x) => x.externalId)).toEqual(["1"]);
    expect(step.details).toEqual({ "time taken from the tweet id": 1, "no time (kept)": 1 });
    expect(r.tweetedAt?.toISOString().slice(0, 10)).toBe("2017-08-27");
  });

  it("passes everything when switched off or when the event has no dates", () => {
    expect(filterByDate([row("a", "2000-01-01")], { startDate: new Date("2017-01-01"), enabled: false }).step).toMatchObject({ enabled: false, kept: 1 });
    expect(filterByDate([row("a", "2000-01-01")], {}).step).toMatchObject({ enabled: false, note: "the event has no date range" });
  });
});
