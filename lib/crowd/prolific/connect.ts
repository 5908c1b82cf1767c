import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import type { ProlificClient } from "./api-client";
import { createProlificProvider } from "./create-provider";
import { dbProlificStore } from "./db-store";
import type { ProlificProvider } from "./prolific-provider";
import { recordProlificCurrency } from "./record-currency";
import { getProlificSettings, getProlificToken, participantBaseUrl, prolificApiUrl } from "./settings";
import { prolificWebhookSetup } from "./webhook-setup";

let cached: { key: string; provider: Promise<ProlificProvider> } | null = null;

/**
 * Prolific's provider for the settings of now (its simulator or production, ./settings.ts), kept while they stay
 * the same (compared by a hash of the token). Resolving the workspace records its currency and sets up the webhooks.
 */
export async function connectProlific(db: Db): Promise<ProlificProvider> {
  const settings = await getProlificSettings(db);
  const token = await getProlificToken(db, settings.mode);
  if (!token) throw new UserError("Prolific needs an API token: an admin can enter it in Settings.", "no_credentials");
  const apiUrl = prolificApiUrl(settings);
  const key = JSON.stringify([settings, apiUrl, createHash("sha256").update(token).digest("hex")]);
  if (cached?.key === key) return cached.provider;
  const publicUrl = participantBaseUrl();
  const webhooks = prolificWebhookSetup(db, { mode: settings.mode, publicUrl });
  const onWorkspace = async (client: ProlificClient, workspaceId: string) => {
    await recordProlificCurrency(db, client, workspaceId);
    await webhooks(client, workspaceId);
  };
  const provider = createProlificProvider({ mode: settings.mode, token, apiUrl, workspaceId: settings.workspaceId, projectId: settings.projectId, publicUrl, store: dbProlificStore(db), testMode: settings.testMode, onWorkspace });
  cached = { key, provider };
  // A failed set-up (Prolific unreachable) is tried again at the next call.
  provider.catch(() => {
    if (cached?.key === key) cached = null;
  });
  return provider;
}
