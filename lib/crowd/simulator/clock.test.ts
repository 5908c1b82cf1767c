import { describe, expect, it } from "vitest";
import { ManualClock, RealClock } from "./clock";

describe("the simulator's clocks on the wall clock", () => {
  it("maps a sped-up clock's simulated times to the real time they happen at, and back", () => {
    const clock = new RealClock(60);
    const before = Date.now();
    const simNow = clock.now();
    const wall = clock.toWall(simNow);
    expect(wall).toBeGreaterThanOrEqual(before - 1);
    expect(wall).toBeLessThanOrEqual(Date.now() + 1);
    // Twenty simulated minutes of work are twenty real seconds.
    expect(clock.toWall(simNow + 20 * 60_000) - wall).toBe(20_000);
    expect(clock.fromWall(clock.toWall(simNow + 3_600_000))).toBe(simNow + 3_600_000);
  });

  it("gives a manual clock's times as they are", () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 12));
    expect(clock.toWall(clock.now())).toBe(Date.UTC(2026, 0, 5, 12));
    expect(clock.fromWall(123)).toBe(123);
  });
});
