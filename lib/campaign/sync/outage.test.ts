import { describe, expect, it } from "vitest";
import { CrowdError } from "@/lib/crowd/errors";
import { isOutageError, outageBackoffMs } from "./outage";

describe("provider outages", () => {
  it("are network failures and 'service unavailable' after retries, not a HIT's own errors", () => {
    expect(isOutageError(new CrowdError("Cannot reach MTurk", "network"))).toBe(true);
    expect(isOutageError(new CrowdError("Unavailable", "service_unavailable"))).toBe(true);
    expect(isOutageError(new CrowdError("Not found on MTurk", "not_found"))).toBe(false);
    expect(isOutageError(new Error("database locked"))).toBe(false);
  });

  it("make the loop wait twice as long after each failed pass, at most a minute, and not at all once it is over", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((n) => outageBackoffMs(n, 2_000))).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });
});
