import { describe, expect, it } from "vitest";
import { textKey } from "@/lib/crowd/simulator/truth";
import { parseLlmFaultSpec } from "./fault-spec";
import { llmTruthFromCsv } from "./truth-file";

describe("parseLlmFaultSpec", () => {
  it("reads name:number pairs into the simulator's faults", () => {
    expect(parseLlmFaultSpec("rate-limit:0.1, server-error:0.05,timeout:0.01,malformed:0.02,out-of-scheme:0.03,retry-after:2,latency:50")).toEqual({
      rateLimitRate: 0.1,
      serverErrorRate: 0.05,
      timeoutRate: 0.01,
      malformedRate: 0.02,
      outOfSchemeRate: 0.03,
      retryAfterSeconds: 2,
      latencyMs: 50,
    });
    expect(parseLlmFaultSpec("")).toEqual({});
  });

  it("names the bad entry", () => {
    expect(() => parseLlmFaultSpec("timeout:1.5")).toThrow(/"timeout:1.5": a fraction/);
    expect(() => parseLlmFaultSpec("latency:-1")).toThrow(/"latency:-1": a number >= 0/);
    expect(() => parseLlmFaultSpec("rate-limit")).toThrow(/rate-limit/);
    expect(() => parseLlmFaultSpec("boom:0.1")).toThrow(/unknown fault "boom:0.1"/);
  });
});

describe("llmTruthFromCsv", () => {
  it("maps each text's key to its label", () => {
    const truth = llmTruthFromCsv('text,label,other\n"Roads closed,  stay home",caution,x\nno label,,y\n');
    expect([...truth]).toEqual([[textKey("Roads closed, stay home"), "caution"]]);
    expect(() => llmTruthFromCsv("tweet_id,label\n1,a\n")).toThrow(/"text" and "label"/);
  });
});
