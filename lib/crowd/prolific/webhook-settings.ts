import "server-only";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { openSecret, sealSecret } from "@/lib/secrets/secret-box";

// Prolific's webhooks in the settings table: the workspace's signing secret (sealed like the API token, never sent to
// a browser) and the record of Accord's subscriptions.

const KEYS = { webhookSecret: "prolific.webhookSecret", webhook: "prolific.webhook" } as const;

/** The secret's upsert, for a transaction of the settings form or on its own. */
export function webhookSecretUpsert(db: Db, secretValue: string, workspaceId: string) {
  const secret = sealSecret(secretValue);
  const value = { workspaceId };
  return db.setting.upsert({ where: { key: KEYS.webhookSecret }, create: { key: KEYS.webhookSecret, secret, value }, update: { secret, value } });
}

/** Server-side only: the webhook signing secret Prolific signs deliveries with, and the workspace it belongs to. */
export async function getProlificWebhookSecret(db: Db): Promise<{ secret: string; workspaceId: string } | null> {
  const row = await db.setting.findUnique({ where: { key: KEYS.webhookSecret } });
  if (!row?.secret) return null;
  const workspaceId = z.object({ workspaceId: z.string() }).safeParse(row.value);
  try {
    return { secret: openSecret(row.secret), workspaceId: workspaceId.success ? workspaceId.data.workspaceId : "" };
  } catch {
    throw new UserError("The stored Prolific webhook secret cannot be decrypted (was ACCORD_SECRET changed?). Enter it again in Settings.");
  }
}

/** Whether a webhook secret is stored (for the settings page: never the secret itself). */
export async function hasProlificWebhookSecret(db: Db): Promise<boolean> {
  return Boolean((await db.setting.findUnique({ where: { key: KEYS.webhookSecret }, select: { secret: true } }))?.secret);
}

/** Stores the webhook signing secret sealed like the token (Accord created or adopted it for this workspace). */
export async function saveProlificWebhookSecret(db: Db, input: { secret: string; workspaceId: string }): Promise<void> {
  await webhookSecretUpsert(db, input.secret, input.workspaceId);
}

/** Accord's webhook subscriptions on Prolific, as recorded after they were set up (shown on the settings page). */
export const prolificWebhookRecordSchema = z.object({
  workspaceId: z.string(),
  targetUrl: z.string(),
  /** event type → subscription id */
  subscriptions: z.record(z.string(), z.string()),
  at: z.string(),
});
export type ProlificWebhookRecord = z.infer<typeof prolificWebhookRecordSchema>;

export async function getProlificWebhookRecord(db: Db): Promise<ProlificWebhookRecord | null> {
  const row = await db.setting.findUnique({ where: { key: KEYS.webhook } });
  const parsed = prolificWebhookRecordSchema.safeParse(row?.value);
  return parsed.success ? parsed.data : null;
}

export async function saveProlificWebhookRecord(db: Db, record: ProlificWebhookRecord): Promise<void> {
  const value = prolificWebhookRecordSchema.parse(record);
  await db.setting.upsert({ where: { key: KEYS.webhook }, create: { key: KEYS.webhook, value }, update: { value } });
}
