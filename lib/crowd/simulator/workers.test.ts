import { describe, expect, it } from "vitest";
import { createRng } from "@/lib/util/random";
import { ManualClock, RealClock } from "./clock";
import { EventHeap } from "./heap";
import { parseHitForm } from "./html-form";
import { meetsRequirement, SYSTEM_QUALIFICATIONS, systemQualValue, type WireRequirement } from "./requirements";
import { truthFromCsv } from "./truth";
import { chooseAnswer, createWorkerPool, makeWorkerId, parseWorkerMix, WORKER_PROFILES, workSeconds } from "./workers";

const req = (Comparator: string, extra: Partial<WireRequirement> = {}): WireRequirement => ({ QualificationTypeId: "3Q", Comparator, ...extra });

describe("qualification requirements (all ten comparators)", () => {
  it("compares integers", () => {
    const v = { integer: 60 };
    expect(meetsRequirement(req("GreaterThanOrEqualTo", { IntegerValues: [60] }), v)).toBe(true);
    expect(meetsRequirement(req("GreaterThanOrEqualTo", { IntegerValues: [60] }), { integer: 50 })).toBe(false);
    expect(meetsRequirement(req("GreaterThan", { IntegerValues: [60] }), v)).toBe(false);
    expect(meetsRequirement(req("LessThan", { IntegerValues: [61] }), v)).toBe(true);
    expect(meetsRequirement(req("LessThanOrEqualTo", { IntegerValues: [59] }), v)).toBe(false);
    expect(meetsRequirement(req("EqualTo", { IntegerValues: [60] }), v)).toBe(true);
    expect(meetsRequirement(req("NotEqualTo", { IntegerValues: [60] }), v)).toBe(false);
    expect(meetsRequirement(req("In", { IntegerValues: [1, 60] }), v)).toBe(true);
    expect(meetsRequirement(req("NotIn", { IntegerValues: [1, 60] }), v)).toBe(false);
    expect(meetsRequirement(req("Exists"), v)).toBe(true);
    expect(meetsRequirement(req("DoesNotExist"), v)).toBe(false);
  });

  it("without the qualification only DoesNotExist holds", () => {
    for (const c of ["LessThan", "LessThanOrEqualTo", "GreaterThan", "GreaterThanOrEqualTo", "EqualTo", "NotEqualTo", "Exists", "In", "NotIn"]) {
      expect(meetsRequirement(req(c, { IntegerValues: [1] }), undefined)).toBe(false);
    }
    expect(meetsRequirement(req("DoesNotExist"), undefined)).toBe(true);
  });

  it("compares locales by country and optional subdivision", () => {
    const ny = { locale: { Country: "US", Subdivision: "NY" } };
    expect(meetsRequirement(req("EqualTo", { LocaleValues: [{ Country: "US" }] }), ny)).toBe(true);
    expect(meetsRequirement(req("EqualTo", { LocaleValues: [{ Country: "US", Subdivision: "CA" }] }), ny)).toBe(false);
    expect(meetsRequirement(req("NotEqualTo", { LocaleValues: [{ Country: "IN" }] }), ny)).toBe(true);
    expect(meetsRequirement(req("In", { LocaleValues: [{ Country: "GB" }, { Country: "US", Subdivision: "NY" }] }), ny)).toBe(true);
    expect(meetsRequirement(req("NotIn", { LocaleValues: [{ Country: "US" }] }), ny)).toBe(false);
  });

  it("reads system qualifications from the worker", () => {
    const [w] = createWorkerPool({ seed: 1, mix: { careful: 1 } });
    expect(systemQualValue(w, SYSTEM_QUALIFICATIONS.numberHitsApproved)).toEqual({ known: true, value: { integer: w.numberHitsApproved } });
    expect(systemQualValue(w, SYSTEM_QUALIFICATIONS.locale)).toEqual({ known: true, value: { locale: w.locale } });
    expect(systemQualValue({ ...w, masters: false }, SYSTEM_QUALIFICATIONS.mastersProduction).value).toBeUndefined();
    expect(systemQualValue(w, "3CUSTOM").known).toBe(false);
  });
});

