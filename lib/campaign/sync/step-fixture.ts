// Inputs for the sync steps' unit tests (pure functions; no database, no provider).
import { buildQuestionFormAnswers } from "@/lib/crowd/mturk/answers";
import { hitFieldName } from "@/lib/crowd/mturk/hit-question";
import type { CrowdAssignment } from "@/lib/crowd/provider";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import type { HitRow, SyncAssignment } from "./types";
import { ASSIGNMENT_STATUS, HIT_STATUS, PROVIDER_ASSIGNMENT_STATUS } from "@/lib/db/enums";

export const LABELS = HUMAID_LABELS;
const label = (i: number) => HUMAID_LABELS[i % HUMAID_LABELS.length].value;

/** A HIT of `gold` gold items (their gold label: label(i)) then `unknown` unknown ones. */
export function hitRow(id: string, { gold = 2, unknown = 3, maxAssignments = 3 }: { gold?: number; unknown?: number; maxAssignments?: number } = {}): HitRow {
  const items = Array.from({ length: gold + unknown }, (_, i) => ({
    id: `${id}-i${i}`,
    position: i,
    isGold: i < gold,
    tweetId: `${id}-t${i}`,
    tweet: { goldLabel: i < gold ? label(i) : null },
  }));
  return { id, eventId: "ev", status: HIT_STATUS.published, providerHitId: `P-${id}`, maxAssignments, rewardCents: 50, expiresAt: null, batch: null, items };
}

/** A provider assignment answering each item of `hit` with `answer(i)` (default: the gold label, else label(i)). */
export function remoteAssignment(hit: HitRow, id: string, { status = PROVIDER_ASSIGNMENT_STATUS.Submitted, answer = (i: number) => label(i), workerId = "W1" }: { status?: CrowdAssignment["status"]; answer?: (i: number) => string; workerId?: string } = {}): CrowdAssignment {
  const answerXml = buildQuestionFormAnswers(hit.items.map((it, i) => ({ questionId: hitFieldName(i + 1, it.id), freeText: answer(i) })));
  return { assignmentId: id, workerId, providerHitId: hit.providerHitId as string, status, answerXml, submittedAt: new Date("2026-12-01T10:00:00Z") };
}

/** A stored assignment of `hit` whose gold answers are right for the first `correct` gold items. */
export function storedAssignment(
  hit: HitRow,
  id: string,
  { correct, decision = null, providerStatus = PROVIDER_ASSIGNMENT_STATUS.Submitted, decisionSentAt = null, workerId = "w1", submitTime = null }: { correct: number; decision?: string | null; providerStatus?: string; decisionSentAt?: Date | null; workerId?: string; submitTime?: Date | null },
): SyncAssignment {
  const gold = hit.items.filter((it) => it.isGold);
  return {
    id,
    hitId: hit.id,
    providerAssignmentId: `P-${id}`,
    providerStatus,
    status: ASSIGNMENT_STATUS.submitted,
    decision,
    decisionSentAt,
    feedback: null,
    workerId,
    submitTime,
    judgments: gold.map((it, i) => ({ hitItemId: it.id, label: i < correct ? (it.tweet.goldLabel as string) : "not_humanitarian_wrong" })),
  };
}
