import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CliError } from "../errors";
import { crowdflowerCsv, crowdflowerRows } from "@/lib/metrics/testing/crowdflower-repeats";
import { run } from "./agreement";

let dir: string;
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
function stdout() {
  let out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  return () => out;
}
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "accord-table3-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

// Event "b": the hand-computed case of lib/metrics/table3.test.ts (κ 0.55 over agreed, 11/41 over all).
// Event "a": item x was judged a, a, b (in time) and then c, but the file lists c first; item y: a, a, a.
const CSV = `event,item,annotator,label,submitted_at
b,i1,w0,a,2026-01-01T00:00:00Z
b,i1,w1,a,2026-01-01T00:01:00Z
b,i1,w2,a,2026-01-01T00:02:00Z
b,i2,w0,a,2026-01-01T00:00:00Z
b,i2,w1,a,2026-01-01T00:01:00Z
b,i2,w2,b,2026-01-01T00:02:00Z
b,i3,w0,a,2026-01-01T00:00:00Z
b,i3,w1,b,2026-01-01T00:01:00Z
b,i3,w2,c,2026-01-01T00:02:00Z
b,i4,w0,b,2026-01-01T00:00:00Z
b,i4,w1,b,2026-01-01T00:01:00Z
b,i4,w2,b,2026-01-01T00:02:00Z
a,x,w9,c,2026-01-02T09:00:00Z
a,x,w1,a,2026-01-02T06:00:00+01:00
a,x,w2,a,2026-01-02T05:30:00Z
a,x,w3,b,2026-01-02T07:00:00Z
a,y,w1,a,2026-01-02T05:00:00Z
a,y,w2,a,2026-01-02T05:01:00Z
a,y,w3,a,2026-01-02T05:02:00Z
`;

describe("accord agreement --table3", () => {
  it("--json prints the documented keys in order, events sorted, first judgments by submitted_at", async () => {
    const out = stdout();
    expect(await run([file("t.csv", CSV), "--table3", "--scope", "all", "--json"])).toBe(0);
    const obj = JSON.parse(out());
    expect(Object.keys(obj)).toEqual(["scope", "first", "events", "repeatsSetAside"]);
    expect(obj.scope).toBe("all");
    expect(obj.first).toBe(3);
    expect(obj.events.map((e: { event: string }) => e.event)).toEqual(["a", "b"]);
    expect(Object.keys(obj.events[0])).toEqual([
      "event", "items", "judgments", "fleissKappa", "averageObservedAgreement", "krippendorffAlpha", "averageMajorityAgreement",
    ]);
    const [a, b] = obj.events;
    expect(b.items).toBe(4);
    expect(b.fleissKappa).toBeCloseTo(11 / 41, 12);
    // x by time: a (05:00Z), a (05:30Z), b (07:00Z), c (09:00Z): first three a,a,b → Pₒ(x) = 1/3, y = 1
    expect(a.items).toBe(2);
    expect(a.judgments).toBe(7);
    expect(a.averageObservedAgreement).toBeCloseTo((1 / 3 + 1) / 2, 12);
    // π: a = (2/3 + 1)/2 = 5/6, b = 1/6 → Pₑ = 26/36; κ = (2/3 − 26/36)/(1 − 26/36) = −0.2
    expect(a.fleissKappa).toBeCloseTo(-0.2, 12);
    // in file order the first three of x would be c, a, a: the same Pₒ but another κ
    expect(a.averageMajorityAgreement).toBeCloseTo((2 / 4 + 1) / 2, 12);
  });

  it("the default scope is agreed (also spelt accepted); --accept and --first change it", async () => {
    const csv = file("t2.csv", CSV);
    let out = stdout();
    await run([csv, "--table3", "--json"]);
    const agreed = JSON.parse(out());
    expect(agreed.scope).toBe("agreed");
    expect(agreed.events[1].items).toBe(3);
    expect(agreed.events[1].fleissKappa).toBeCloseTo(0.55, 12);
    // x: 2 of 4 is below 2/3, so event a keeps y only
    expect(agreed.events[0].items).toBe(1);
    vi.restoreAllMocks();
    out = stdout();
    await run([csv, "--table3", "--scope", "accepted", "--accept", "3/4", "--first", "2", "--json"]);
    const strict = JSON.parse(out());
    expect(strict.scope).toBe("agreed");
    expect(strict.first).toBe(2);
    expect(strict.events[1].items).toBe(2);
  });

  it("without an event column the one event is named \"\"; the text table names the scope", async () => {
    const csv = file("t3.csv", "item,annotator,label\ni,a,x\ni,b,x\nj,a,x\nj,b,y\n");
    let out = stdout();
    await run([csv, "--table3", "--json", "--scope", "all"]);
    // two judgments per item: none has the first three that κ and observed agreement use (as in the event's Table 3)
    expect(JSON.parse(out()).events[0]).toMatchObject({ event: "", items: 2, judgments: 4, averageObservedAgreement: null, averageMajorityAgreement: 0.75 });
    vi.restoreAllMocks();
    out = stdout();
    await run([csv, "--table3", "--json", "--scope", "all", "--first", "2"]);
    expect(JSON.parse(out()).events[0]).toMatchObject({ averageObservedAgreement: 0.5 });
    vi.restoreAllMocks();
    out = stdout();
    await run([csv, "--table3"]);
    expect(out()).toContain("over agreed items");
  });

  it("rejects a bad scope, ratio or time", async () => {
    const csv = file("t4.csv", CSV);
    await expect(run([csv, "--table3", "--scope", "some"])).rejects.toThrow(CliError);
    await expect(run([csv, "--table3", "--accept", "2-3"])).rejects.toThrow(/--accept/);
    await expect(run([csv, "--table3", "--first", "1"])).rejects.toThrow(/--first/);
    const bad = file("t5.csv", "item,annotator,label,submitted_at\ni,a,x,yesterday\n");
    await expect(run([bad, "--table3"])).rejects.toThrow(/ISO 8601/);
  });
});

