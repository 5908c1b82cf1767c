import { describe, expect, it } from "vitest";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import type { IngestRow } from "./rows";
import { createLabelMatcher, validateRows } from "./validate";

const scheme = { slug: "humaid", values: HUMAID_LABELS.map((l) => l.value), names: HUMAID_LABELS.map((l) => l.name) };
const rows = (...specs: Array<[string, string | undefined]>): IngestRow[] =>
  specs.map(([id, label], i) => ({ line: i + 2, externalId: id, text: `tweet ${id}`, ...(label !== undefined ? { label } : {}) }));

describe("validation against the event", () => {
  it("matches labels by value or display name, loosely", () => {
    const m = createLabelMatcher(scheme);
    expect(m("caution_and_advice")).toBe("caution_and_advice");
    expect(m("Caution and advice")).toBe("caution_and_advice");
    expect(m("Rescue, volunteering, or donation effort")).toBe("rescue_volunteering_or_donation_effort");
    expect(m("off-topic")).toBeNull();
  });

  it("reports duplicate ids, ids already stored, and labels outside the scheme", () => {
    const r = validateRows(rows(["1", "Sympathy and support"], ["2", "off-topic"], ["1", undefined], ["9", undefined]), {
      kind: "tweets",
      scheme,
      storedIds: new Set(["9"]),
      columnNames: { id: "tweet_id", label: "class_label" },
    });
    expect(r.rows.map((x) => [x.externalId, x.label])).toEqual([["1", "sympathy_and_support"]]);
    expect(r.errors.map((e) => [e.line, e.column, e.reason])).toEqual([
      [3, "class_label", 'label "off-topic" is not in the event\'s scheme (humaid)'],
      [4, "tweet_id", "duplicate id 1 (first on line 2)"],
      [5, "tweet_id", "id 9 is already imported for this event"],
    ]);
  });

  it("keeps or drops foreign labels of tweets by the setting; gold always needs a scheme label", () => {
    const input = () => rows(["1", "off-topic"], ["2", undefined]);
    expect(validateRows(input(), { kind: "tweets", scheme, storedIds: new Set(), outsideScheme: "keep" }).rows.map((r) => r.label)).toEqual(["off-topic", undefined]);
    expect(validateRows(input(), { kind: "tweets", scheme, storedIds: new Set(), outsideScheme: "ignore" }).rows.map((r) => r.label)).toEqual([undefined, undefined]);
    const gold = validateRows(input(), { kind: "gold", scheme, storedIds: new Set(), outsideScheme: "keep" });
    expect(gold.rows).toEqual([]);
    expect(gold.errors.map((e) => e.reason)).toEqual(['label "off-topic" is not in the event\'s scheme (humaid)', "gold rows need a label"]);
  });
});
