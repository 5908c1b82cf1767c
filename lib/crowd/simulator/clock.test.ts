import { describe, expect, it } from "vitest";
import { ManualClock, RealClock, workedAcceptWire } from "./clock";

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

describe("an assignment's AcceptTime on the wire", () => {
  it("keeps the simulated time on task under a sped-up clock: submit − accept is the work, not the wall time it took", () => {
    const clock = new RealClock(60);
    const accept = clock.now();
    const submit = accept + 20 * 60_000; // twenty simulated minutes of work
    const submitWall = clock.toWall(submit) / 1000;
    const acceptWire = workedAcceptWire(clock, accept, submit) as number;
    expect(submitWall - acceptWire).toBe(20 * 60);
    // Before submission, the accept time as it happened.
    expect(workedAcceptWire(clock, accept, undefined)).toBe(clock.toWall(accept) / 1000);
    expect(workedAcceptWire(clock, undefined, undefined)).toBeUndefined();
  });

  it("is the accept time itself on a manual clock", () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 12));
    expect(workedAcceptWire(clock, Date.UTC(2026, 0, 5, 12), Date.UTC(2026, 0, 5, 12, 7))).toBe(Date.UTC(2026, 0, 5, 12) / 1000);
  });
});
