import { z } from "zod";
import { parseQuestionFormAnswers } from "../mturk/answers";
import { parameterValidationError, SimError } from "./errors";
import { extraState, type SimReviewAction, type SimReviewPolicy, type SimReviewRecord, type SimReviewResult } from "./ops-state";
import { op, type ExtraOperation } from "./ops-types";
import { entityId, maxResults, nextToken } from "./schemas";
import type { MturkSimulatorService } from "./service";
import type { SimAssignment } from "./state";
import { PROVIDER_ASSIGNMENT_STATUS } from "@/lib/db/enums";

/**
 * MTurk's two review policies, run by the simulator: ScoreMyKnownAnswers (assignment level: the share of known
 * answers a worker got right, then approve / reject / extend) and SimplePlurality (HIT level, once the HIT is
 * Reviewable: the plurality answer per question, agreement scores, then approve / reject / extend). The result keys
 * (KnownAnswerScore, KnownAnswerCorrect, PluralityAnswer, AgreementScore, HITAgreementScore, WorkerAgreementScore)
 * follow the parameter names of MTurk's policy docs; they are the simulator's reading, not verified against MTurk.
 */
export const ASSIGNMENT_POLICY = "ScoreMyKnownAnswers/2011-09-01";
export const HIT_POLICY = "SimplePlurality/2011-09-01";

function params(policy: SimReviewPolicy): Map<string, { values: string[]; map: Map<string, string[]> }> {
  const out = new Map<string, { values: string[]; map: Map<string, string[]> }>();
  for (const p of policy.Parameters ?? []) out.set(p.Key, { values: p.Values ?? [], map: new Map((p.MapEntries ?? []).map((e) => [e.Key, e.Values])) });
  return out;
}

function num(p: ReturnType<typeof params>, key: string): number | undefined {
  const v = p.get(key)?.values[0];
  return v === undefined ? undefined : Number(v);
}

/** Checks a policy's name and numbers when the HIT is created (a bad one fails CreateHIT). */
function checkReviewPolicy(policy: SimReviewPolicy, expected: string, member: string, nowMs: number): void {
  if (policy.PolicyName !== expected) throw parameterValidationError(`${member}.PolicyName`, policy.PolicyName, nowMs);
  for (const p of policy.Parameters ?? []) {
    if (/(Score|Threshold|Assignments|Seconds)/.test(p.Key) && p.Values?.some((v) => !/^\d+$/.test(v))) throw parameterValidationError(p.Key, p.Values, nowMs);
  }
  const p = params(policy);
  if (expected === ASSIGNMENT_POLICY && !p.get("AnswerKey")?.map.size) throw parameterValidationError("AnswerKey", [], nowMs);
  if (expected === HIT_POLICY && !p.get("QuestionIds")?.values.length) throw parameterValidationError("QuestionIds", [], nowMs);
}

/** A worker's answer values per question (crowd-form's taskAnswers JSON is read field by field). */
function answerValues(a: SimAssignment): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const ans of a.Answer ? parseQuestionFormAnswers(a.Answer) : []) {
    if (ans.questionId === "taskAnswers" && ans.freeText) {
      try {
        const rows = JSON.parse(ans.freeText) as Array<Record<string, unknown>>;
        for (const [k, v] of Object.entries(rows[0] ?? {})) out.set(k, [String(v)]);
        continue;
      } catch {
        // not JSON: kept as a free-text answer below
      }
    }
    out.set(ans.questionId, ans.selectionIds ?? (ans.freeText !== undefined ? [ans.freeText] : ans.otherSelectionText !== undefined ? [ans.otherSelectionText] : []));
  }
  return out;
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

