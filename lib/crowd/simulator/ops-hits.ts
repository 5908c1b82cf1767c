import { z } from "zod";
import { parseQuestionFormAnswers } from "../mturk/answers";
import { formatCentsAsDollars, parseDollarsToCents } from "../mturk/fees";
import { plainRequestError, requestError } from "./errors";
import { extraState } from "./ops-state";
import { op, type ExtraOperation } from "./ops-types";
import { entityId, maxResults, nextToken } from "./schemas";
import type { MturkSimulatorService } from "./service";

/** MTurk's file upload URLs are valid for 60 seconds (GetFileUploadURL docs). */
export const FILE_URL_TTL_MS = 60_000;

/** The file behind a GetFileUploadURL link, or why it cannot be served (unknown key, expired link). */
export function fileForUrl(svc: MturkSimulatorService, key: string, expires: string | null): { content: Buffer } | { error: string } {
  const file = extraState(svc.state).files[key];
  if (!file) return { error: "NoSuchKey: The specified key does not exist." };
  if (expires === null || !(Number(expires) * 1000 > svc.clock.now())) return { error: "AccessDenied: Request has expired." };
  return { content: Buffer.from(file.contentBase64, "base64") };
}

export const hitOperations: Record<string, ExtraOperation> = {
  UpdateHITTypeOfHIT: op(z.object({ HITId: entityId, HITTypeId: entityId }), (svc, i) => {
    const hit = svc.getHitRec(i.HITId);
    const type = svc.state.hitTypes[i.HITTypeId];
    if (!type) throw requestError("HITTypeDoesNotExist", `HITType ${i.HITTypeId} does not exist.`, svc.time);
    if (hit.disposed) throw svc.invalidHitState(hit, "Assignable, Unassignable, Reviewable, Reviewing");
    // The HIT takes the new type's properties; approvals from now on pay the new reward.
    Object.assign(hit, {
      HITTypeId: type.HITTypeId,
      Title: type.Title,
      Description: type.Description,
      Keywords: type.Keywords,
      rewardCents: parseDollarsToCents(type.Reward),
      AutoApprovalDelayInSeconds: type.AutoApprovalDelayInSeconds,
      AssignmentDurationInSeconds: type.AssignmentDurationInSeconds,
      QualificationRequirements: type.QualificationRequirements.map((r) => ({ ...r })),
    });
    svc.wakeSleepers();
    return {};
  }),
  ListBonusPayments: op(
    z.object({ HITId: entityId.optional(), AssignmentId: entityId.optional(), NextToken: nextToken.optional(), MaxResults: maxResults.optional() }),
    (svc, i) => {
      if (!i.HITId && !i.AssignmentId) throw plainRequestError("Either the HITId parameter or the AssignmentId parameter must be specified.", svc.time);
      if (i.HITId) svc.getHitRec(i.HITId);
      if (i.AssignmentId) svc.getAssignmentRec(i.AssignmentId);
      const all = svc.state.bonuses.filter(
        (b) => (!i.AssignmentId || b.assignmentId === i.AssignmentId) && (!i.HITId || svc.state.assignments[b.assignmentId]?.HITId === i.HITId),
      );
      const scope = `bonus|${i.HITId ?? ""}|${i.AssignmentId ?? ""}`;
      return svc.pageJson(svc.paginate(all, i.NextToken, i.MaxResults, scope), "BonusPayments", (b) => ({
        WorkerId: b.workerId,
        BonusAmount: formatCentsAsDollars(b.amountCents),
        AssignmentId: b.assignmentId,
        Reason: b.reason,
        GrantTime: svc.wire(b.time),
      }));
    },
  ),
  GetFileUploadURL: op(z.object({ AssignmentId: entityId, QuestionIdentifier: z.string().min(1) }), (svc, i) => {
    const a = svc.getAssignmentRec(i.AssignmentId);
    const answer = a.Answer ? parseQuestionFormAnswers(a.Answer).find((x) => x.questionId === i.QuestionIdentifier) : undefined;
    const key = answer?.uploadedFileKey;
    if (!key || !extraState(svc.state).files[key]) {
      throw plainRequestError(`Assignment ${a.AssignmentId} has no uploaded file for the question ${i.QuestionIdentifier}.`, svc.time);
    }
    const expires = Math.floor((svc.time + FILE_URL_TTL_MS) / 1000);
    return { FileUploadURL: `${svc.publicUrl}/__simulator/files/${key}?expires=${String(expires)}` };
  }),
};
