import { describe, expect, it } from "vitest";
import type { Money } from "./money-totals";
import { type WorkerRow, workerOrder } from "./workers";

/** A Workers page row with only what the order reads. */
const row = (externalId: string, earnings: Money[], hits = 1): WorkerRow => ({
  id: externalId,
  provider: earnings[0]?.currency === "USD" ? "mturk" : "prolific",
  externalId,
  name: null,
  blocked: false,
  blockedReason: null,
  qualified: true,
  hits,
  approved: 0,
  rejected: 0,
  excluded: 0,
  goldAccuracy: null,
  agreement: null,
  approvalRate: null,
  medianSeconds: null,
  hourlyWage: earnings.map((m) => ({ currency: m.currency, minor: m.minor * 2 })),
  earnings,
  currency: earnings[0]?.currency ?? "USD",
  lastSeenAt: new Date(0),
  goldOdds: null,
});

describe("the Workers page's order", () => {
  const richInPounds = row("P_RICH", [{ currency: "GBP", minor: 90_000 }]);
  const poorInPounds = row("P_POOR", [{ currency: "GBP", minor: 100 }]);
  const richInDollars = row("A_RICH", [{ currency: "USD", minor: 5_000 }]);
  const poorInDollars = row("A_POOR", [{ currency: "USD", minor: 10 }], 9);
  const all = [poorInPounds, richInDollars, richInPounds, poorInDollars];
  const ids = (rows: WorkerRow[]) => rows.map((r) => r.externalId);

  it("sorts earnings by currency group, then amount: 90,000 pence never outrank dollars as a bigger number", () => {
    expect(ids([...all].sort(workerOrder("earnings", "desc")))).toEqual(["A_RICH", "A_POOR", "P_RICH", "P_POOR"]);
    expect(ids([...all].sort(workerOrder("earnings", "asc")))).toEqual(["A_POOR", "A_RICH", "P_POOR", "P_RICH"]);
  });

  it("sorts the hourly wage the same way, and the other columns as numbers", () => {
    expect(ids([...all].sort(workerOrder("wage", "desc")))).toEqual(["A_RICH", "A_POOR", "P_RICH", "P_POOR"]);
    expect(ids([...all].sort(workerOrder("hits", "desc")))[0]).toBe("A_POOR");
  });
});