function act(svc: MturkSimulatorService, name: string, targetId: string, targetType: "Assignment" | "HIT", run: () => string): SimReviewAction {
  const action: SimReviewAction = { ActionId: svc.newId(), ActionName: name, TargetId: targetId, TargetType: targetType, Status: "Succeeded", CompleteTime: svc.time };
  try {
    action.Result = run();
  } catch (err) {
    action.Status = "Failed";
    action.Result = err instanceof Error ? err.message : String(err);
    if (err instanceof SimError) action.ErrorCode = err.turkErrorCode ?? err.type;
  }
  return action;
}

/** Adds assignments and keeps the HIT open long enough, as a policy's extend action does. */
function extend(svc: MturkSimulatorService, hitId: string, p: ReturnType<typeof params>): string {
  const more = num(p, "ExtendMaximumAssignments") ?? 1;
  const minSeconds = num(p, "ExtendMinimumTimeInSeconds") ?? 3600;
  svc.addAssignments({ HITId: hitId, NumberOfAdditionalAssignments: more });
  const hit = svc.state.hits[hitId];
  if (hit.expiration < svc.time + minSeconds * 1000) svc.updateExpiration(hitId, (svc.time + minSeconds * 1000) / 1000);
  return `Extended by ${String(more)} assignment(s)`;
}

function scoreAssignment(svc: MturkSimulatorService, rec: SimReviewRecord, a: SimAssignment): void {
  const p = params(rec.assignment!);
  const key = p.get("AnswerKey")!.map;
  const given = answerValues(a);
  let correct = 0;
  for (const [questionId, values] of key) {
    const ok = sameSet(given.get(questionId) ?? [], values);
    if (ok) correct++;
    rec.assignmentResults.push({ ActionId: svc.newId(), SubjectId: a.AssignmentId, SubjectType: "Assignment", QuestionId: questionId, Key: "KnownAnswerCorrect", Value: String(ok) });
  }
  const score = Math.round((100 * correct) / key.size);
  rec.assignmentResults.push({ ActionId: svc.newId(), SubjectId: a.AssignmentId, SubjectType: "Assignment", Key: "KnownAnswerScore", Value: String(score) });
  const approveAt = num(p, "ApproveIfKnownAnswerScoreIsAtLeast");
  const rejectBelow = num(p, "RejectIfKnownAnswerScoreIsLessThan");
  const extendBelow = num(p, "ExtendIfKnownAnswerScoreIsLessThan");
  if (a.status === PROVIDER_ASSIGNMENT_STATUS.Submitted && approveAt !== undefined && score >= approveAt) {
    rec.assignmentActions.push(act(svc, "approve", a.AssignmentId, "Assignment", () => (svc.approve(a.AssignmentId, p.get("ApproveReason")?.values[0], false), "Approved")));
  } else if (a.status === PROVIDER_ASSIGNMENT_STATUS.Submitted && rejectBelow !== undefined && score < rejectBelow) {
    const reason = p.get("RejectReason")?.values[0] ?? `Your known-answer score was ${String(score)}%.`;
    rec.assignmentActions.push(act(svc, "reject", a.AssignmentId, "Assignment", () => (svc.reject(a.AssignmentId, reason), "Rejected")));
  }
  if (extendBelow !== undefined && score < extendBelow) rec.assignmentActions.push(act(svc, "extend", a.HITId, "HIT", () => extend(svc, a.HITId, p)));
}

