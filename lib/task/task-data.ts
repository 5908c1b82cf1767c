import "server-only";
import type { Db } from "@/lib/db/client";
import {
  createLocalCrowdReader,
  getLocalCrowdProvider,
  type LocalAssignmentSummary,
  type LocalHitSummary,
  listLocalWorkerAssignments,
  listOpenLocalHits,
} from "@/lib/crowd/local/db-store";
import type { LocalQualificationRecord, LocalQualificationTypeRecord } from "@/lib/crowd/local-store";
import type { QualificationRequirement } from "@/lib/crowd/provider";
import { meetsRequirement } from "@/lib/crowd/simulator/requirements";
import { PROVIDER_ASSIGNMENT_STATUS } from "@/lib/db/enums";

/** How many available HITs the task page lists at most (the annotator starts the first one). */
export const AVAILABLE_LIMIT = 10;
/** Candidate HITs checked per provider call while looking for available ones. */
const CHECK_CHUNK = AVAILABLE_LIMIT + 1;

export function requirementMet(r: QualificationRequirement, q: LocalQualificationRecord | null): boolean {
  const value = q && q.status === "Granted" ? q.value : undefined;
  return meetsRequirement({ QualificationTypeId: r.qualificationTypeId, Comparator: r.comparator, IntegerValues: r.integerValues }, value === undefined ? undefined : { integer: value });
}

/** "a score of at least 60%" */
export function describeRequirement(r: QualificationRequirement): string {
  const x = r.integerValues?.[0];
  switch (r.comparator) {
    case "GreaterThanOrEqualTo":
      return `a score of at least ${x}%`;
    case "GreaterThan":
      return `a score above ${x}%`;
    case "EqualTo":
      return `a score of exactly ${x}%`;
    case "Exists":
      return "to have taken the test";
    default:
      return `a score ${r.comparator} ${(r.integerValues ?? []).join(", ")}`;
  }
}

export interface QualificationStatus {
  type: LocalQualificationTypeRecord;
  /** Distinct requirements on this type among the open HITs. */
  requirements: QualificationRequirement[];
  qualification: LocalQualificationRecord | null;
  passed: boolean;
  /** The test can be taken now (never taken, or the retry delay has passed, and not passed yet). */
  canTakeTest: boolean;
  /** When a failed test can be retaken (undefined = never, or now). */
  retryAt?: Date;
  /** Open HITs that need this qualification. */
  hitCount: number;
}

export function qualificationStatus(
  type: LocalQualificationTypeRecord,
  requirements: QualificationRequirement[],
  qualification: LocalQualificationRecord | null,
  hitCount: number,
  now: Date,
): QualificationStatus {
  const passed = requirements.length > 0 ? requirements.every((r) => requirementMet(r, qualification)) : qualification?.status === "Granted";
  let canTakeTest = !passed;
  let retryAt: Date | undefined;
  if (!passed && qualification?.lastTestAt) {
    if (type.retryDelaySeconds === undefined) canTakeTest = false;
    else {
      retryAt = new Date(qualification.lastTestAt.getTime() + type.retryDelaySeconds * 1000);
      canTakeTest = now >= retryAt;
    }
  }
  return { type, requirements, qualification, passed, canTakeTest, retryAt, hitCount };
}

function requirementKey(r: QualificationRequirement): string {
  return `${r.comparator}:${(r.integerValues ?? []).join(",")}`;
}

/** The requirements on each qualification type among these HITs, and how many HITs need each type. */
function requirementsByType(hits: LocalHitSummary[]): Map<string, { requirements: QualificationRequirement[]; hitCount: number }> {
  const out = new Map<string, { requirements: QualificationRequirement[]; hitCount: number; keys: Set<string> }>();
  for (const h of hits) {
    const seen = new Set<string>();
    for (const r of h.qualificationRequirements) {
      let e = out.get(r.qualificationTypeId);
      if (!e) out.set(r.qualificationTypeId, (e = { requirements: [], hitCount: 0, keys: new Set() }));
      if (!e.keys.has(requirementKey(r))) {
        e.keys.add(requirementKey(r));
        e.requirements.push(r);
      }
      if (!seen.has(r.qualificationTypeId)) e.hitCount++;
      seen.add(r.qualificationTypeId);
    }
  }
  return out;
}

export interface TaskOverview {
  blocked: { reason: string } | null;
  inProgress: Array<LocalAssignmentSummary & { hit: LocalHitSummary | null }>;
  available: LocalHitSummary[];
  /** More HITs may be available beyond the ones listed. */
  moreAvailable: boolean;
  /** Qualification tests the open HITs require, with the annotator's standing. */
  qualifications: QualificationStatus[];
  recent: Array<LocalAssignmentSummary & { hit: LocalHitSummary | null }>;
  /** Event names of HITs by provider HIT id (when the campaign's Hit row is found). */
  eventNames: Map<string, string>;
}

