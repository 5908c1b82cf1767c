import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ThrottleGate } from "./throttle-gate";

describe("ThrottleGate", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** Whether `p` has settled after the pending microtasks and zero-delay timers ran. */
  async function settled(p: Promise<unknown>): Promise<boolean> {
    let done = false;
    void p.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    return done;
  }

  it("is open until a call is throttled; then every call waits for the same reopening", async () => {
    const gate = new ThrottleGate({ baseMs: 200, maxConcurrent: 8, random: () => 1 }); // jitter 0.5 + 1/2 = 1: pauses of exactly 200, 400, …
    const ticket = await gate.enter();
    expect(gate.closed).toBe(false);
    gate.leave(ticket, "throttled");
    expect(gate.closed).toBe(true);
    const waiting = [gate.enter(), gate.enter(), gate.enter()];
    await vi.advanceTimersByTimeAsync(199);
    for (const w of waiting) expect(await settled(w)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const tickets = await Promise.all(waiting);
    expect(new Set(tickets.map((t) => t.opening))).toEqual(new Set([ticket.opening + 1]));
    expect(gate.closed).toBe(false);
    expect(gate.stats).toEqual({ throttled: 1, pauses: 1, pausedMs: 200 });
  });

  it("closes once for the throttled calls of one opening, and doubles the pause while reopenings are throttled", async () => {
    const gate = new ThrottleGate({ baseMs: 100, capMs: 350, maxConcurrent: 4, random: () => 1 });
    const [a, b] = [await gate.enter(), await gate.enter()];
    gate.leave(a, "throttled");
    gate.leave(b, "throttled"); // went out in the same opening: no second pause
    expect(gate.stats).toMatchObject({ throttled: 2, pauses: 1, pausedMs: 100 });
    await vi.advanceTimersByTimeAsync(100);
    gate.leave(await gate.enter(), "throttled"); // throttled again right after reopening: 200
    await vi.advanceTimersByTimeAsync(200);
    gate.leave(await gate.enter(), "throttled"); // 400, capped at 350
    expect(gate.stats.pausedMs).toBe(100 + 200 + 350);
    await vi.advanceTimersByTimeAsync(350);
    gate.leave(await gate.enter(), "succeeded"); // a success after a reopening: back to the base
    gate.leave(await gate.enter(), "throttled");
    expect(gate.stats.pausedMs).toBe(100 + 200 + 350 + 100);
  });

  it("ignores a success or a throttle of an earlier opening", async () => {
    const gate = new ThrottleGate({ baseMs: 100, maxConcurrent: 8, random: () => 1 });
    const [first, old, older] = [await gate.enter(), await gate.enter(), await gate.enter()];
    gate.leave(first, "throttled"); // 100
    await vi.advanceTimersByTimeAsync(100);
    gate.leave(await gate.enter(), "throttled"); // throttled right after reopening: 200
    gate.leave(old, "succeeded"); // of an earlier opening: does not reset the pause
    await vi.advanceTimersByTimeAsync(200);
    gate.leave(older, "throttled"); // of an earlier opening: does not close the open gate
    expect(gate.closed).toBe(false);
    gate.leave(await gate.enter(), "throttled"); // 400
    expect(gate.stats).toEqual({ throttled: 4, pauses: 3, pausedMs: 100 + 200 + 400 });
  });

  it("halves the calls in flight at each throttled opening and grows them back by one after 10 × window clean calls", async () => {
    const gate = new ThrottleGate({ baseMs: 10, maxConcurrent: 4, random: () => 1 });
    const four = await Promise.all([gate.enter(), gate.enter(), gate.enter(), gate.enter()]);
    const fifth = gate.enter();
    expect(await settled(fifth)).toBe(false); // the window is full
    gate.leave(four[0], "succeeded");
    const t5 = await fifth;
    gate.leave(four[1], "throttled"); // window 4 → 2; the calls still in flight finish
    expect(gate.window).toBe(2);
    for (const t of [four[2], four[3], t5]) gate.leave(t, "throttled");
    expect(gate.stats.pauses).toBe(1);
    await vi.advanceTimersByTimeAsync(10);
    const [x, y] = [await gate.enter(), await gate.enter()];
    const z = gate.enter();
    expect(await settled(z)).toBe(false); // two in flight at most now
    gate.leave(x, "succeeded");
    gate.leave(y, "succeeded");
    gate.leave(await z, "succeeded");
    // 20 clean calls in a row at window 2 → 3 (three were just made).
    for (let i = 0; i < 17; i++) gate.leave(await gate.enter(), "succeeded");
    expect(gate.window).toBe(3);
    for (let i = 0; i < 30; i++) gate.leave(await gate.enter(), "succeeded");
    expect(gate.window).toBe(4);
    for (let i = 0; i < 100; i++) gate.leave(await gate.enter(), "succeeded");
    expect(gate.window).toBe(4); // never above maxConcurrent
  });

  it("a failed call frees its place without touching the pause or the window", async () => {
    const gate = new ThrottleGate({ baseMs: 10, maxConcurrent: 1 });
    gate.leave(await gate.enter(), "failed");
    gate.leave(await gate.enter(), "failed");
    expect(gate.closed).toBe(false);
    expect(gate.window).toBe(1);
    expect(gate.stats.pauses).toBe(0);
  });

  it("jitters each pause to 50–100% of its length", async () => {
    const values = [0, 0.5];
    const gate = new ThrottleGate({ baseMs: 1000, random: () => values.shift() ?? 0 });
    gate.leave(await gate.enter(), "throttled");
    expect(gate.stats.pausedMs).toBe(500);
    await vi.advanceTimersByTimeAsync(500);
    gate.leave(await gate.enter(), "throttled");
    expect(gate.stats.pausedMs).toBe(500 + 2000 * 0.75);
  });
});
