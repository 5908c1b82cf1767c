import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { createMturkProvider } from "@/lib/crowd/mturk/mturk-provider";
import type { CrowdProvider } from "@/lib/crowd/provider";
import { getCrowdCredentials, getCrowdSettings } from "@/lib/settings/crowd-settings";
import { getLocalCrowdProvider } from "./local-crowd-store";

/**
 * The crowd provider of an event: "mturk" (simulator, sandbox or production by the admin's settings) or
 * "local" (the in-house crowd). One instance per process and configuration; tests and `accord campaign
 * simulate` inject their own with setProviderOverride.
 */
type Cache = { key: string; provider: CrowdProvider } | null;
const g = globalThis as unknown as { __accordProvider?: Cache; __accordProviderOverride?: Partial<Record<string, CrowdProvider>> };

export function setProviderOverride(kind: "mturk" | "local", provider: CrowdProvider | null): void {
  g.__accordProviderOverride ??= {};
  if (provider) g.__accordProviderOverride[kind] = provider;
  else delete g.__accordProviderOverride[kind];
}

export function resetProviderCache(): void {
  g.__accordProvider = null;
}

export async function getProvider(db: Db, kind: string): Promise<CrowdProvider> {
  const override = g.__accordProviderOverride?.[kind];
  if (override) return override;
  if (kind === "local") return getLocalCrowdProvider(db);
  if (kind !== "mturk") throw new UserError(`Unknown crowd provider "${kind}".`);
  const settings = await getCrowdSettings(db);
  const credentials = (await getCrowdCredentials(db)) ?? (settings.mode === "simulator" ? { accessKeyId: "accord-simulator", secretAccessKey: "accord-simulator" } : null);
  if (!credentials) {
    throw new UserError(`MTurk ${settings.mode} needs requester credentials: an admin can enter them in Settings (or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY on the server).`, "no_credentials");
  }
  const key = JSON.stringify([settings.mode, settings.simulatorUrl, credentials.accessKeyId, settings.credentialsSource]);
  if (g.__accordProvider?.key === key) return g.__accordProvider.provider;
  const provider = createMturkProvider({ mode: settings.mode, simulatorUrl: settings.simulatorUrl, credentials });
  g.__accordProvider = { key, provider };
  return provider;
}
