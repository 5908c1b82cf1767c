import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { agreementSummary } from "@/lib/metrics/report";
import { encodeMatrix } from "@/lib/metrics/judgments";
import { KRIPPENDORFF_2011 } from "@/lib/metrics/published-data.fixture";
import { main } from "../main";
import { CliError } from "../errors";
import { run } from "./agreement";
import { captureOutput } from "@/lib/ingest/testing/test-io";

let dir: string;
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

/** Krippendorff (2011) as long-format CSV: α nominal = 0.7434210526. */
function krippendorffCsv(): string {
  const lines = ["item,annotator,label"];
  KRIPPENDORFF_2011.forEach((row, a) =>
    row.forEach((v, u) => {
      if (v !== null) lines.push(`u${u + 1},${"ABCD"[a]},${v}`);
    }),
  );
  return lines.join("\n") + "\n";
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "accord-agreement-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe("accord agreement", () => {
  it("--json prints exactly one object with the documented keys in order", async () => {
    const csv = file("k.csv", krippendorffCsv());
    const io = captureOutput();
    expect(await run([csv, "--json"])).toBe(0);
    const text = io.out();
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.trim().split("\n")).toHaveLength(1);
    const obj = JSON.parse(text);
    expect(Object.keys(obj)).toEqual([
      "items",
      "annotations",
      "labels",
      "fleissKappa",
      "krippendorffAlpha",
      "averageObservedAgreement",
      "averageMajorityAgreement",
      "repeatsSetAside",
    ]);
    expect(obj).toMatchObject({ items: 12, annotations: 41, labels: 5 });
    expect(Math.abs(obj.krippendorffAlpha - 0.7434210526)).toBeLessThan(1e-9);
    expect(Math.abs(obj.averageObservedAgreement - 0.8181818)).toBeLessThan(1e-7);
    const expected = agreementSummary(encodeMatrix(KRIPPENDORFF_2011, { layout: "annotators-by-items" }));
    expect(obj.fleissKappa).toBe(expected.fleissKappa);
    expect(obj.averageMajorityAgreement).toBe(expected.averageMajorityAgreement);
    // unit 12 has a single judgment: reported on stderr, not an error
    expect(io.err()).toContain('1 item with a single judgment ("u12")');
  });

  it("prints a readable table without --json", async () => {
    const io = captureOutput();
    expect(await run([file("t.csv", krippendorffCsv())])).toBe(0);
    const out = io.out();
    expect(out).toContain("Krippendorff's alpha (nominal)  0.7434");
    expect(out).toMatch(/items\s+12/);
    expect(out).toMatch(/Fleiss' kappa\s+0\.\d{4}/);
  });

  it("accepts columns in any order, extra columns, quotes, a BOM and CRLF", async () => {
    const csv = file(
      "o.csv",
      '\uFEFFlabel,extra,annotator,item\r\n"a, b",1,w1,t1\r\n"a, b",2,w2,t1\r\nc,3,w3,t1\r\nc,4,w1,t2\r\nc,5,w2,t2\r\n',
    );
    const io = captureOutput();
    expect(await run(["--json", csv])).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ items: 2, annotations: 5, labels: 2 });
  });

  it("prints null for measures that are undefined (no variation)", async () => {
    const io = captureOutput();
    expect(await run([file("same.csv", "item,annotator,label\nt1,a,x\nt1,b,x\n"), "--json"])).toBe(0);
    expect(io.out()).toBe(
      '{"items":1,"annotations":2,"labels":1,"fleissKappa":null,"krippendorffAlpha":null,"averageObservedAgreement":1,"averageMajorityAgreement":1,"repeatsSetAside":0}\n',
    );
  });

  const bad: Array<[string, string, RegExp]> = [
    ["empty.csv", "", /is empty/],
    ["blank.csv", "\n\n  \n", /is empty/],
    ["header-only.csv", "item,annotator,label\n", /has a header but no judgments/],
    ["missing.csv", "item,worker,label\nt1,a,x\n", /missing column annotator .*found: item,worker,label/],
    ["missing2.csv", "foo\nbar\n", /missing columns item, annotator, label/],
    ["dup.csv", "item,annotator,label\nt1,a,x\nt1,b,x\nt1,a,y\n", /1 repeat judgment .*item "t1" by annotator "a" on lines 2, 4; choose --repeats first/],
    ["emptycell.csv", "item,annotator,label\nt1,a,x\nt1,,y\n", /line 3: empty annotator/],
    ["short.csv", "item,annotator,label\nt1,a\n", /line 2: empty label/],
    ["singles.csv", "item,annotator,label\nt1,a,x\nt2,a,y\n", /no item has two or more judgments/],
    ["badquote.csv", 'item,annotator,label\nt1,a,"x\n', /not valid CSV/],
  ];
  for (const [name, text, message] of bad) {
    it(`refuses ${name} with a clear message`, async () => {
      const p = file(name, text);
      await expect(run([p, "--json"])).rejects.toThrow(message);
      await expect(run([p])).rejects.toBeInstanceOf(CliError);
    });
  }

  it("through the dispatcher: message on stderr, non-zero exit, no stack trace", async () => {
    const io = captureOutput();
    const code = await main(["agreement", file("dup2.csv", "item,annotator,label\nt1,a,x\nt1,a,x\n")]);
    expect(code).toBe(1);
    expect(io.err()).toMatch(/^accord agreement: .*repeat judgment.*--repeats first/);
    expect(io.err()).not.toMatch(/\n\s+at /);
    expect(await main(["agreement", path.join(dir, "nope.csv")])).toBe(1);
    expect(io.err()).toContain("no such file");
    expect(await main(["agreement"])).toBe(2);
    expect(await main(["agreement", "a.csv", "b.csv"])).toBe(2);
    expect(await main(["agreement", "--nope"])).toBe(2);
    expect(await main(["agreement", "--help"])).toBe(0);
    expect(io.out()).toContain("usage: accord agreement FILE [--repeats first|last|refuse] [--json]");
  });

  it("works as a child process: node scripts/accord.mjs agreement <file> --json", async () => {
    const csv = file("child.csv", krippendorffCsv());
    const { stdout } = await promisify(execFile)(process.execPath, ["scripts/accord.mjs", "agreement", csv, "--json"], {
      cwd: process.cwd(),
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
    });
    const obj = JSON.parse(stdout);
    expect(Math.abs(obj.krippendorffAlpha - 0.7434210526)).toBeLessThan(1e-9);
    expect(obj.items).toBe(12);
    const failed = await promisify(execFile)(process.execPath, ["scripts/accord.mjs", "agreement", path.join(dir, "x.csv")], {
      cwd: process.cwd(),
    }).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toBe(`accord agreement: cannot read ${path.join(dir, "x.csv")}: no such file\n`);
  });
});
