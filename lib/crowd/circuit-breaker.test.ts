import { describe, expect, it } from "vitest";
import { ManualTimers } from "@/lib/util/clock";
import { CircuitBreaker, guardProvider } from "./circuit-breaker";
import { CrowdError } from "./errors";
import type { CrowdProvider } from "./provider";

const down = () => new CrowdError("connect ECONNREFUSED 127.0.0.1:9", "network");

/** A provider with just what the breaker looks at: a call, a listing and (optionally) a throttle gate's count. */
function fakeProvider(behaviour: { call: () => Promise<string>; rows?: number; gate?: { stats: { throttled: number } } }) {
  const provider = {
    kind: "mturk",
    gate: behaviour.gate,
    getAccountBalance: () => behaviour.call(),
    async *listSubmittedAssignments() {
      for (let i = 0; i < (behaviour.rows ?? 3); i++) yield { id: `a${i}` };
    },
  };
  return provider as unknown as CrowdProvider & { getAccountBalance(): Promise<string>; listSubmittedAssignments(): AsyncIterable<{ id: string }> };
}

describe("a crowd's circuit breaker", () => {
  it("opens after N outage failures in a row, refuses calls until a probe is due, and the probe's answer closes it", async () => {
    const clock = new ManualTimers();
    const breaker = new CircuitBreaker({ failures: 3, probeMs: 5_000, clock });
    let reachable = false;
    const provider = guardProvider(fakeProvider({ call: async () => (reachable ? "ok" : Promise.reject(down())) }), breaker, { clock });
    for (let i = 0; i < 3; i++) await expect(provider.getAccountBalance()).rejects.toThrow(/ECONNREFUSED/);
    expect(breaker.state).toBe("open");
    await expect(provider.getAccountBalance()).rejects.toThrow(/treated as unreachable after 3 failed calls/);
    await clock.advance(5_000);
    await expect(provider.getAccountBalance()).rejects.toThrow(/ECONNREFUSED/); // the probe went out, and failed
    expect(breaker.state).toBe("open");
    reachable = true;
    await clock.advance(5_000);
    await expect(provider.getAccountBalance()).resolves.toBe("ok");
    expect(breaker.state).toBe("closed");
  });

  it("a refusal (the crowd answered) never counts against it", async () => {
    const breaker = new CircuitBreaker({ failures: 1, clock: new ManualTimers() });
    const provider = guardProvider(fakeProvider({ call: () => Promise.reject(new CrowdError("no such HIT", "not_found")) }), breaker);
    await expect(provider.getAccountBalance()).rejects.toThrow(/no such HIT/);
    expect(breaker.state).toBe("closed");
  });

  it("a probing listing its reader stops early closes it (the reads made were answered)", async () => {
    const clock = new ManualTimers();
    const breaker = new CircuitBreaker({ failures: 1, probeMs: 1_000, clock });
    breaker.failed(down());
    await clock.advance(1_000);
    const provider = guardProvider(fakeProvider({ call: async () => "ok", rows: 5 }), breaker, { clock });
    for await (const row of provider.listSubmittedAssignments()) {
      expect(row).toEqual({ id: "a0" });
      break;
    }
    expect(breaker.state).toBe("closed");
  });

  it("a probe that never reports (a listing nobody reads) does not leave it half-open for good: another probe goes after probeMs", async () => {
    const clock = new ManualTimers();
    const breaker = new CircuitBreaker({ failures: 1, probeMs: 1_000, clock });
    breaker.failed(down());
    await clock.advance(1_000);
    const provider = guardProvider(fakeProvider({ call: async () => "ok" }), breaker, { clock });
    void provider.listSubmittedAssignments(); // taken as the probe, never iterated
    expect(breaker.state).toBe("half-open");
    expect(breaker.probeDue).toBe(false);
    await expect(provider.getAccountBalance()).rejects.toThrow(/treated as unreachable/);
    await clock.advance(1_000);
    expect(breaker.probeDue).toBe(true);
    await expect(provider.getAccountBalance()).resolves.toBe("ok");
    expect(breaker.state).toBe("closed");
  });

  it("a call past its deadline counts as an outage, unless the crowd was throttling it meanwhile (rate exceeded is an answer)", async () => {
    const clock = new ManualTimers();
    const breaker = new CircuitBreaker({ failures: 1, clock });
    const gate = { stats: { throttled: 0 } };
    const hanging = guardProvider(fakeProvider({ call: () => new Promise<string>(() => undefined), gate }), breaker, { deadlineMs: 20_000, clock });

    const throttledCall = hanging.getAccountBalance();
    gate.stats.throttled += 4; // the gate paced this call through several "Rate exceeded" answers
    const throttledOutcome = expect(throttledCall).rejects.toMatchObject({ code: "throttled" });
    await clock.advance(20_000);
    await throttledOutcome;
    expect(breaker.state).toBe("closed");

    const silentCall = hanging.getAccountBalance();
    const silentOutcome = expect(silentCall).rejects.toMatchObject({ code: "network" });
    await clock.advance(20_000);
    await silentOutcome;
    expect(breaker.state).toBe("open");
  });
});
