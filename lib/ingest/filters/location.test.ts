import { describe, expect, it } from "vitest";
import type { IngestRow } from "../rows";
import { createLocationMatcher, filterByLocation, normalizePlaceText } from "./location";

const targets = [
  { name: "Houston", aliases: ["HTX", "H-Town"], bbox: [-95.8, 29.5, -95.0, 30.1] as [number, number, number, number] },
  { name: "Texas", aliases: ["TX"] },
  { name: "São Paulo", aliases: [] },
];

let line = 0;
const row = (extra: Partial<IngestRow>): IngestRow => ({ line: ++line, externalId: String(line), text: "t", ...extra });

describe("location filter", () => {
  it("matches free text case- and accent-insensitively, on whole words, with aliases", () => {
    const m = createLocationMatcher(targets);
    expect(normalizePlaceText("São  Paulo, BR!")).toBe("sao paulo br");
    expect(m.mentions("sao paulo")).toBe(true);
    expect(m.mentions("Downtown HOUSTON")).toBe(true);
    expect(m.mentions("h-town baby")).toBe(true);
    expect(m.mentions("Austin, tx")).toBe(true);
    expect(m.mentions("Houstonia")).toBe(false);
    expect(m.mentions("Paulo")).toBe(false);
  });

  it("decides by coordinates first, then place, then user location; no-location rows by the setting", () => {
    const rows = [
      row({ latitude: 29.76, longitude: -95.37, userLocation: "London" }), // inside the Houston box
      row({ latitude: 40.7, longitude: -74.0, userLocation: "Houston" }), // coordinates outside: out, whatever the profile says
      row({ placeName: "Katy, TX", userLocation: "Paris" }), // place matches by name
      row({ placeName: "Somewhere", placeBbox: [-95.5, 29.6, -95.3, 29.8] }), // place box centre inside
      row({ placeName: "Miami, FL", userLocation: "Houston" }), // place outside: out
      row({ userLocation: "Sugar Land, Texas" }),
      row({ userLocation: "Lagos" }),
      row({ userLocation: "  ,, " }), // no usable location
      row({}),
    ];
    const keep = filterByLocation(rows, { targets, noLocation: "keep" });
    expect(keep.rows.map((r) => r.line)).toEqual([rows[0], rows[2], rows[3], rows[5], rows[7], rows[8]].map((r) => r.line));
    expect(keep.step.reasons).toEqual({
      "coordinates outside the event's areas": 1,
      "place outside the event's locations": 1,
      "user location not among the event's locations": 1,
    });
    expect(keep.step.details).toEqual({ "kept by coordinates": 1, "kept by place": 2, "kept by user location": 1, "no location information (kept)": 2 });
    const drop = filterByLocation(rows, { targets, noLocation: "drop" });
    expect(drop.step.kept).toBe(4);
    expect(drop.step.reasons["no location information"]).toBe(2);
  });

  it("handles boxes across the antimeridian", () => {
    const fiji = [{ name: "Fiji", aliases: [], bbox: [177, -21, -178, -12] as [number, number, number, number] }];
    const m = createLocationMatcher(fiji);
    expect(m.inAreas(178.4, -18.1)).toBe(true);
    expect(m.inAreas(-179.5, -16)).toBe(true);
    expect(m.inAreas(170, -18)).toBe(false);
  });

  it("passes everything when the event has no target locations", () => {
    expect(filterByLocation([row({ userLocation: "x" })], { targets: [] }).step).toMatchObject({ enabled: false, kept: 1, note: "the event has no target locations" });
  });
});