describe("worker pool", () => {
  it("parses mixes, makes MTurk-format ids and is reproducible", () => {
    expect(parseWorkerMix("careful:20, average:10,careful:1")).toEqual({ careful: 21, average: 10 });
    expect(() => parseWorkerMix("genius:3")).toThrow(/profile/);
    expect(makeWorkerId(createRng(1))).toMatch(/^A[A-Z0-9]{13}$/);
    const a = createWorkerPool({ seed: 9, mix: { careful: 5, "spammer-random": 2 } });
    expect(a).toHaveLength(7);
    expect(new Set(a.map((w) => w.workerId)).size).toBe(7);
    expect(createWorkerPool({ seed: 9, mix: { careful: 5, "spammer-random": 2 } })).toEqual(a);
    expect(createWorkerPool({ seed: 10, mix: { careful: 5, "spammer-random": 2 } })).not.toEqual(a);
  });

  it("answers with each profile's accuracy", () => {
    const options = ["a", "b", "c", "d", "e"];
    const rate = (profile: keyof typeof WORKER_PROFILES) => {
      const [w] = createWorkerPool({ seed: 2, mix: { [profile]: 1 } });
      const rng = createRng(3);
      let right = 0;
      for (let i = 0; i < 4000; i++) if (chooseAnswer({ worker: w, options, truth: "b", rng }) === "b") right++;
      return right / 4000;
    };
    expect(rate("careful")).toBeCloseTo(0.9, 1);
    expect(rate("average")).toBeCloseTo(0.7, 1);
    expect(rate("sloppy")).toBeCloseTo(0.5, 1);
    expect(rate("spammer-random")).toBeCloseTo(0.2, 1);
    const [constant] = createWorkerPool({ seed: 2, mix: { "spammer-constant": 1 } });
    const picks = new Set(Array.from({ length: 50 }, (_, i) => chooseAnswer({ worker: constant, options, truth: "b", rng: createRng(i) })));
    expect(picks.size).toBe(1);
    const [careful] = createWorkerPool({ seed: 2, mix: { careful: 1 } });
    expect(workSeconds(careful, 30, createRng(1))).toBeGreaterThanOrEqual(240);
  });
});

describe("HIT form parsing", () => {
  it("finds radio groups, selects, text fields and the tweet id in scope", () => {
    const form = parseHitForm(`<!-- <input name="ghost"> --><crowd-form action="x">
      <div data-tweet-id="11"><div><p>a</p></div><input type="radio" name="t1" value="x" required><input type=radio name=t1 value=y></div>
      <input type="radio" name="t2" value="x" data-tweet-id="22">
      <select name="s"><option value="">pick</option><option value="p">P</option></select>
      <textarea name="comment" required></textarea><input type="hidden" name="assignmentId"><input type="submit">
      <script>var s = '<input name="evil">';</script></crowd-form>`);
    expect(form.kind).toBe("crowd");
    expect(form.groups.map((g) => [g.name, g.kind, g.options, g.required, g.tweetId])).toEqual([
      ["t1", "radio", ["x", "y"], true, "11"],
      ["t2", "radio", ["x"], false, "22"],
      ["s", "select", ["p"], false, undefined],
      ["comment", "textarea", [], true, undefined],
    ]);
  });
});

describe("clocks, events and truth", () => {
  it("manual clocks move only forward and notify", () => {
    const c = new ManualClock(1000);
    let calls = 0;
    const off = c.onAdvance(() => calls++);
    c.advance(2);
    expect(c.now()).toBe(3000);
    expect(() => c.set(10)).toThrow(RangeError);
    off();
    c.advance(1);
    expect(calls).toBe(1);
    const r = new RealClock(1000, 0);
    expect(r.now()).toBeGreaterThanOrEqual(0);
    expect(() => new RealClock(0)).toThrow(RangeError);
  });

  it("the event heap pops in (time, seq) order", () => {
    const h = new EventHeap<{ time: number; seq: number }>();
    const items = [5, 1, 3, 1, 9, 0, 3].map((time, seq) => ({ time, seq }));
    for (const it of items) h.push(it);
    const out = [];
    while (h.size) out.push(h.pop());
    expect(out).toEqual([...items].sort((a, b) => a.time - b.time || a.seq - b.seq));
  });

  it("reads truth CSV files", () => {
    const t = truthFromCsv("tweet_id,label,extra\n1,caution_and_advice,x\n2,not_humanitarian,y\n");
    expect(t.size).toBe(2);
    expect(t.label("2")).toBe("not_humanitarian");
    expect(t.label("3")).toBeUndefined();
    expect(() => truthFromCsv("id,label\n1,x\n")).toThrow(/tweet_id/);
  });
});
