import "server-only";
import { type BulkUpdate, updateManyById } from "@/lib/db/bulk";
import type { Db } from "@/lib/db/client";
import { ASSIGNMENT_STATUS, DECISION, PROVIDER_ASSIGNMENT_STATUS } from "@/lib/db/enums";
import { gradeAssignment } from "@/lib/procedure/grading";
import type { ProcedureSettings } from "@/lib/procedure/settings";
import type { GoldRecord } from "@/lib/procedure/whole-record";
import type { CrowdPolicy, CrowdPolicySettings } from "@/lib/crowd/policy";
import type { SchemeLabel } from "@/lib/labels/humaid";
import { insertAudits } from "./audit-rows";
import { applyCrowdPolicy, carriesAttentionChecks, loadAttention, loadStudyFigures, type Outcome, outcomeOfGrade } from "./crowd-policy";
import { loadPriorRecords, type PendingGold } from "./gold-records";
import { type AuditRow, emptyReport, type HitRow, type StepReport, type SyncAssignment } from "./types";

/** A grade, and (once the crowd's policy is applied) what it becomes on the crowd. */
export type Graded = { a: SyncAssignment; hit: HitRow; grade: ReturnType<typeof gradeAssignment>; outcome?: Outcome };

const outcome = (g: Graded): Outcome => g.outcome ?? outcomeOfGrade(g.grade);

/** The undecided, submitted assignments with their gold answers and own gold count (pure). */
export function pendingGold(assignments: readonly SyncAssignment[], hitById: ReadonlyMap<string, HitRow>) {
  return assignments
    .filter((a) => a.decision === null && a.providerStatus === PROVIDER_ASSIGNMENT_STATUS.Submitted)
    .map((a) => {
      const hit = hitById.get(a.hitId) as HitRow;
      const given = new Map(a.judgments.map((j) => [j.hitItemId, j.label]));
      const goldAnswers = hit.items.filter((it) => it.isGold && it.tweet.goldLabel).map((it) => ({ given: given.get(it.id) ?? null, expected: it.tweet.goldLabel as string }));
      const correct = goldAnswers.filter((g) => g.given != null && g.given === g.expected).length;
      return { a, hit, goldAnswers, gold: { id: a.id, workerId: a.workerId, submitTime: a.submitTime, own: { correct, total: goldAnswers.length } } satisfies PendingGold };
    });
}

/**
 * Grades the undecided, submitted assignments on their gold answers (pure); under the whole-record rule with each
 * one's worker record before it (`priors`, by assignment id: loadPriorRecords).
 */
export function gradePending(assignments: readonly SyncAssignment[], hitById: ReadonlyMap<string, HitRow>, settings: ProcedureSettings, priors?: ReadonlyMap<string, GoldRecord>): Graded[] {
  return pendingGold(assignments, hitById).map(({ a, hit, goldAnswers }) => ({ a, hit, grade: gradeAssignment({ goldAnswers, settings, priorRecord: priors?.get(a.id) }) }));
}

/** The decision row, audit entry and live message of each grade (pure). */
export function gradeWrites(graded: readonly Graded[], decidedAt: Date) {
  return graded.map((g) => {
    const { a, hit, grade } = g;
    const o = outcome(g);
    // What the crowd's policy changed, kept with the reason (delivery reads the rejection category and the block).
    const policy = o.excludedReason || o.category || o.decision !== grade.decision ? { policy: { excluded: o.excludedReason !== null, category: o.category, block: o.block } } : {};
    return {
      update: {
        id: a.id,
        decision: o.decision,
        decisionReason: { ...grade.reason, ...policy },
        decidedBy: "system",
        decidedAt,
        goldCorrect: grade.correct,
        goldTotal: grade.total,
        feedback: o.text,
        ...(o.excludedReason ? { excludedReason: o.excludedReason } : {}),
        ...(o.decision === DECISION.hold ? { status: ASSIGNMENT_STATUS.held } : {}),
      } satisfies BulkUpdate<"Assignment">,
      audit: {
        eventId: hit.eventId,
        entityType: "assignment",
        entityId: a.id,
        action: o.decision,
        reason: o.text,
        details: { hitId: hit.id, rule: grade.reason.rule, correct: grade.correct, total: grade.total, threshold: grade.reason.threshold, required: grade.reason.required, ...(grade.reason.record ? { record: grade.reason.record } : {}), ...policy },
      } satisfies AuditRow,
      live: { eventId: hit.eventId, kind: "decision", data: { assignmentId: a.id, hitId: hit.id, decision: o.decision, reason: o.text, ...(o.excludedReason ? { excluded: true } : {}) } },
    };
  });
}

/** The assignments as they are once the won grades are recorded (pure: delivery reads these). */
export function withGrades(assignments: readonly SyncAssignment[], won: readonly Graded[]): SyncAssignment[] {
  const byId = new Map(won.map((g) => [g.a.id, outcome(g)]));
  return assignments.map((a) => {
    const o = byId.get(a.id);
    if (!o) return a;
    return { ...a, decision: o.decision, feedback: o.text, status: o.decision === DECISION.hold ? ASSIGNMENT_STATUS.held : a.status, ...(o.excludedReason ? { excludedReason: o.excludedReason } : {}) };
  });
}

/**
 * Grades the undecided assignments (per HIT: gold ≥ 7/10 → approve, else reject or hold; or by the worker's whole
 * gold record in the event, settings.goldRule) and records each decision as a
 * compare-and-set on a null decision, so no assignment is decided twice, even by two processes. Returns the
 * grades this process won.
 */
export async function gradeAssignments({
  db,
  assignments,
  hitById,
  settings,
  crowd,
}: {
  db: Db;
  assignments: SyncAssignment[];
  hitById: Map<string, HitRow>;
  settings: ProcedureSettings;
  /**
   * The crowd's decision policy and the event's settings for it (lib/crowd/policy.ts), and the event's labels (the
   * attention checks ask for them); none: the procedure's decisions as they are.
   */
  crowd?: { policy: CrowdPolicy; settings: CrowdPolicySettings; labels: readonly SchemeLabel[] };
}): Promise<{ won: Graded[]; report: StepReport }> {
  const report = emptyReport();
  const pending = pendingGold(assignments, hitById);
  if (pending.length === 0) return { won: [], report };
  const priors = settings.goldRule === "whole-record" ? await loadPriorRecords(db, pending[0].hit.eventId, pending.map((p) => p.gold)) : undefined;
  const grades = gradePending(assignments, hitById, settings, priors);
  const graded = crowd
    ? applyCrowdPolicy(
        grades,
        crowd,
        crowd.policy.studyFigures ? await loadStudyFigures(db, pending.map((p) => p.hit)) : new Map(),
        carriesAttentionChecks(crowd) ? await loadAttention(db, pending, crowd.labels) : new Map(),
      )
    : grades;
  const writes = gradeWrites(graded, new Date());
  const wonIds = await db.$transaction(async (tx) => {
    const won = new Set(await updateManyById(tx, "Assignment", writes.map((w) => w.update), { where: { decision: null } }));
    await insertAudits(tx, writes.filter((w) => won.has(w.update.id)).map((w) => w.audit));
    return won;
  });
  const won = graded.filter((g) => wonIds.has(g.a.id));
  for (const [i, g] of graded.entries()) {
    if (!wonIds.has(g.a.id)) continue;
    report.deltas.push({ hitId: g.hit.id, decided: outcome(g).decision });
    report.live.push(writes[i].live);
  }
  return { won, report };
}
