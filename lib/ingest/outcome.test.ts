import { describe, expect, it } from "vitest";
import { importWarning } from "./outcome";

describe("importWarning", () => {
  it("warns when nothing was stored or more than half the rows were dropped", () => {
    expect(importWarning({ status: "completed", rowsRead: 1200, rowsStored: 286 })).toBe(
      "Only 286 of 1,200 rows were stored (more than half were dropped): see the funnel and the row errors.",
    );
    expect(importWarning({ status: "completed", rowsRead: 3, rowsStored: 0 })).toMatch(/^Nothing was stored from 3 rows read/);
    expect(importWarning({ status: "completed", rowsRead: 0, rowsStored: 0 })).toBe("Nothing was stored.");
  });

  it("stays quiet for imports that kept at least half, and for imports not completed", () => {
    expect(importWarning({ status: "completed", rowsRead: 10, rowsStored: 5 })).toBeNull();
    expect(importWarning({ status: "completed", rowsRead: 10, rowsStored: 10 })).toBeNull();
    expect(importWarning({ status: "running", rowsRead: 10, rowsStored: 0 })).toBeNull();
  });
});
