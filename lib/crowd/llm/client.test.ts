import { afterEach, describe, expect, it } from "vitest";
import { CircuitBreaker } from "@/lib/crowd/circuit-breaker";
import { isCrowdError } from "@/lib/crowd/errors";
import { ManualTimers } from "@/lib/util/clock";
import { createLlmClient } from "./client";
import { buildLabelRequest, type SchemeLabel } from "./prompt";
import { startLlmSimulator, type RunningLlmSimulator } from "./simulator/server";

const SCHEME: SchemeLabel[] = [
  { value: "caution_and_advice", name: "Caution and advice", description: "" },
  { value: "not_humanitarian", name: "Not humanitarian", description: "" },
];
const REQUEST = buildLabelRequest(SCHEME, [], [{ id: "item-1", text: "Stay indoors" }]);

let sim: RunningLlmSimulator | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

describe("the LLM client", () => {
  it("waits a 429's retry-after (the SDK's own retries are off) and returns the answer with its token usage", async () => {
    sim = await startLlmSimulator({ port: 0, faults: { rateLimitRate: 1, retryAfterSeconds: 3 } });
    const waits: number[] = [];
    const client = createLlmClient({
      baseUrl: sim.baseURL,
      apiKey: sim.apiKey,
      model: "accord-sim-1",
      temperature: 0,
      timeoutMs: 10_000,
      breaker: new CircuitBreaker(),
      sleep: async (ms) => {
        waits.push(ms);
        sim!.setFaults({});
      },
    });
    const answer = await client.complete(REQUEST);
    expect(waits).toEqual([3000]);
    expect(sim.stats.rateLimited).toBe(1);
    expect(answer.promptTokens).toBe(sim.stats.promptTokens);
    expect(answer.completionTokens).toBe(sim.stats.completionTokens);
    expect(JSON.parse(answer.text ?? "")).toEqual({ labels: [{ id: "item-1", label: expect.any(String) }] });
  });

  it("an endpoint failing every call opens the breaker (the outage banner), refuses while open, and recovers on the probe", async () => {
    sim = await startLlmSimulator({ port: 0, faults: { serverErrorRate: 1 } });
    const clock = new ManualTimers();
    const breaker = new CircuitBreaker({ failures: 3, probeMs: 5_000, clock });
    const events: string[] = [];
    const client = createLlmClient({
      baseUrl: sim.baseURL,
      apiKey: sim.apiKey,
      model: "accord-sim-1",
      temperature: 0,
      timeoutMs: 10_000,
      breaker,
      attempts: 4,
      onOutage: (err) => events.push(`outage: ${(err as Error).message}`),
      onRecovered: () => events.push("recovered"),
      sleep: (ms) => clock.advance(ms / 10), // never long enough for the probe
    });
    const err = await client.complete(REQUEST).catch((e: unknown) => e);
    expect(isCrowdError(err, "network")).toBe(true); // the 4th attempt is refused by the open breaker
    expect(sim.stats.serverErrors).toBe(3);
    expect(events).toEqual([expect.stringMatching(/^outage: The language model endpoint failed \(HTTP 500/)]);

    // The endpoint comes back; once the probe is due the next call goes out, succeeds and clears the outage.
    sim.setFaults({});
    await clock.advance(5_000);
    await client.complete(REQUEST);
    expect(events).toHaveLength(2);
    expect(events[1]).toBe("recovered");
    expect(breaker.state).toBe("closed");
  });

  it("a wrong key is a refusal a researcher can act on, not retried", async () => {
    sim = await startLlmSimulator({ port: 0 });
    let waited = 0;
    const client = createLlmClient({ baseUrl: sim.baseURL, apiKey: "wrong", model: "accord-sim-1", temperature: 0, timeoutMs: 10_000, breaker: new CircuitBreaker(), sleep: async () => void waited++ });
    await expect(client.complete(REQUEST)).rejects.toThrow(/refused the API key \(HTTP 401\); check it in Settings/);
    expect(waited).toBe(0);
  });
});
