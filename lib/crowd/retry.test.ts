import { describe, expect, it } from "vitest";
import { backoffMs, retryWithBackoff } from "./retry";

describe("retry with back-off", () => {
  it("doubles the delay up to its cap, jittered to 50–100% when asked", () => {
    expect([0, 1, 2, 3, 10].map((n) => backoffMs(n, { baseMs: 250, capMs: 8000 }))).toEqual([250, 500, 1000, 2000, 8000]);
    expect(backoffMs(2, { baseMs: 250, jitter: "half" }, () => 0)).toBe(500);
    expect(backoffMs(2, { baseMs: 250, jitter: "half" }, () => 1)).toBe(1000);
  });

  it("tries again while the failure is retryable, up to its attempts, waiting the back-off between them", async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    let calls = 0;
    const flaky = async () => {
      if (++calls < 3) throw new Error("busy");
      return "done";
    };
    expect(await retryWithBackoff(flaky, { attempts: 5, retryable: (e) => (e as Error).message === "busy", delayMs: (n) => backoffMs(n, { baseMs: 10 }), sleep })).toBe("done");
    expect([calls, waits]).toEqual([3, [10, 20]]);

    calls = 0;
    waits.length = 0;
    await expect(retryWithBackoff(async () => (++calls, Promise.reject(new Error("busy"))), { attempts: 3, retryable: () => true, delayMs: () => 1, sleep })).rejects.toThrow("busy");
    expect([calls, waits.length]).toEqual([3, 2]);

    calls = 0;
    await expect(retryWithBackoff(async () => (++calls, Promise.reject(new Error("refused"))), { attempts: 3, retryable: () => false, delayMs: () => 1, sleep })).rejects.toThrow("refused");
    expect(calls).toBe(1);
  });
});
