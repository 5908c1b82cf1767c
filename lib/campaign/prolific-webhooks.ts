import "server-only";
import type { ProlificClient } from "@/lib/crowd/prolific/api-client";
import { PROLIFIC_SCOPES } from "@/lib/crowd/prolific/provider-store";
import { receiveProlificWebhook, type WebhookDelivery, type WebhookOutcome } from "@/lib/crowd/prolific/webhook-receiver";
import type { Db } from "@/lib/db/client";
import { ACTIVE_HIT_STATUSES } from "@/lib/db/enums";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { getProlificWebhookSecret } from "@/lib/settings/prolific-settings";

/** LocalCrowdRecord scope of handled deliveries: key = X-Event-ID (the primary key makes a replay fail to insert). */
export const WEBHOOK_EVENT_SCOPE = "prolific-webhook-event";
/** Handled X-Event-IDs are kept this long: Prolific retries a delivery for about a day ([?] 24 h docs, 48 h Potato). */
export const WEBHOOK_EVENT_KEEP_MS = 7 * 24 * 3600 * 1000;
const HANDLED_EVENTS = new Set(["submission.status.change", "study.status.change"]);
const HIT_PREFIX = "accord:";

/**
 * What a delivery means to Accord: a submission or study status change of one of its HITs' studies makes that HIT
 * due for sync now (its lastSyncedAt cleared: the sync loop claims never-synced HITs first), so the decision does
 * not wait for the poll. The X-Event-ID is recorded in the same transaction, so a replay acts once; anything else
 * (other event types, studies Accord does not know, screening studies) is acknowledged and ignored.
 */
export function prolificWebhookHandler(db: Db, options: { client?: () => Promise<ProlificClient | null> } = {}) {
  return async (d: WebhookDelivery): Promise<WebhookOutcome> => {
    if (!HANDLED_EVENTS.has(d.eventType)) return "ignored";
    const hitId = d.eventType === "study.status.change" ? await hitOfStudy(db, d.resourceId, options.client) : await hitOfSubmission(db, d.resourceId, options.client);
    if (!hitId) return "ignored";
    const data = { eventType: d.eventType, resourceId: d.resourceId, status: d.status, receivedAt: new Date().toISOString() };
    try {
      await db.$transaction([
        db.localCrowdRecord.create({ data: { scope: WEBHOOK_EVENT_SCOPE, key: d.eventId, parent: hitId, data } }),
        db.hit.updateMany({ where: { id: hitId, status: { in: ACTIVE_HIT_STATUSES } }, data: { lastSyncedAt: null } }),
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

/** The HIT of a study: by the study id Accord stored at publish, else (a publish that died before storing it) by Prolific's internal_name. */
async function hitOfStudy(db: Db, studyId: string, client?: () => Promise<ProlificClient | null>): Promise<string | null> {
  const hit = await db.hit.findUnique({ where: { providerHitId: studyId }, select: { id: true } });
  if (hit) return hit.id;
  const api = await client?.();
  if (!api) return null;
  const study = await api.getStudy(studyId).catch(() => null);
  const name = study?.internal_name ?? "";
  if (!name.startsWith(HIT_PREFIX)) return null;
  return (await db.hit.findUnique({ where: { id: name.slice(HIT_PREFIX.length) }, select: { id: true } }))?.id ?? null;
}

/**
 * The HIT of a submission (Prolific's event carries no study id): an assignment Accord already ingested, the answers
 * its page stored, else the submission read from Prolific (a participant who returned or timed out before answering).
 */
async function hitOfSubmission(db: Db, submissionId: string, client?: () => Promise<ProlificClient | null>): Promise<string | null> {
  const assignment = await db.assignment.findUnique({ where: { providerAssignmentId: submissionId }, select: { hitId: true } });
  if (assignment) return assignment.hitId;
  const answer = await db.localCrowdRecord.findUnique({ where: { scope_key: { scope: PROLIFIC_SCOPES.answer, key: submissionId } }, select: { data: true } });
  const data: unknown = typeof answer?.data === "string" ? JSON.parse(answer.data) : answer?.data;
  const answered = typeof data === "object" && data !== null ? (data as { hitId?: unknown }).hitId : undefined;
  if (typeof answered === "string") return answered;
  const api = await client?.();
  if (!api) return null;
  const submission = await api.getSubmission(submissionId).catch(() => null);
  return submission?.study_id ? hitOfStudy(db, submission.study_id) : null;
}
