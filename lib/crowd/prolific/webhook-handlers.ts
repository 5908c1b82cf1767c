import "server-only";
import type { ProlificClient } from "@/lib/crowd/prolific/api-client";
import { PROLIFIC_SCOPES } from "@/lib/crowd/prolific/provider-store";
import { batchKeyOf } from "@/lib/crowd/prolific/provider/context";
import { receiveProlificWebhook, type WebhookDelivery, type WebhookOutcome } from "@/lib/crowd/prolific/webhook-receiver";
import type { Db } from "@/lib/db/client";
import { ACTIVE_HIT_STATUSES } from "@/lib/db/enums";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { getProlificWebhookSecret } from "@/lib/crowd/prolific/webhook-settings";

/** LocalCrowdRecord scope of handled deliveries: key = X-Event-ID (the primary key makes a replay fail to insert). */
export const WEBHOOK_EVENT_SCOPE = "prolific-webhook-event";
/** Handled X-Event-IDs are kept this long: Prolific retries a delivery for about a day ([?] 24 h docs, 48 h Potato). */
export const WEBHOOK_EVENT_KEEP_MS = 7 * 24 * 3600 * 1000;
const HANDLED_EVENTS = new Set(["submission.status.change", "study.status.change"]);

/**
 * What a delivery means to Accord: a submission status change makes the HIT the session was given due for sync now
 * (its lastSyncedAt cleared: the sync loop claims never-synced HITs first), a study status change every HIT of that
 * batch study, so the decision does not wait for the poll. The X-Event-ID is recorded in the same transaction, so a replay acts once; anything else
 * (other event types, studies Accord does not know, screening studies) is acknowledged and ignored.
 */
export function prolificWebhookHandler(db: Db, options: { client?: () => Promise<ProlificClient | null> } = {}) {
  return async (d: WebhookDelivery): Promise<WebhookOutcome> => {
    if (!HANDLED_EVENTS.has(d.eventType)) return "ignored";
    const hitIds = d.eventType === "study.status.change" ? await hitsOfStudy(db, d.resourceId, options.client) : await hitOfSubmission(db, d.resourceId, options.client);
    if (hitIds.length === 0) return "ignored";
    const data = { eventType: d.eventType, resourceId: d.resourceId, status: d.status, receivedAt: new Date().toISOString() };
    try {
      await db.$transaction([
        db.localCrowdRecord.create({ data: { scope: WEBHOOK_EVENT_SCOPE, key: d.eventId, parent: hitIds[0], data } }),
        db.hit.updateMany({ where: { id: { in: hitIds }, status: { in: ACTIVE_HIT_STATUSES } }, data: { lastSyncedAt: null } }),
      ]);
    } catch (err) {
      if (isUniqueViolation(err)) return "duplicate";
      throw err;
    }
    await db.localCrowdRecord.deleteMany({ where: { scope: WEBHOOK_EVENT_SCOPE, createdAt: { lt: new Date(Date.now() - WEBHOOK_EVENT_KEEP_MS) } } });
    return "acted";
  };
}

/**
 * The route handler of app/api/prolific/webhook (public: the signature with the workspace secret is the credential).
 * `client` reads a study or submission from Prolific when Accord's records do not name its HIT.
 */
export function prolificWebhookHandlers(deps: { db: () => Db; client?: () => Promise<ProlificClient | null>; nowSeconds?: () => number }) {
  return {
    async POST(request: Request): Promise<Response> {
      const db = deps.db();
      return receiveProlificWebhook(request, {
        secret: async () => (await getProlificWebhookSecret(db))?.secret ?? null,
        handle: prolificWebhookHandler(db, { client: deps.client }),
        nowSeconds: deps.nowSeconds,
      });
    },
  };
}

/** The HITs of a batch study: by the ids Accord stored at publish (`<study id>:<hit id>`), else (a publish that died before storing them) by Prolific's internal_name. */
async function hitsOfStudy(db: Db, studyId: string, client?: () => Promise<ProlificClient | null>): Promise<string[]> {
  const stored = await db.hit.findMany({ where: { providerHitId: { startsWith: `${studyId}:` } }, select: { id: true } });
  if (stored.length > 0) return stored.map((h) => h.id);
  const api = await client?.();
  if (!api) return [];
  const study = await api.getStudy(studyId).catch(() => null);
  const batchId = study ? batchKeyOf(study) : null;
  if (!batchId) return [];
  return (await db.hit.findMany({ where: { batchId }, select: { id: true } })).map((h) => h.id);
}

/**
 * The HIT of a submission (Prolific's event carries no study id): an assignment Accord already ingested, else the
 * HIT Accord's page gave the session (a participant who returned or timed out before answering has one too). A
 * session that never opened Accord's page belongs to no HIT.
 */
async function hitOfSubmission(db: Db, submissionId: string, client?: () => Promise<ProlificClient | null>): Promise<string[]> {
  const assignment = await db.assignment.findUnique({ where: { providerAssignmentId: submissionId }, select: { hitId: true } });
  if (assignment) return [assignment.hitId];
  const session = await db.localCrowdRecord.findUnique({ where: { scope_key: { scope: PROLIFIC_SCOPES.session, key: submissionId } }, select: { data: true } });
  const data: unknown = typeof session?.data === "string" ? JSON.parse(session.data) : session?.data;
  const given = typeof data === "object" && data !== null ? (data as { hitId?: unknown }).hitId : undefined;
  if (typeof given === "string") return [given];
  // Not given a HIT (yet): a study-level change still matters when the study itself is Accord's.
  const api = await client?.();
  if (!api) return [];
  const submission = await api.getSubmission(submissionId).catch(() => null);
  return submission?.study_id ? hitsOfStudy(db, submission.study_id) : [];
}
