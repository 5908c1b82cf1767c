import "server-only";
import { writeAudit } from "@/lib/audit/write-audit";
import { buildQualificationTest, passingScoreRequirement } from "@/lib/crowd/mturk/qualification-xml";
import type { CrowdProvider, QualificationRequirement } from "@/lib/crowd/provider";
import type { Db, Prisma } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { qualificationPassPercent } from "@/lib/procedure/settings";
import { createRng, shuffled } from "@/lib/util/random";
import { loadEventContext } from "./context";
import { QUALIFICATION_STATUS, TWEET_ROLE } from "@/lib/db/enums";

/** Optional requirements besides the qualification test (MTurk system qualifications). */
export type ExtraRequirements = {
  /** Worker_Locale country codes (ISO 3166-1 alpha-2), e.g. ["US", "GB"]. */
  locales?: string[];
  /** Worker_PercentAssignmentsApproved ≥ this. */
  minApprovalPercent?: number;
  /** Worker_NumberHITsApproved ≥ this. */
  minApprovedHits?: number;
};

export const SYSTEM_QUALS = {
  numberHitsApproved: "00000000000000000040",
  percentApproved: "000000000000000000L0",
  locale: "00000000000000000071",
} as const;

export function extraRequirementsToMturk(extra: ExtraRequirements | null | undefined, sandbox = false): QualificationRequirement[] {
  const reqs: QualificationRequirement[] = [];
  if (!extra) return reqs;
  // Sandbox workers have no approval history: approval requirements would lock every tester out there.
  if (extra.locales?.length) {
    reqs.push({
      qualificationTypeId: SYSTEM_QUALS.locale,
      comparator: extra.locales.length === 1 ? "EqualTo" : "In",
      localeValues: extra.locales.map((country) => ({ country })),
      actionsGuarded: "Accept",
    });
  }
  if (!sandbox && extra.minApprovalPercent !== undefined) {
    reqs.push({ qualificationTypeId: SYSTEM_QUALS.percentApproved, comparator: "GreaterThanOrEqualTo", integerValues: [extra.minApprovalPercent], actionsGuarded: "Accept" });
  }
  if (!sandbox && extra.minApprovedHits !== undefined) {
    reqs.push({ qualificationTypeId: SYSTEM_QUALS.numberHitsApproved, comparator: "GreaterThanOrEqualTo", integerValues: [extra.minApprovedHits], actionsGuarded: "Accept" });
  }
  return reqs;
}

/**
 * Creates the event's qualification test: picks the gold tweets (or takes the researcher's choice), builds the
 * QuestionForm + AnswerKey, creates the qualification type on the provider and stores its id. HITs then require
 * a score ≥ the pass percent (60 = 6 of 10). With `reuseTestId`, the event reuses another event's test of the
 * same label scheme instead (no new type on the provider).
 */
