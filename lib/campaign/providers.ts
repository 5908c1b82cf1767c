import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { createMturkProvider } from "@/lib/crowd/mturk/mturk-provider";
import { createProlificProvider } from "@/lib/crowd/prolific/create-provider";
import type { ProlificProvider } from "@/lib/crowd/prolific/prolific-provider";
import { PROVIDER_KIND } from "@/lib/db/enums";
import type { CrowdProvider } from "@/lib/crowd/provider";
import { getCrowdCredentials, getCrowdSettings } from "@/lib/crowd/mturk/settings";
import { getProlificSettings, getProlificToken, participantBaseUrl, prolificApiUrl } from "@/lib/crowd/prolific/settings";
import type { ProlificClient } from "@/lib/crowd/prolific/api-client";
import { recordProlificCurrency } from "./prolific-currency";
import { env } from "@/lib/config/env";
import { getLocalCrowdProvider } from "./local-crowd-store";
import { crowdBreaker } from "./sync/crowd-breakers";
import { dbProlificStore } from "./prolific-store";
import { prolificWebhookSetup } from "./prolific-webhook-setup";

/**
 * The crowd provider of an event: "mturk" (simulator, sandbox or production by the admin's settings), "prolific"
 * (its simulator or production, lib/crowd/prolific/settings.ts) or "local" (the in-house crowd). The MTurk client is kept while the settings it was made from (mode, endpoint, credentials,
 * compared by a hash of the secret) stay the same, so a settings change takes effect at the next call in every
 * module instance without a reset. Simulations and tests hand their own provider to the publish job instead.
 */
let cached: { key: string; provider: CrowdProvider } | null = null;
let cachedProlific: { key: string; provider: Promise<ProlificProvider> } | null = null;

export async function getProvider(db: Db, kind: string): Promise<CrowdProvider> {
  if (kind === PROVIDER_KIND.local) return getLocalCrowdProvider(db);
  if (kind === PROVIDER_KIND.prolific) return getProlificProvider(db);
  if (kind !== PROVIDER_KIND.mturk) throw new UserError(`Unknown crowd provider "${kind}".`);
  const settings = await getCrowdSettings(db);
  const credentials = (await getCrowdCredentials(db)) ?? (settings.mode === "simulator" ? { accessKeyId: "accord-simulator", secretAccessKey: "accord-simulator" } : null);
  if (!credentials) {
    throw new UserError(`MTurk ${settings.mode} needs requester credentials: an admin can enter them in Settings (or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY on the server).`, "no_credentials");
  }
  const secretHash = createHash("sha256").update(credentials.secretAccessKey).digest("hex");
  const key = JSON.stringify([settings.mode, settings.simulatorUrl, credentials.accessKeyId, secretHash]);
  if (cached?.key === key) return cached.provider;
  const breaker = crowdBreaker(PROVIDER_KIND.mturk);
  const provider = createMturkProvider({ mode: settings.mode, simulatorUrl: settings.simulatorUrl, credentials, callTimeoutMs: env().ACCORD_CROWD_CALL_TIMEOUT_MS, degraded: () => breaker.isOpen });
  cached = { key, provider };
  return provider;
}

/** Prolific's provider, kept while its settings (compared by a hash of the token) stay the same. */
export async function getProlificProvider(db: Db): Promise<ProlificProvider> {
  const settings = await getProlificSettings(db);
  const token = await getProlificToken(db, settings.mode);
  if (!token) throw new UserError("Prolific needs an API token: an admin can enter it in Settings.", "no_credentials");
  const apiUrl = prolificApiUrl(settings);
  const key = JSON.stringify([settings, apiUrl, createHash("sha256").update(token).digest("hex")]);
  if (cachedProlific?.key === key) return cachedProlific.provider;
  const publicUrl = participantBaseUrl();
  const webhooks = prolificWebhookSetup(db, { mode: settings.mode, publicUrl });
  const onWorkspace = async (client: ProlificClient, workspaceId: string) => {
    await recordProlificCurrency(db, client, workspaceId);
    await webhooks(client, workspaceId);
  };
  const provider = createProlificProvider({ mode: settings.mode, token, apiUrl, workspaceId: settings.workspaceId, projectId: settings.projectId, publicUrl, store: dbProlificStore(db), testMode: settings.testMode, onWorkspace });
  cachedProlific = { key, provider };
  // A failed set-up (Prolific unreachable) is tried again at the next call.
  provider.catch(() => {
    if (cachedProlific?.key === key) cachedProlific = null;
  });
  return provider;
}
