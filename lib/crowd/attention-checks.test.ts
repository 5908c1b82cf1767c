import { describe, expect, it } from "vitest";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { MIN_REJECTION_MESSAGE_LENGTH } from "./prolific/api-types";
import { prolificRejectionMessage } from "./prolific/policy";
import { attentionChecksFor, attentionOf, gradeAttentionChecks } from "./attention-checks";

const hitIds = Array.from({ length: 200 }, (_, i) => `hit${i.toString(36).padStart(4, "0")}`);

describe("attentionChecksFor", () => {
  it("is the same for the same HIT, and differs between HITs", () => {
    expect(attentionChecksFor("hitA", HUMAID_LABELS, 30)).toEqual(attentionChecksFor("hitA", HUMAID_LABELS, 30));
    const distinct = new Set(hitIds.map((id) => JSON.stringify(attentionChecksFor(id, HUMAID_LABELS, 30).map((c) => [c.after, c.value]))));
    expect(distinct.size).toBeGreaterThan(150);
  });

  it("gives 2 checks at distinct positions, one in each half of the HIT, asking for distinct labels of the scheme", () => {
    const values = new Set(HUMAID_LABELS.map((l) => l.value));
    const afters = new Set<number>();
    for (const id of hitIds) {
      const checks = attentionChecksFor(id, HUMAID_LABELS, 30);
      expect(checks.map((c) => [c.number, c.fieldName])).toEqual([
        [1, "check-1"],
        [2, "check-2"],
      ]);
      const [a, b] = checks as [(typeof checks)[0], (typeof checks)[0]];
      expect(a.after >= 1 && a.after <= 15, `${id}: ${a.after}`).toBe(true);
      expect(b.after >= 16 && b.after <= 30, `${id}: ${b.after}`).toBe(true);
      expect(a.value).not.toBe(b.value);
      for (const c of checks) {
        expect(values.has(c.value)).toBe(true);
        expect(c.name).toBe(HUMAID_LABELS.find((l) => l.value === c.value)!.name);
        expect(c.text).toBe(`Attention check: for this item, choose “${c.name}”.`);
        afters.add(c.after);
      }
    }
    // Spread: the positions cover most of the HIT over many HITs.
    expect(afters.size).toBeGreaterThan(25);
  });

  it("gives no more checks than tweets, and none without labels or tweets", () => {
    expect(attentionChecksFor("h", HUMAID_LABELS, 1).map((c) => c.after)).toEqual([1]);
    expect(attentionChecksFor("h", HUMAID_LABELS, 0)).toEqual([]);
    expect(attentionChecksFor("h", [], 30)).toEqual([]);
    const three = attentionChecksFor("h", HUMAID_LABELS, 9, 3);
    expect(three.map((c) => c.after).every((p, i) => p > i * 3 && p <= (i + 1) * 3)).toBe(true);
    // A scheme of one label: every check asks for it.
    expect(attentionChecksFor("h", HUMAID_LABELS.slice(0, 1), 30).map((c) => c.value)).toEqual([HUMAID_LABELS[0]!.value, HUMAID_LABELS[0]!.value]);
  });
});

describe("gradeAttentionChecks", () => {
  const checks = attentionChecksFor("hitA", HUMAID_LABELS, 30);
  const [a, b] = checks as [(typeof checks)[0], (typeof checks)[0]];
  const other = (v: string) => HUMAID_LABELS.find((l) => l.value !== v && l.value !== a.value && l.value !== b.value)!;

  it("passes the checks answered as instructed and names every check", () => {
    const graded = gradeAttentionChecks(checks, new Map([[a.fieldName, a.value], [b.fieldName, b.value], ["item-1-x", "other"]]), HUMAID_LABELS);
    expect(graded).toEqual({ names: [`check 1 (after tweet ${a.after})`, `check 2 (after tweet ${b.after})`], failed: [] });
  });

  it("names what each failed check asked for and what was answered (a label's name, a stray value, nothing)", () => {
    const wrong = other(a.value);
    const graded = gradeAttentionChecks(checks, new Map([[a.fieldName, wrong.value]]), HUMAID_LABELS);
    expect(graded.failed).toEqual([
      `check 1 (after tweet ${a.after}): asked for “${a.name}”, answered “${wrong.name}”`,
      `check 2 (after tweet ${b.after}): asked for “${b.name}”, answered nothing`,
    ]);
    expect(gradeAttentionChecks(checks, new Map([[a.fieldName, a.value], [b.fieldName, "x".repeat(60)]])).failed).toEqual([
      `check 2 (after tweet ${b.after}): asked for “${b.name}”, answered “${"x".repeat(40)}…”`,
    ]);
  });

  it("gives a rejection message of at least Prolific's minimum length that names the failed checks", () => {
    const graded = gradeAttentionChecks(checks, new Map(), HUMAID_LABELS);
    const message = prolificRejectionMessage("FAILED_CHECK", { failed: graded.failed });
    expect(message.length).toBeGreaterThanOrEqual(MIN_REJECTION_MESSAGE_LENGTH);
    expect(MIN_REJECTION_MESSAGE_LENGTH).toBe(100);
    for (const f of graded.failed) expect(message).toContain(f);
    expect(message).toMatch(/^Your submission failed 2 of this study's attention checks/);
  });
});

describe("attentionOf", () => {
  const checks = attentionChecksFor("hitB", HUMAID_LABELS, 30);
  it("is null when the answers hold no check (the page showed none), else the grade", () => {
    expect(attentionOf(checks, new Map([["item-1-x", HUMAID_LABELS[0]!.value]]))).toBeNull();
    expect(attentionOf(checks, new Map())).toBeNull();
    const one = new Map([[checks[0]!.fieldName, checks[0]!.value]]);
    expect(attentionOf(checks, one, HUMAID_LABELS)).toEqual(gradeAttentionChecks(checks, one, HUMAID_LABELS));
    expect(attentionOf(checks, one, HUMAID_LABELS)?.failed).toHaveLength(1);
  });
});
