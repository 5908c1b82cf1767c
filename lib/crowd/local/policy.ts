import type { CrowdPolicy } from "../policy";
import { DECISION } from "@/lib/db/enums";

/**
 * In-house annotators are never rejected: work below the gold rule is accepted as done and excluded from agreement,
 * labels and exports, with the reason recorded (the lab talks to its own people).
 */
export const localPolicy: CrowdPolicy = {
  crowd: "local",
  studyFigures: false,
  paysBelowGold: false,
  configurable: false,
  decide({ verdict }) {
    if (verdict.decision === DECISION.approve) return { action: "approve" };
    if (verdict.decision === DECISION.hold) return { action: "hold", reason: verdict.text };
    return { action: "exclude", reason: `Excluded: ${verdict.text.replace(/^Rejected:\s*/, "")}`, block: false };
  },
  describe() {
    return {
      statements: [
        "A submission at or above the gold rule counts.",
        "A submission below the gold rule is never rejected: it is accepted and excluded from agreement, labels and exports, with the reason recorded.",
      ],
      refusal: null,
    };
  },
};
