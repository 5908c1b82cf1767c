import type { CrowdPolicy } from "../policy";
import { DECISION } from "@/lib/db/enums";

/**
 * MTurk: the procedure's decision as it is (unchanged default): approve, reject with the rule and score as feedback,
 * or hold for review (the event's "below the threshold: hold" setting).
 */
export const mturkPolicy: CrowdPolicy = {
  crowd: "mturk",
  studyFigures: false,
  paysBelowGold: false,
  configurable: false,
  decide({ verdict }) {
    if (verdict.decision === DECISION.approve) return { action: "approve" };
    if (verdict.decision === DECISION.hold) return { action: "hold", reason: verdict.text };
    return { action: "reject", category: null, message: verdict.text };
  },
  describe({ belowThresholdAction }) {
    return {
      statements: [
        "A submission at or above the gold rule is approved and paid.",
        belowThresholdAction === "reject"
          ? "A submission below the gold rule is rejected, unpaid, with the rule and its score as feedback."
          : "A submission below the gold rule is held for your review.",
      ],
      refusal: null,
    };
  },
};
