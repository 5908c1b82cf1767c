import { describe, expect, it } from "vitest";
import { assignmentFeeCents } from "@/lib/crowd/mturk/fees";
import { documentedFeeCents } from "@/lib/crowd/prolific/cost-estimate";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { type RecordedEvent, replayEvent } from "./replay";

/** One HIT of 20 unknown tweets judged alike by three workers who each got 10/10 gold: all three approved. */
function recorded(provider: string, rewardCents: number): RecordedEvent {
  const tweets = Array.from({ length: 20 }, (_, i) => `t${i}`);
  const assignment = { goldCorrect: 10, goldTotal: 10, labels: new Map(tweets.map((t) => [t, "caution_and_advice"])) };
  return { hits: [{ id: "h1", provider, rewardCents, unknownTweetIds: tweets, workers: ["w1", "w2", "w3"], assignments: [assignment, assignment, assignment] }] };
}

describe("the replay's cost", () => {
  it("charges each approved assignment the reward plus the fee of the HIT's crowd", () => {
    const mturk = replayEvent(recorded("mturk", 300), DEFAULT_PROCEDURE_SETTINGS).outcome;
    const prolific = replayEvent(recorded("prolific", 300), DEFAULT_PROCEDURE_SETTINGS).outcome;
    expect([mturk.assignmentsApproved, prolific.assignmentsApproved]).toEqual([3, 3]);
    expect(mturk.costCents).toBe(3 * (300 + assignmentFeeCents({ rewardCents: 300, maxAssignments: 3 })));
    expect(prolific.costCents).toBe(3 * (300 + documentedFeeCents(300)));
    expect(prolific.costCents).not.toBe(mturk.costCents);
  });

  it("on Prolific also charges work below the gold rule (approved and excluded, paid); on MTurk it is rejected, unpaid", () => {
    const withWeak = (provider: string): RecordedEvent => {
      const r = recorded(provider, 300);
      const h = r.hits[0]!;
      const weak = { ...h.assignments[0]!, goldCorrect: 6 };
      return { hits: [{ ...h, workers: [...h.workers, "w4"], assignments: [h.assignments[0]!, weak, h.assignments[1]!, h.assignments[2]!] }] };
    };
    const mturk = replayEvent(withWeak("mturk"), DEFAULT_PROCEDURE_SETTINGS).outcome;
    const prolific = replayEvent(withWeak("prolific"), DEFAULT_PROCEDURE_SETTINGS).outcome;
    expect([mturk.assignmentsApproved, prolific.assignmentsApproved]).toEqual([3, 3]);
    expect(mturk.costCents).toBe(3 * (300 + assignmentFeeCents({ rewardCents: 300, maxAssignments: 4 })));
    expect(prolific.costCents).toBe(4 * (300 + documentedFeeCents(300)));
  });
});
