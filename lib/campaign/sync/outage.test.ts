import { describe, expect, it } from "vitest";
import { CrowdError } from "@/lib/crowd/errors";
import { isOutageError } from "./outage";

describe("provider outages", () => {
  it("are network failures and 'service unavailable' after retries, not a HIT's own errors", () => {
    expect(isOutageError(new CrowdError("Cannot reach MTurk", "network"))).toBe(true);
    expect(isOutageError(new CrowdError("Unavailable", "service_unavailable"))).toBe(true);
    expect(isOutageError(new CrowdError("Not found on MTurk", "not_found"))).toBe(false);
    expect(isOutageError(new Error("database locked"))).toBe(false);
  });
});
