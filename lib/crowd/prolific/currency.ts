import "server-only";
import { z } from "zod";
import type { Db } from "@/lib/db/client";

/**
 * The currency of the Prolific workspace Accord's studies go to, recorded when the provider resolves the workspace
 * (lib/campaign/providers.ts) so pages can show a Prolific event's amounts without calling Prolific.
 */
const KEY = "prolific.workspaceCurrency";

/** Prolific's own currency: what a Prolific event shows before Accord has ever reached its workspace. */
export const PROLIFIC_FALLBACK_CURRENCY = "GBP";

const recordSchema = z.object({ workspaceId: z.string(), currency: z.string().regex(/^[A-Z]{3}$/, "an ISO 4217 code") });
export type ProlificCurrencyRecord = z.infer<typeof recordSchema>;

export async function getProlificCurrencyRecord(db: Db): Promise<ProlificCurrencyRecord | null> {
  const parsed = recordSchema.safeParse((await db.setting.findUnique({ where: { key: KEY } }))?.value);
  return parsed.success ? parsed.data : null;
}

/** The workspace's currency as last recorded, else Prolific's own (GBP). */
export async function getProlificCurrency(db: Db): Promise<string> {
  return (await getProlificCurrencyRecord(db))?.currency ?? PROLIFIC_FALLBACK_CURRENCY;
}

export async function saveProlificCurrency(db: Db, record: ProlificCurrencyRecord): Promise<void> {
  const value = recordSchema.parse({ ...record, currency: record.currency.toUpperCase() });
  await db.setting.upsert({ where: { key: KEY }, create: { key: KEY, value }, update: { value } });
}