describe("accord agreement --repeats (a CrowdFlower-shaped report with repeat judgments)", () => {
  const rows = crowdflowerRows();
  const withRepeats = () => file("cf.csv", crowdflowerCsv(rows));
  const capture = () => {
    let err = "";
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      err += String(chunk);
      return true;
    });
    return () => err;
  };

  it("refuses by default, naming the option", async () => {
    await expect(run([withRepeats(), "--table3"])).rejects.toThrow(/8 repeat judgments .*--repeats first .*--repeats last/);
    await expect(run([withRepeats()])).rejects.toThrow(/8 repeat judgments .*on lines \d+, \d+; .*--repeats first/);
  });

  for (const [policy, drop] of [["first", "later"], ["last", "earlier"]] as const) {
    it(`--table3 --repeats ${policy} --json equals the same computation on the file with the ${drop} repeats deleted`, async () => {
      const deleted = file(`cf-${policy}.csv`, crowdflowerCsv(rows.filter((r) => r.repeat !== drop)));
      for (const scope of ["agreed", "all"]) {
        let out = stdout();
        const err = capture();
        expect(await run([withRepeats(), "--table3", "--scope", scope, "--repeats", policy, "--json"])).toBe(0);
        const got = JSON.parse(out());
        expect(err()).toBe(`note: 8 repeat judgments set aside (--repeats ${policy})\n`);
        vi.restoreAllMocks();
        out = stdout();
        expect(await run([deleted, "--table3", "--scope", scope, "--json"])).toBe(0);
        const want = JSON.parse(out());
        vi.restoreAllMocks();
        expect(got.repeatsSetAside).toBe(8);
        expect(want.repeatsSetAside).toBe(0);
        expect(got.events).toEqual(want.events);
        if (scope === "all") expect(got.events[0].judgments).toBe(150);
      }
    });

    it(`plain --repeats ${policy} --json equals the file with the ${drop} repeats deleted`, async () => {
      let out = stdout();
      capture();
      expect(await run([withRepeats(), "--repeats", policy, "--json"])).toBe(0);
      const got = JSON.parse(out());
      vi.restoreAllMocks();
      out = stdout();
      expect(await run([file(`cfp-${policy}.csv`, crowdflowerCsv(rows.filter((r) => r.repeat !== drop))), "--json"])).toBe(0);
      const want = JSON.parse(out());
      // the label codes may come in another first-seen order: equal up to floating-point summation order
      for (const key of Object.keys(want)) {
        if (key === "repeatsSetAside") continue;
        expect(got[key], key).toBeCloseTo(want[key], 12);
      }
      expect(got.repeatsSetAside).toBe(8);
      expect(got.annotations).toBe(150);
    });
  }

  it("rejects an unknown policy", async () => {
    await expect(run([withRepeats(), "--repeats", "newest"])).rejects.toThrow(/--repeats: expected first, last or refuse/);
  });
});
