import { describe, expect, it } from "vitest";
import { followUpsDue } from "./follow-ups";

// The sync loop's deferred follow-ups (worker statistics, agreement snapshots) run when the process has done
// 20× their last cost in CPU work since, or when they are five minutes stale — not more often because the passes
// spend a long time waiting on a throttled provider.
describe("followUpsDue", () => {
  const last = { lastAt: 1_000_000, lastCostMs: 1_500, lastCpuMs: 50_000, lastCpuCostMs: 1_400 };

  it("runs once the process has used 20× the last run's CPU cost", () => {
    expect(followUpsDue(last, { wallMs: last.lastAt + 40_000, cpuMs: 50_000 + 27_999 })).toBe(false);
    expect(followUpsDue(last, { wallMs: last.lastAt + 40_000, cpuMs: 50_000 + 28_000 })).toBe(true);
  });

  it("does not run more often while the passes only wait (throttling), but at least every five minutes", () => {
    expect(followUpsDue(last, { wallMs: last.lastAt + 299_999, cpuMs: 50_000 + 500 })).toBe(false);
    expect(followUpsDue(last, { wallMs: last.lastAt + 300_000, cpuMs: 50_000 + 500 })).toBe(true);
  });

  it("a very costly run waits 20× its wall time before the staleness rule applies", () => {
    const slow = { ...last, lastCostMs: 20_000, lastCpuCostMs: 20_000 };
    expect(followUpsDue(slow, { wallMs: slow.lastAt + 399_999, cpuMs: 50_000 + 1_000 })).toBe(false);
    expect(followUpsDue(slow, { wallMs: slow.lastAt + 400_000, cpuMs: 50_000 + 1_000 })).toBe(true);
  });

  it("the first run is due at once", () => {
    expect(followUpsDue({ lastAt: 0, lastCostMs: 0, lastCpuMs: 0, lastCpuCostMs: 0 }, { wallMs: Date.now(), cpuMs: 10 })).toBe(true);
  });
});
