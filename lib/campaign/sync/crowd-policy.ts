import "server-only";
import { attentionChecksFor, attentionOf } from "@/lib/crowd/attention-checks";
import { answerFields, parseQuestionFormAnswers } from "@/lib/crowd/mturk/answers";
import type { CrowdPolicy, CrowdPolicySettings, PolicyAction, PolicyInput, RejectionCategory } from "@/lib/crowd/policy";
import type { Db } from "@/lib/db/client";
import type { SchemeLabel } from "@/lib/labels/humaid";
import type { AssignmentGrade } from "@/lib/procedure/grading";
import { inChunks } from "./chunks";
import type { HitRow } from "./types";
import { DECISION, type Decision } from "@/lib/db/enums";

/**
 * The crowd's policy applied to the procedure's grades: what each grade becomes on this crowd (lib/crowd/policy.ts).
 * The decision written is approve, reject or hold; an excluded submission is approved (paid) with its reason kept,
 * and its judgments are never counted.
 */
export type Outcome = { decision: Decision; text: string; excludedReason: string | null; category: RejectionCategory | null; block: boolean };

/** The outcome of a grade left as the procedure decided it (no policy given). */
export const outcomeOfGrade = (grade: AssignmentGrade): Outcome => ({ decision: grade.decision, text: grade.reason.text, excludedReason: null, category: null, block: false });

export function outcomeOf(action: PolicyAction, grade: AssignmentGrade): Outcome {
  switch (action.action) {
    case "approve":
      return { ...outcomeOfGrade(grade), decision: DECISION.approve };
    case "exclude":
      return { decision: DECISION.approve, text: action.reason, excludedReason: action.reason, category: null, block: action.block };
    case "reject":
      return { decision: DECISION.reject, text: action.message, excludedReason: null, category: action.category, block: false };
    case "hold":
      return { decision: DECISION.hold, text: action.reason, excludedReason: null, category: null, block: false };
  }
}

/** A study's figures (a batch is a study): its places, rejections so far, and each submission's completion time. */
export type StudyFigures = { places: number; rejected: number; seconds: Map<string, number>; assignmentDurationSeconds: number };

/** The figures of the batches of these HITs (one read of their assignments; only crowds whose policy uses them). */
export async function loadStudyFigures(db: Db, hits: readonly HitRow[]): Promise<Map<string, StudyFigures>> {
  const batchIds = [...new Set(hits.flatMap((h) => (h.batchId ? [h.batchId] : [])))];
  const out = new Map<string, StudyFigures>();
  if (batchIds.length === 0) return out;
  const [batchHits, rows] = await Promise.all([
    db.hit.findMany({ where: { batchId: { in: batchIds } }, select: { batchId: true, maxAssignments: true, batch: { select: { durationSeconds: true } } } }),
    db.assignment.findMany({ where: { hit: { batchId: { in: batchIds } } }, select: { id: true, decision: true, acceptTime: true, submitTime: true, hit: { select: { batchId: true } } } }),
  ]);
  for (const h of batchHits) {
    const id = h.batchId as string;
    const f = out.get(id) ?? { places: 0, rejected: 0, seconds: new Map<string, number>(), assignmentDurationSeconds: h.batch?.durationSeconds ?? 3600 };
    f.places += h.maxAssignments;
    out.set(id, f);
  }
  for (const a of rows) {
    const f = out.get(a.hit.batchId as string);
    if (!f) continue;
    if (a.decision === DECISION.reject) f.rejected++;
    if (a.acceptTime && a.submitTime) f.seconds.set(a.id, (a.submitTime.getTime() - a.acceptTime.getTime()) / 1000);
  }
  return out;
}

/** A submission's attention checks as the policy reads them. */
export type Attention = NonNullable<PolicyInput["attention"]>;

/** Whether the event's HITs carry attention checks: the crowd's page shows them only when its policy reads the setting. */
export const carriesAttentionChecks = ({ policy, settings }: { policy: CrowdPolicy; settings: CrowdPolicySettings }) => policy.configurable && settings.attentionChecks;

/**
 * Each assignment's answers to its HIT's attention checks (lib/crowd/attention-checks.ts: the same checks the task
 * page showed, from the HIT's id), from the answer documents stored at ingest, read in one query per 500. An
 * assignment whose document is not stored (too large to keep), or whose page showed no checks (the setting turned on
 * after it was given), has none: the policy then has no checks to read.
 */
export async function loadAttention(db: Db, graded: ReadonlyArray<{ a: { id: string }; hit: HitRow }>, labels: readonly SchemeLabel[]): Promise<Map<string, Attention>> {
  const rows = (await inChunks(graded.map((g) => g.a.id), (ids) => db.assignmentAnswer.findMany({ where: { assignmentId: { in: ids } }, select: { assignmentId: true, raw: true } }))).flat();
  const raw = new Map(rows.map((r) => [r.assignmentId, r.raw]));
  const out = new Map<string, Attention>();
  for (const { a, hit } of graded) {
    const doc = raw.get(a.id);
    if (doc === undefined) continue;
    let fields: Map<string, string>;
    try {
      fields = answerFields(parseQuestionFormAnswers(doc));
    } catch {
      fields = new Map(); // a malformed document answered no check
    }
    const attention = attentionOf(attentionChecksFor(hit.id, labels, hit.items.length), fields, labels);
    if (attention) out.set(a.id, attention);
  }
  return out;
}

/**
 * Each grade's outcome under the crowd's policy, in order: a rejection decided here counts toward its study's cap for
 * the grades after it.
 */
export function applyCrowdPolicy<G extends { a: { id: string }; hit: HitRow; grade: AssignmentGrade }>(
  graded: readonly G[],
  { policy, settings }: { policy: CrowdPolicy; settings: CrowdPolicySettings },
  figures: ReadonlyMap<string, StudyFigures>,
  /** By assignment id (loadAttention); none: the HIT carried no checks. */
  attention: ReadonlyMap<string, Attention> = new Map(),
): Array<G & { outcome: Outcome }> {
  return graded.map((g) => {
    const f = g.hit.batchId ? figures.get(g.hit.batchId) : undefined;
    // The other completions only matter to the too-quick rule: copied only when it is on (a study's size per grade).
    const others = f && settings.rejectTooQuick ? [...f.seconds].filter(([id]) => id !== g.a.id).map(([, s]) => s) : [];
    const action = policy.decide({
      verdict: { decision: g.grade.decision, text: g.grade.reason.text, correct: g.grade.correct, total: g.grade.total },
      attention: attention.get(g.a.id) ?? null,
      durationSeconds: f?.seconds.get(g.a.id) ?? null,
      study: { completionSeconds: others, places: f?.places ?? 0, rejected: f?.rejected ?? 0, assignmentDurationSeconds: f?.assignmentDurationSeconds ?? 3600 },
      settings,
    });
    const outcome = outcomeOf(action, g.grade);
    if (f && outcome.decision === DECISION.reject) f.rejected++;
    return { ...g, outcome };
  });
}
