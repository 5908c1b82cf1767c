import { describe, expect, it } from "vitest";
import { UserError } from "@/lib/errors";
import { DEFAULT_INGEST_SETTINGS, ingestSettingsSchema, parseEventLocations, parseIngestSettings } from "./settings";

describe("ingest settings", () => {
  it("defaults follow the HumAID paper", () => {
    expect(DEFAULT_INGEST_SETTINGS).toEqual({
      date: { enabled: true, timeFromId: true },
      location: { enabled: true, noLocation: "keep" },
      language: { enabled: true, languages: ["en"], undetermined: "keep" },
      classifier: { enabled: false, dropLabels: ["not_humanitarian"] },
      wordCount: { enabled: true, minWords: 3 },
      duplicates: { enabled: true, threshold: 0.75, againstStored: true },
      sampling: { enabled: false, by: "label", perClass: null, budget: null, seed: 1 },
      labels: { outsideScheme: "error", map: {} },
      columns: null,
      limits: { maxFileBytes: 200 * 1024 * 1024, maxLineBytes: 10 * 1024 * 1024 },
    });
    expect(parseIngestSettings(null)).toEqual(DEFAULT_INGEST_SETTINGS);
  });

  it("merges a partial Event.filters with the defaults", () => {
    const s = parseIngestSettings({ duplicates: { threshold: 0.8 }, sampling: { enabled: true, perClass: 200, budget: 2000 } });
    expect(s.duplicates).toEqual({ enabled: true, threshold: 0.8, againstStored: true });
    expect(s.sampling).toMatchObject({ enabled: true, perClass: 200, budget: 2000, by: "label" });
    expect(s.wordCount.minWords).toBe(3);
  });

  it("refuses bad values with field errors", () => {
    try {
      parseIngestSettings({ duplicates: { threshold: 1.5 }, sampling: { enabled: true } });
      throw new Error("expected a failure");
    } catch (err) {
      expect(err).toBeInstanceOf(UserError);
      expect(Object.keys((err as UserError).fieldErrors ?? {}).sort()).toEqual(["duplicates.threshold", "sampling.perClass"]);
    }
    expect(ingestSettingsSchema.safeParse({ language: { languages: [] } }).success).toBe(false);
  });

  it("parses target locations", () => {
    expect(parseEventLocations([{ name: "Houston", bbox: [-95.8, 29.5, -95.0, 30.1] }])).toEqual([{ name: "Houston", aliases: [], bbox: [-95.8, 29.5, -95.0, 30.1] }]);
    expect(parseEventLocations(null)).toEqual([]);
    expect(() => parseEventLocations([{ name: "x", bbox: [0, 10, 1, 5] }])).toThrow(UserError);
  });
});
