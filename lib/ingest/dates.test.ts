import { describe, expect, it } from "vitest";
import { parseTweetDate, snowflakeTime } from "./dates";

describe("tweet dates", () => {
  it("parses the formats exports use", () => {
    expect(parseTweetDate("Wed Oct 10 20:19:24 +0000 2018")?.toISOString()).toBe("2018-10-10T20:19:24.000Z");
    expect(parseTweetDate("Wed Oct 10 20:19:24 -0500 2018")?.toISOString()).toBe("2018-10-11T01:19:24.000Z");
    expect(parseTweetDate("2018-10-10T20:19:24.123Z")?.toISOString()).toBe("2018-10-10T20:19:24.123Z");
    expect(parseTweetDate("2018-10-10T20:19:24+02:00")?.toISOString()).toBe("2018-10-10T18:19:24.000Z");
    expect(parseTweetDate("2018-10-10 20:19:24")?.toISOString()).toBe("2018-10-10T20:19:24.000Z");
    expect(parseTweetDate("2018-10-10")?.toISOString()).toBe("2018-10-10T00:00:00.000Z");
    expect(parseTweetDate("1539202764")?.toISOString()).toBe("2018-10-10T20:19:24.000Z");
    expect(parseTweetDate("1539202764000")?.toISOString()).toBe("2018-10-10T20:19:24.000Z");
  });

  it("rejects what is not a date", () => {
    for (const s of ["", "yesterday", "2018-02-31", "2018-13-01", "2018-10-10T25:00:00Z", "Wed Foo 10 20:19:24 +0000 2018", "12345"]) {
      expect(parseTweetDate(s)).toBeNull();
    }
  });

  it("reads the time encoded in snowflake tweet ids", () => {
    // A HumAID Hurricane Harvey tweet id: 2017-08-27.
    expect(snowflakeTime("901646074527535105")?.toISOString().slice(0, 10)).toBe("2017-08-27");
    expect(snowflakeTime("20")).toBeNull();
    expect(snowflakeTime("t1")).toBeNull();
    expect(snowflakeTime("999999999999999999999")).toBeNull();
  });
});