function reviewHit(svc: MturkSimulatorService, rec: SimReviewRecord, hitId: string): void {
  const p = params(rec.hit!);
  const questionIds = p.get("QuestionIds")!.values;
  const threshold = num(p, "QuestionAgreementThreshold") ?? 50;
  const disregardRejected = p.get("DisregardAssignmentIfRejected")?.values[0] === "true";
  const minKnown = num(p, "DisregardAssignmentIfKnownAnswerScoreIsLessThan");
  const known = new Map(rec.assignmentResults.filter((r) => r.Key === "KnownAnswerScore").map((r) => [r.SubjectId, Number(r.Value)]));
  const assignments = svc.state.hits[hitId].assignmentIds
    .map((id) => svc.state.assignments[id])
    .filter((a) => (a.status === PROVIDER_ASSIGNMENT_STATUS.Submitted || a.status === PROVIDER_ASSIGNMENT_STATUS.Approved || (a.status === PROVIDER_ASSIGNMENT_STATUS.Rejected && !disregardRejected)) && !(minKnown !== undefined && (known.get(a.AssignmentId) ?? 100) < minKnown));
  const answers = new Map(assignments.map((a) => [a.AssignmentId, answerValues(a)]));
  const plurality = new Map<string, string>();
  const result = (subjectId: string, subjectType: "HIT" | "Assignment", k: string, value: string, questionId?: string): SimReviewResult => ({ ActionId: svc.newId(), SubjectId: subjectId, SubjectType: subjectType, QuestionId: questionId, Key: k, Value: value });
  for (const q of questionIds) {
    const counts = new Map<string, number>();
    for (const a of assignments) {
      const v = (answers.get(a.AssignmentId)?.get(q) ?? []).join("|");
      if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    const [best, n] = [...counts.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0] ?? ["", 0];
    const agreement = assignments.length ? Math.round((100 * n) / assignments.length) : 0;
    rec.hitResults.push(result(hitId, "HIT", "AgreementScore", String(agreement), q));
    if (best && agreement >= threshold) {
      plurality.set(q, best);
      rec.hitResults.push(result(hitId, "HIT", "PluralityAnswer", best, q));
    }
  }
  const hitScore = questionIds.length ? Math.round((100 * plurality.size) / questionIds.length) : 0;
  rec.hitResults.push(result(hitId, "HIT", "HITAgreementScore", String(hitScore)));
  const approveAt = num(p, "ApproveIfWorkerAgreementScoreIsAtLeast");
  const rejectBelow = num(p, "RejectIfWorkerAgreementScoreIsLessThan");
  for (const a of assignments) {
    const agreed = [...plurality].filter(([q, v]) => (answers.get(a.AssignmentId)?.get(q) ?? []).join("|") === v).length;
    const score = plurality.size ? Math.round((100 * agreed) / plurality.size) : 0;
    rec.hitResults.push(result(a.AssignmentId, "Assignment", "WorkerAgreementScore", String(score)));
    if (a.status !== PROVIDER_ASSIGNMENT_STATUS.Submitted) continue;
    if (approveAt !== undefined && score >= approveAt) {
      rec.hitActions.push(act(svc, "approve", a.AssignmentId, "Assignment", () => (svc.approve(a.AssignmentId, undefined, false), "Approved")));
    } else if (rejectBelow !== undefined && score < rejectBelow) {
      const reason = p.get("RejectReason")?.values[0] ?? `Your answers agreed with the plurality on ${String(score)}% of the questions.`;
      rec.hitActions.push(act(svc, "reject", a.AssignmentId, "Assignment", () => (svc.reject(a.AssignmentId, reason), "Rejected")));
    }
  }
  const extendBelow = num(p, "ExtendIfHITAgreementScoreIsLessThan");
  if (extendBelow !== undefined && hitScore < extendBelow) rec.hitActions.push(act(svc, "extend", hitId, "HIT", () => extend(svc, hitId, p)));
}

/** Checks a new HIT's review policies before the HIT exists (a bad policy fails the CreateHIT call). */
export function checkReviewPolicies(f: { AssignmentReviewPolicy?: SimReviewPolicy; HITReviewPolicy?: SimReviewPolicy }, nowMs: number): void {
  if (f.AssignmentReviewPolicy) checkReviewPolicy(f.AssignmentReviewPolicy, ASSIGNMENT_POLICY, "AssignmentReviewPolicy", nowMs);
  if (f.HITReviewPolicy) checkReviewPolicy(f.HITReviewPolicy, HIT_POLICY, "HITReviewPolicy", nowMs);
}

/** Stores a new HIT's review policies. */
export function recordReviewPolicies(svc: MturkSimulatorService, hitId: string, f: { AssignmentReviewPolicy?: SimReviewPolicy; HITReviewPolicy?: SimReviewPolicy }): void {
  if (!f.AssignmentReviewPolicy && !f.HITReviewPolicy) return;
  extraState(svc.state).reviews[hitId] = {
    assignment: f.AssignmentReviewPolicy,
    hit: f.HITReviewPolicy,
    assignmentResults: [],
    assignmentActions: [],
    hitResults: [],
    hitActions: [],
    scored: [],
    hitReviewed: false,
  };
}

/** Runs what is due: the assignment policy on each newly submitted assignment, the HIT policy once the HIT is Reviewable. */
export function runReviewPolicies(svc: MturkSimulatorService): void {
  const reviews = svc.state.extra?.reviews;
  if (!reviews) return;
  for (const [hitId, rec] of Object.entries(reviews)) {
    if (rec.hitReviewed && !rec.assignment) continue;
    const hit = svc.state.hits[hitId];
    if (!hit || hit.disposed) continue;
    if (rec.assignment) {
      for (const id of hit.assignmentIds) {
        const a = svc.state.assignments[id];
        if (a.status === PROVIDER_ASSIGNMENT_STATUS.Submitted && !rec.scored.includes(id)) {
          rec.scored.push(id);
          scoreAssignment(svc, rec, a);
        }
      }
    }
    if (rec.hit && !rec.hitReviewed && svc.hitStatus(hit) === "Reviewable") {
      rec.hitReviewed = true;
      reviewHit(svc, rec, hitId);
    }
  }
}

export const reviewOperations: Record<string, ExtraOperation> = {
  ListReviewPolicyResultsForHIT: op(
    z.object({
      HITId: entityId,
      PolicyLevels: z.array(z.enum(["Assignment", "HIT"])).optional(),
      RetrieveActions: z.boolean().optional(),
      RetrieveResults: z.boolean().optional(),
      NextToken: nextToken.optional(),
      MaxResults: maxResults.optional(),
    }),
    (svc, i) => {
      svc.getHitRec(i.HITId);
      const rec = svc.state.extra?.reviews[i.HITId];
      const levels = new Set(i.PolicyLevels?.length ? i.PolicyLevels : ["Assignment", "HIT"]);
      const out: Record<string, unknown> = { HITId: i.HITId };
      if (!rec) return out;
      // Results and actions are paged together: one page holds up to MaxResults of each list.
      const lists = {
        ar: levels.has("Assignment") && i.RetrieveResults !== false ? rec.assignmentResults : [],
        aa: levels.has("Assignment") && i.RetrieveActions !== false ? rec.assignmentActions : [],
        hr: levels.has("HIT") && i.RetrieveResults !== false ? rec.hitResults : [],
        ha: levels.has("HIT") && i.RetrieveActions !== false ? rec.hitActions : [],
      };
      const longest = Math.max(...Object.values(lists).map((l) => l.length));
      const index = svc.paginate(Array.from({ length: longest }, (_, k) => k), i.NextToken, i.MaxResults, `review|${i.HITId}|${[...levels].join(",")}`);
      const from = index.items[0] ?? longest;
      const to = from + index.items.length;
      const actions = (l: SimReviewAction[]) => l.slice(from, to).map((a) => ({ ...a, CompleteTime: svc.wire(a.CompleteTime) }));
      if (levels.has("Assignment") && rec.assignment) {
        out.AssignmentReviewPolicy = { PolicyName: rec.assignment.PolicyName };
        out.AssignmentReviewReport = { ReviewResults: lists.ar.slice(from, to), ReviewActions: actions(lists.aa) };
      }
      if (levels.has("HIT") && rec.hit) {
        out.HITReviewPolicy = { PolicyName: rec.hit.PolicyName };
        out.HITReviewReport = { ReviewResults: lists.hr.slice(from, to), ReviewActions: actions(lists.ha) };
      }
      if (index.next) out.NextToken = index.next;
      return out;
    },
  ),
};