/** Everything the task list shows for one annotator (workerId: their id in the local provider, ensureLocalWorker). */
export async function loadTaskOverview(db: Db, workerId: string, now: Date = new Date()): Promise<TaskOverview> {
  const reader = createLocalCrowdReader(db);
  const [open, mine, block] = await Promise.all([listOpenLocalHits(db, now), listLocalWorkerAssignments(db, workerId), reader.getBlock(workerId)]);
  const openById = new Map(open.map((h) => [h.id, h]));

  const live = (a: LocalAssignmentSummary) => a.status === "Accepted" && a.deadline > now;
  const inProgressRaw = mine.filter(live);
  const taken = new Set(mine.filter((a) => a.status !== "Returned" && a.status !== "Abandoned" && !(a.status === "Accepted" && !live(a))).map((a) => a.hitId));
  const candidates = open.filter((h) => !taken.has(h.id));

  const byType = requirementsByType(candidates);
  const qualifications: QualificationStatus[] = [];
  const metTypes = new Set<string>();
  for (const [typeId, { requirements, hitCount }] of byType) {
    const type = await reader.getQualificationType(typeId);
    const qualification = await reader.getQualification(typeId, workerId);
    if (requirements.every((r) => requirementMet(r, qualification))) metTypes.add(typeId);
    if (type) qualifications.push(qualificationStatus(type, requirements, qualification, hitCount, now));
  }
  const eligible = candidates.filter((h) => h.qualificationRequirements.every((r) => metTypes.has(r.qualificationTypeId)));

  // The provider decides availability (slots, blocks, state), a chunk at a time until enough are found.
  const available: LocalHitSummary[] = [];
  let moreAvailable = false;
  if (!block) {
    const provider = getLocalCrowdProvider(db);
    for (let i = 0; i < eligible.length && available.length <= AVAILABLE_LIMIT; i += CHECK_CHUNK) {
      const chunk = eligible.slice(i, i + CHECK_CHUNK);
      const ok = new Set(await provider.listAvailableHits({ providerHitIds: chunk.map((h) => h.id), workerId }));
      available.push(...chunk.filter((h) => ok.has(h.id)));
    }
    moreAvailable = available.length > AVAILABLE_LIMIT;
    available.length = Math.min(available.length, AVAILABLE_LIMIT);
  }

  const recentRaw = mine.filter((a) => a.status === PROVIDER_ASSIGNMENT_STATUS.Submitted || a.status === PROVIDER_ASSIGNMENT_STATUS.Approved || a.status === PROVIDER_ASSIGNMENT_STATUS.Rejected).slice(0, 10);
  const missing = [...new Set([...inProgressRaw, ...recentRaw].map((a) => a.hitId).filter((id) => !openById.has(id)))];
  for (const id of missing) {
    const hit = await reader.getHit(id);
    if (hit) {
      const { questionXml: _omit, ...summary } = hit;
      void _omit;
      openById.set(id, summary);
    }
  }
  const withHit = (a: LocalAssignmentSummary) => ({ ...a, hit: openById.get(a.hitId) ?? null });

  const accordIds = [...openById.values()].map((h) => h.accordHitId);
  const rows = accordIds.length
    ? await db.hit.findMany({ where: { id: { in: accordIds } }, select: { id: true, event: { select: { name: true } } } })
    : [];
  const eventByAccord = new Map(rows.map((r) => [r.id, r.event.name]));
  const eventNames = new Map<string, string>();
  for (const h of openById.values()) {
    const name = eventByAccord.get(h.accordHitId);
    if (name) eventNames.set(h.id, name);
  }

  return {
    blocked: block ? { reason: block.reason } : null,
    inProgress: inProgressRaw.map(withHit),
    available,
    moreAvailable,
    qualifications,
    recent: recentRaw.map(withHit),
    eventNames,
  };
}

/** The qualification requirements on a type among the open HITs (for the test page's pass/fail). */
export async function openRequirementsFor(db: Db, typeId: string, now: Date = new Date()): Promise<{ requirements: QualificationRequirement[]; hitCount: number }> {
  const open = await listOpenLocalHits(db, now);
  return requirementsByType(open).get(typeId) ?? { requirements: [], hitCount: 0 };
}

export function formatDuration(seconds: number): string {
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  return m ? `${h} h ${m} min` : `${h} h`;
}

/**
 * A qualification type's name as an annotator reads it: without the database id Accord appends to keep provider
 * names unique ("Accord Floods (cmx52…)" → "Accord Floods").
 */
export function qualificationDisplayName(name: string): string {
  return name.replace(/\s*\((?:c[a-z0-9]{20,}|[0-9a-f-]{32,})\)\s*$/, "");
}

export function formatWhen(d: Date): string {
  return d.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";
}

/** The name of the event an Accord HIT belongs to, or null. */
export async function eventNameOfHit(db: Db, hitId: string): Promise<string | null> {
  return (await db.hit.findUnique({ where: { id: hitId }, select: { event: { select: { name: true } } } }))?.event.name ?? null;
}
