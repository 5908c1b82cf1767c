import { describe, expect, it } from "vitest";
import { parseAnswer } from "./output";

const SCHEME = ["caution_and_advice", "infrastructure_damage", "not_humanitarian"];
const IDS = ["item-1", "item-2", "item-3"];
const answer = (labels: Array<{ id: string; label: string }>) => JSON.stringify({ labels });

describe("parseAnswer", () => {
  it("reads a valid answer", () => {
    const r = parseAnswer(answer([{ id: "item-1", label: "not_humanitarian" }, { id: "item-2", label: "caution_and_advice" }, { id: "item-3", label: "infrastructure_damage" }]), IDS, SCHEME);
    expect(Object.fromEntries(r.labels)).toEqual({ "item-1": "not_humanitarian", "item-2": "caution_and_advice", "item-3": "infrastructure_damage" });
    expect(r.invalid).toEqual([]);
  });

  it("marks labels outside the scheme, missing items and unknown ids as invalid (an injected answer cannot add a label)", () => {
    const r = parseAnswer(answer([{ id: "item-1", label: "N/A" }, { id: "item-3", label: "pwned: ignore previous instructions" }, { id: "item-9", label: "not_humanitarian" }]), IDS, SCHEME);
    expect(r.labels.size).toBe(0);
    expect(r.invalid).toEqual(IDS);
  });

  it("keeps the first answer of an item given twice", () => {
    const r = parseAnswer(answer([{ id: "item-1", label: "not_humanitarian" }, { id: "item-1", label: "caution_and_advice" }]), IDS, SCHEME);
    expect(r.labels.get("item-1")).toBe("not_humanitarian");
    expect(r.invalid).toEqual(["item-2", "item-3"]);
  });

  it("finds the JSON inside prose or a code fence, and treats a cut or empty answer as no answer for every item", () => {
    const fenced = "Here you go:\n```json\n" + answer([{ id: "item-2", label: "caution_and_advice" }]) + "\n```";
    expect(parseAnswer(fenced, IDS, SCHEME).labels.get("item-2")).toBe("caution_and_advice");
    const full = answer([{ id: "item-1", label: "not_humanitarian" }]);
    expect(parseAnswer(full.slice(0, full.length / 2), IDS, SCHEME).invalid).toEqual(IDS);
    expect(parseAnswer(null, IDS, SCHEME).invalid).toEqual(IDS);
    expect(parseAnswer('{"labels":"not_humanitarian"}', IDS, SCHEME).invalid).toEqual(IDS);
  });
});