export async function createQualificationTest({
  db,
  provider,
  eventId,
  goldTweetIds,
  requirements,
  reuseTestId,
  actorId,
  seed = Date.now(),
}: {
  db: Db;
  provider: CrowdProvider;
  eventId: string;
  goldTweetIds?: string[];
  requirements?: ExtraRequirements;
  reuseTestId?: string;
  actorId?: string | null;
  seed?: number;
}) {
  const { event, settings, labels } = await loadEventContext(db, eventId);
  const passPercent = qualificationPassPercent(settings);

  if (reuseTestId) {
    const source = await db.qualificationTest.findUnique({ where: { id: reuseTestId } });
    if (!source || source.status !== QUALIFICATION_STATUS.active || !source.providerQualTypeId) throw new UserError("That qualification test cannot be reused (it is not active).");
    if (source.schemeId !== event.schemeId) throw new UserError("A qualification test can only be reused by events with the same label scheme.");
    if (source.provider !== event.provider) throw new UserError("That qualification test belongs to another crowd provider.");
    const test = await db.qualificationTest.create({
      data: {
        eventId,
        schemeId: event.schemeId,
        name: source.name,
        provider: source.provider,
        providerQualTypeId: source.providerQualTypeId,
        goldTweetIds: source.goldTweetIds as Prisma.InputJsonValue,
        questionFormXml: source.questionFormXml,
        answerKeyXml: source.answerKeyXml,
        passPercent: source.passPercent,
        requirements: (requirements ?? source.requirements ?? undefined) as Prisma.InputJsonValue | undefined,
        status: QUALIFICATION_STATUS.active,
      },
    });
    await writeAudit(db, { actorType: actorId ? "user" : "system", actorId, eventId, entityType: "qualification", entityId: test.id, action: "reuse-qualification", details: { from: reuseTestId } });
    return test;
  }

  const n = settings.qualification.questions;
  const pool = await qualificationGoldPool(db, eventId);
  let chosen: typeof pool;
  if (goldTweetIds?.length) {
    const byId = new Map(pool.map((t) => [t.id, t]));
    chosen = goldTweetIds.map((id) => {
      const t = byId.get(id);
      if (!t) throw new UserError("A chosen tweet is not an active gold tweet of this event.", "invalid_gold");
      return t;
    });
    if (chosen.length !== n) throw new UserError(`Choose exactly ${n} gold tweets for the qualification test (you chose ${chosen.length}).`);
  } else {
    if (pool.length < n) throw new UserError(`The qualification test needs ${n} gold tweets; this event has ${pool.length}. Upload more gold first.`, "not_enough_gold");
    chosen = pickQualificationGold(pool, n, seed);
  }

  const xml = buildQualificationTest({
    gold: chosen.map((t) => ({ tweetId: t.externalId, text: t.text, label: t.goldLabel as string })),
    labels,
    instructions: `Read each tweet and choose the one category that best describes it. You need at least ${settings.qualification.passCorrect} of ${n} correct answers to work on these HITs.`,
  });
  const test = await db.qualificationTest.create({
    data: {
      eventId,
      schemeId: event.schemeId,
      name: `Accord · ${event.name}`.slice(0, 100),
      provider: event.provider,
      goldTweetIds: chosen.map((t) => t.id),
      questionFormXml: xml.questionFormXml,
      answerKeyXml: xml.answerKeyXml,
      passPercent,
      requirements: (requirements ?? undefined) as Prisma.InputJsonValue | undefined,
      status: QUALIFICATION_STATUS.draft,
    },
  });
  try {
    const { qualificationTypeId } = await provider.createQualificationType({
      // Unique per requester account: the Accord id makes a retry after a failure distinct from other tests.
      name: `Accord ${event.name} (${test.id})`.slice(0, 200),
      description: `Qualification test for categorising tweets of ${event.name}: ${n} tweets, pass with ${settings.qualification.passCorrect} correct.`,
      keywords: "tweets, disaster, categorisation",
      testXml: xml.questionFormXml,
      answerKeyXml: xml.answerKeyXml,
      testDurationSeconds: 20 * 60,
      retryDelaySeconds: 24 * 3600,
    });
    await db.qualificationTest.updateMany({ where: { eventId, status: QUALIFICATION_STATUS.active }, data: { status: QUALIFICATION_STATUS.replaced } });
    const active = await db.qualificationTest.update({ where: { id: test.id }, data: { providerQualTypeId: qualificationTypeId, status: QUALIFICATION_STATUS.active } });
    await writeAudit(db, {
      actorType: actorId ? "user" : "system",
      actorId,
      eventId,
      entityType: "qualification",
      entityId: test.id,
      action: "create-qualification",
      details: { qualificationTypeId, questions: n, passPercent },
    });
    return active;
  } catch (err) {
    await db.qualificationTest.update({ where: { id: test.id }, data: { status: QUALIFICATION_STATUS.failed, message: err instanceof Error ? err.message : String(err) } });
    throw err;
  }
}

type GoldCandidate = { id: string; externalId: string; text: string; goldLabel: string | null };

/** The active gold tweets a qualification test may use. */
async function qualificationGoldPool(db: Db, eventId: string): Promise<GoldCandidate[]> {
  return db.tweet.findMany({
    where: { eventId, role: TWEET_ROLE.gold, retiredAt: null, goldLabel: { not: null } },
    select: { id: true, externalId: true, text: true, goldLabel: true },
    orderBy: { createdAt: "asc" },
  });
}

/** `n` gold tweets spread over the labels: a seeded shuffle, then round-robin over labels so the test is not one-sided. */
function pickQualificationGold<T extends GoldCandidate>(pool: T[], n: number, seed: number): T[] {
  const byLabel = new Map<string, T[]>();
  for (const t of shuffled(pool, createRng(seed))) (byLabel.get(t.goldLabel as string) ?? byLabel.set(t.goldLabel as string, []).get(t.goldLabel as string)!).push(t);
  const chosen: T[] = [];
  const queues = [...byLabel.values()];
  for (let i = 0; chosen.length < n && queues.some((q) => q.length); i++) {
    const q = queues[i % queues.length];
    if (q.length) chosen.push(q.shift()!);
  }
  return chosen;
}

/** The test the builder would create now (same pick, a seed fixed per event and pool size), shown before it is created. */
export async function previewQualificationGold(db: Db, eventId: string, n: number): Promise<GoldCandidate[]> {
  const pool = await qualificationGoldPool(db, eventId);
  if (pool.length < n) return [];
  let seed = pool.length;
  for (const c of eventId) seed = (seed * 31 + c.charCodeAt(0)) >>> 0;
  return pickQualificationGold(pool, n, seed);
}

/** The HIT requirements of an event: its active qualification test's score (≥ pass percent) plus extras. */
export async function hitRequirementsFor(db: Db, eventId: string, sandbox = false): Promise<QualificationRequirement[] | null> {
  const test = await db.qualificationTest.findFirst({ where: { eventId, status: QUALIFICATION_STATUS.active }, orderBy: { createdAt: "desc" } });
  if (!test?.providerQualTypeId) return null;
  return [
    passingScoreRequirement({ qualificationTypeId: test.providerQualTypeId, minPercent: test.passPercent }),
    ...extraRequirementsToMturk(test.requirements as ExtraRequirements | null, sandbox),
  ];
}
