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

  it("names what dropped the rows, and the row errors only when there are some", () => {
    const funnel = [
      { step: "read", label: "rows read", removed: 0 },
      { step: "valid", label: "valid rows", removed: 0 },
      { step: "labelMap", label: "label map", removed: 900 },
      { step: "duplicates", label: "near-duplicates", removed: 14 },
    ];
    const own = importWarning({ status: "completed", rowsRead: 1200, rowsStored: 286, errorCount: 0, funnel });
    expect(own).toBe("Only 286 of 1,200 rows were stored (more than half were dropped): dropped by label map (900), near-duplicates (14): see the funnel.");
    expect(own).not.toContain("row error");
    expect(importWarning({ status: "completed", rowsRead: 10, rowsStored: 0, errorCount: 0, funnel: [] })).toBe("Nothing was stored from 10 rows read: no row had an error: see the funnel.");
    expect(importWarning({ status: "completed", rowsRead: 10, rowsStored: 0, errorCount: 10, funnel: [{ step: "valid", removed: 10 }] })).toBe(
      "Nothing was stored from 10 rows read: dropped by the 10 row errors: see the funnel and the row errors.",
    );
  });

  it("stays quiet for imports that kept at least half, and for imports not completed", () => {
    expect(importWarning({ status: "completed", rowsRead: 10, rowsStored: 5 })).toBeNull();
    expect(importWarning({ status: "completed", rowsRead: 10, rowsStored: 10 })).toBeNull();
    expect(importWarning({ status: "running", rowsRead: 10, rowsStored: 0 })).toBeNull();
  });
});
