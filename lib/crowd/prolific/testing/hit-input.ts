import type { PublishHitInput } from "../../provider";

/** A HIT to publish on Prolific in tests: `hit-N` goes in `batch-1` at position N unless `over` says otherwise. */
export function testHit(over: Partial<PublishHitInput> = {}): PublishHitInput {
  const accordHitId = over.accordHitId ?? "hit-1";
  return {
    accordHitId,
    title: "Label 30 tweets",
    description: "Read 30 tweets posted during a disaster and choose the category of each.",
    rewardCents: 300,
    maxAssignments: 2,
    lifetimeSeconds: 3 * 24 * 3600,
    assignmentDurationSeconds: 45 * 60,
    autoApprovalDelaySeconds: 3 * 24 * 3600,
    questionXml: "<unused/>",
    batch: { key: "batch-1", position: Number(accordHitId.replace(/\D/g, "")) || 1 },
    ...over,
  };
}
