import { describe, expect, it } from "vitest";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { allDecided, decideReady, finalWrites } from "./decide";
import { hitRow } from "./step-fixture";

describe("decide: HIT decisions from counted labels", () => {
  const settings = DEFAULT_PROCEDURE_SETTINGS;
  const sent = new Date();

  it("a HIT is ready only when every stored assignment is decided and delivered", () => {
    const row = (over: object) => ({ hitId: "h1", status: "approved", decision: "approve", decisionSentAt: sent, ...over });
    expect(allDecided([row({}), row({ status: "rejected", decision: "reject" })])).toBe(true);
    expect(allDecided([row({}), row({ status: "held", decision: "hold" })])).toBe(false);
    expect(allDecided([row({}), row({ status: "submitted", decision: null, decisionSentAt: null })])).toBe(false);
    expect(allDecided([row({ decisionSentAt: null })])).toBe(false);
  });

  it("approves a HIT whose unknown tweets all reach 2 of 3, and writes labels, tweet states, the HIT, audits and live messages", () => {
    const hit = hitRow("h1", { gold: 2, unknown: 20 });
    const unknown = hit.items.filter((it) => !it.isGold).map((it) => it.tweetId);
    const labels = new Map(unknown.map((t) => [t, ["caution_and_advice", "caution_and_advice", "sympathy_and_support"]]));
    const decided = decideReady([hit], labels, settings);
    expect(decided[0].decision.hit.state).toBe("approved");
    const now = new Date("2026-12-01T12:00:00Z");
    const w = finalWrites([{ hit, decision: decided[0].decision }], now);
    expect(w.labels).toHaveLength(20);
    expect(w.labels[0]).toMatchObject({ tweetId: unknown[0], eventId: "ev", label: "caution_and_advice", topVotes: 2, totalVotes: 3, method: "majority", decidedAt: now });
    expect(w.accepted).toEqual(unknown);
    expect(w.unresolved).toEqual([]);
    expect(w.hits).toEqual([{ id: "h1", status: "approved", decidedAt: now, acceptedTweets: 20 }]);
    expect(w.audits[0]).toMatchObject({ entityId: "h1", action: "approve-hit" });
    expect(w.live[0]).toMatchObject({ eventId: "ev", kind: "hit", data: { hitId: "h1", state: "approved" } });
  });

  it("asks for more assignments when too few tweets agree (and more can still change that), and gives up at the maximum", () => {
    const hit = hitRow("h1", { gold: 2, unknown: 20 });
    // Two approved judgments that disagree (the third assignment was rejected): two more could make 3 of 4.
    const split = new Map(hit.items.filter((it) => !it.isGold).map((it) => [it.tweetId, ["caution_and_advice", "sympathy_and_support"]]));
    const extend = decideReady([hit], split, settings)[0].decision.hit;
    expect(extend.state).toBe("extend");
    expect(extend.extraAssignments).toBeGreaterThan(0);
    const atMax = { ...hit, maxAssignments: settings.maxJudgmentsPerTweet };
    const five = new Map([...split].map(([t, l]) => [t, [...l, "other_relevant_information", "injured_or_dead_people", "missing_or_found_people"]]));
    const final = decideReady([atMax], five, settings)[0].decision;
    expect(final.hit.state).toBe("unresolved");
    expect(finalWrites([{ hit: atMax, decision: final }], new Date()).unresolved).toHaveLength(20);
  });
});
