import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findTimedTestCode } from "./timed-test-code";

// No test asserts a duration or sleeps a fixed time (CI shares two cores with everything else): time comes from an
// injected clock, tests assert the order of events or poll until a condition with a generous overall timeout, and
// speed claims live in scripts/bench. This scans every unit test and e2e file for what would break that.

/**
 * Justified uses marked `// timing-ok: <reason>` in the code, listed here so that a new one is a reviewed change
 * ("file rule: reason"). None so far.
 */
const MARKED: string[] = [];

/**
 * Files other helpers are fixing on their own branches at the same time (issue 34): allowed until their fix is
 * merged. The merge empties this list; an entry whose file no longer has timed code fails, as a reminder.
 */
const BEING_FIXED: Record<string, string> = {
};

const ROOTS = ["lib", "app", "components", "scripts"];

function testFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : testFiles(p);
    // The tests, and the fixtures and testing helpers they run.
    return /\.test\.tsx?$/.test(e.name) || /fixtures?[^/]*\.tsx?$/.test(e.name) || /(^|\/)testing\/[^/]+\.tsx?$/.test(p.split(path.sep).join("/")) ? [p] : [];
  });
}

function e2eFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return ["artifacts", "test-results", "node_modules"].includes(e.name) ? [] : e2eFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe("findTimedTestCode", () => {
  it("finds waitForTimeout, fixed sleeps and comparisons asserted on a measured time", () => {
    const sample = [
      "await page.waitForTimeout(300);",
      "const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));",
      "await new Promise((r) => setTimeout(() => r(), 40));",
      'import { setTimeout as wait } from "node:timers/promises";',
      "await wait(100);",
      "const started = Date.now();",
      "expect(Date.now() - started).toBeLessThan(5_000);",
      "const t0 = performance.now(); const took = performance.now() - t0;",
      "expect(took).toBeLessThanOrEqual(10);",
      "const p95 = sorted[Math.floor(sorted.length * 0.95)];",
      "expect(p95).toBeLessThan(500);",
      "const delay = monitorEventLoopDelay({ resolution: 10 });",
      "expect(delay.percentile(99) / 1e6).not.toBeGreaterThan(500);",
      "const busy = nodePerformance.eventLoopUtilization(before).utilization;",
      "expect.soft(busy).toBeLessThan(0.35);",
      "const latencies: number[] = [];",
      "expect(Math.max(...latencies)).toBeLessThan(1_000);",
    ].join("\n");
    expect(findTimedTestCode(sample).map((f) => `${f.line}:${f.rule}`)).toEqual([
      "1:wait-for-timeout",
      "2:sleep",
      "3:sleep",
      "5:sleep",
      "7:elapsed-assertion",
      "9:elapsed-assertion",
      "11:elapsed-assertion",
      "13:elapsed-assertion",
      "15:elapsed-assertion",
      "17:elapsed-assertion",
    ]);
  });

  it("leaves polling loops, timeout guards, timer callbacks, timestamps and other comparisons alone", () => {
    const sample = [
      "while (!(await check())) await new Promise((r) => setTimeout(r, 100));",
      "for (;;) { if (done()) break; await new Promise((resolve) => setTimeout(resolve, 25)); }",
      "const guard = Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 10_000))]);",
      "setTimeout(kill, Math.floor(rng() * 40));",
      "new Promise<void>((resolve) => setTimeout(() => { kill(); resolve(); }, delayMs));",
      "const stamp = new Date(Date.now() - 1000);",
      "expect(stamp.getTime()).toBeLessThan(Date.now());",
      "expect(submitted[i]).toBeLessThanOrEqual(Date.now());",
      "expect(step.ms).toBeGreaterThanOrEqual(0);",
      "expect(ticks.length).toBeLessThanOrEqual(6);",
      "const elapsedMs = clock.now() - start;",
      "expect(elapsedMs).toBe(20_000);",
      "await vi.advanceTimersByTimeAsync(200);",
      "await expect.poll(() => count(), { timeout: 60_000 }).toBe(5);",
    ].join("\n");
    expect(findTimedTestCode(sample)).toEqual([]);
  });

  it("reports a marked line as marked, with its reason", () => {
    const sample = ["// timing-ok: the child must still be publishing when it is killed", "await page.waitForTimeout(5);", "await page.waitForTimeout(5); // timing-ok: same line"].join("\n");
    expect(findTimedTestCode(sample).map((f) => [f.line, f.marked])).toEqual([
      [2, "the child must still be publishing when it is killed"],
      [3, "same line"],
    ]);
  });
});

describe("no test asserts a duration or sleeps a fixed time", () => {
  const files = [...ROOTS.flatMap((r) => testFiles(r)), ...e2eFiles("e2e")].map((f) => f.split(path.sep).join("/")).sort();
  const found = files.flatMap((file) => findTimedTestCode(fs.readFileSync(file, "utf8"), file).map((f) => ({ file, ...f })));

  it("scans the unit tests, their fixtures and the e2e specs and helpers", () => {
    expect(files).toContain("lib/no-timed-tests.test.ts");
    expect(files).toContain("lib/campaign/test-fixture.ts");
    expect(files.some((f) => f.startsWith("e2e/") && f.endsWith(".spec.ts"))).toBe(true);
  });

  it("finds none outside the marked lines and the files being fixed", () => {
    const bad = found.filter((f) => f.marked === null && !(f.file in BEING_FIXED)).map((f) => `${f.file}:${f.line} ${f.rule}: ${f.text}`);
    expect(bad, "use an injected clock, assert the order of events, or poll until a condition (vi.waitFor, expect.poll)").toEqual([]);
  });

  it("lists every marked line, and no file on the being-fixed list is already clean", () => {
    expect(found.filter((f) => f.marked !== null).map((f) => `${f.file} ${f.rule}: ${f.marked}`)).toEqual(MARKED);
    const clean = Object.keys(BEING_FIXED).filter((file) => !found.some((f) => f.file === file && f.marked === null));
    expect(clean, "these files have no timed code left: remove them from BEING_FIXED").toEqual([]);
  });
});
