import { describe, expect, it } from "vitest";
import { HUMAID_LABELS, isHumaidLabel } from "./humaid";

describe("HUMAID_LABELS", () => {
  it("has the eleven HumAID categories with unique values and names", () => {
    expect(HUMAID_LABELS).toHaveLength(11);
    expect(new Set(HUMAID_LABELS.map((l) => l.value)).size).toBe(11);
    expect(new Set(HUMAID_LABELS.map((l) => l.name)).size).toBe(11);
    for (const l of HUMAID_LABELS) {
      expect(l.value).toMatch(/^[a-z_]+$/);
      expect(l.description.length).toBeGreaterThan(10);
    }
    expect(isHumaidLabel("sympathy_and_support")).toBe(true);
    expect(isHumaidLabel("Sympathy and support")).toBe(false);
  });
});
