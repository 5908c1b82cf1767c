import { describe, expect, it } from "vitest";
import { parseSourceTime } from "./times";

describe("parseSourceTime", () => {
  it("reads the platforms' time formats", () => {
    expect(parseSourceTime("2012-10-30T14:22:11Z")).toBe(Date.UTC(2012, 9, 30, 14, 22, 11));
    expect(parseSourceTime("2012-10-30 14:22:11")).toBe(Date.UTC(2012, 9, 30, 14, 22, 11));
    expect(parseSourceTime("10/30/2012 14:22:11")).toBe(Date.UTC(2012, 9, 30, 14, 22, 11));
    expect(parseSourceTime("Sun Oct 28 10:12:13 PDT 2012")).toBe(Date.UTC(2012, 9, 28, 17, 12, 13));
  });
  it("refuses what it cannot read", () => {
    for (const v of ["yesterday", "13/40/2012 10:00:00", "Sun Oct 28 10:12:13 XYZ 2012", ""]) expect(parseSourceTime(v), v).toBeNull();
  });
});
