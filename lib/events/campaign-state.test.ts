import { describe, expect, it } from "vitest";
import { campaignState } from "./campaign-state";

describe("campaignState", () => {
  it("says each step of a publish differently: waiting to start, sending, open, decisions", () => {
    const queued = campaignState({ activeJobs: [{ type: "publish", state: "queued", progressDone: 0, progressTotal: null }], hitStatus: { draft: 5 }, assignmentStatus: {} });
    expect(queued).toEqual({ step: "waiting-to-publish", text: "Publishing: waiting to start (5 HITs ready to send)." });
    const sending = campaignState({ activeJobs: [{ type: "publish", state: "running", progressDone: 2, progressTotal: 5 }], hitStatus: { draft: 3, published: 2 }, assignmentStatus: {} });
    expect(sending).toEqual({ step: "publishing", text: "Publishing: 2 of 5 HITs sent; 2 HITs open." });
    expect(campaignState({ activeJobs: [], hitStatus: { published: 5 }, assignmentStatus: {} })).toEqual({ step: "open", text: "5 HITs open, waiting for workers." });
    expect(campaignState({ activeJobs: [], hitStatus: { published: 4, reviewing: 1 }, assignmentStatus: { submitted: 2, approved: 1 } })).toEqual({
      step: "deciding",
      text: "5 HITs open; 2 submitted assignments waiting for a decision; 1 assignment decided so far.",
    });
    expect(campaignState({ activeJobs: [], hitStatus: { approved: 4, unresolved: 1 }, assignmentStatus: { approved: 12, rejected: 3 } })).toEqual({
      step: "ended",
      text: "No HIT open: 5 HITs in all; 15 assignments decided so far.",
    });
    expect(campaignState({ activeJobs: [], hitStatus: {}, assignmentStatus: {} }).step).toBe("idle");
  });
});
