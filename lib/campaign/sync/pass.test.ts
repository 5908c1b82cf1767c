import { describe, expect, it } from "vitest";
import { subscribeLive } from "@/lib/live/bus";
import { applyReport } from "./pass";
import { emptyResult, type HitSyncOutcome } from "./types";

describe("pass: the steps' reports become each HIT's outcome", () => {
  it("adds each step's deltas, keeps a HIT's first error, and sends the live messages", () => {
    const outcomes = new Map<string, HitSyncOutcome>(["h1", "h2"].map((id) => [id, { result: emptyResult(), error: null }]));
    const seen: string[] = [];
    const stop = subscribeLive((m) => seen.push(`${m.kind}:${String(m.data?.hitId)}`));
    try {
      applyReport(outcomes, { deltas: [{ hitId: "h1", newAssignments: 1 }, { hitId: "h1", newAssignments: 1 }, { hitId: "h2", newAssignments: 1 }], failures: [], live: [] });
      applyReport(outcomes, {
        deltas: [{ hitId: "h1", decided: "approve" }, { hitId: "h1", decided: "reject" }, { hitId: "unknown-hit", delivered: 1 }],
        failures: [{ hitId: "h2", error: new Error("first") }],
        live: [{ eventId: "ev", kind: "decision", data: { hitId: "h1" } }],
      });
      applyReport(outcomes, { deltas: [{ hitId: "h1", delivered: 2 }, { hitId: "h1", hitDecision: "extended", extraAssignments: 2 }], failures: [{ hitId: "h2", error: new Error("second") }], live: [] });
    } finally {
      stop();
    }
    expect(outcomes.get("h1")).toEqual({ result: { newAssignments: 2, decided: { approve: 1, reject: 1, hold: 0 }, delivered: 2, hitDecision: "extended", extraAssignments: 2 }, error: null });
    expect(outcomes.get("h2")?.result.newAssignments).toBe(1);
    expect((outcomes.get("h2")?.error as Error).message).toBe("first");
    expect(seen).toEqual(["decision:h1"]);
  });
});
