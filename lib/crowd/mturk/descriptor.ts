import "server-only";
import { createHash } from "node:crypto";
import { env } from "@/lib/config/env";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { UserError } from "@/lib/errors";
import { DEFAULT_CURRENCY } from "@/lib/text/format";
import type { CrowdDescriptor } from "../descriptor";
import type { CrowdProvider } from "../provider";
import type { MturkMode } from "./client";
import { MTURK_FEES } from "./fees";
import { externalSubmitUrl } from "./hit-question";
import { createMturkProvider } from "./mturk-provider";
import { mturkPolicy } from "./policy";
import { getCrowdCredentials, getCrowdSettings } from "./settings";
import { providerSettingsFormSchema } from "./settings-form";

/** The client is kept while the settings it was made from (mode, endpoint, credentials by a hash of the secret) stay the same. */
let cached: { key: string; provider: CrowdProvider } | null = null;

/** Amazon Mechanical Turk: its simulator (default), sandbox or production, by the admin's settings. */
export const mturkCrowd: CrowdDescriptor = {
  kind: PROVIDER_KIND.mturk,
  name: "MTurk",
  shortName: "MTurk",
  choice: "MTurk (simulator / sandbox / production)",
  modes: [
    { mode: "simulator", simulated: true, realMoney: false },
    { mode: "sandbox", simulated: false, realMoney: false },
    { mode: "production", simulated: false, realMoney: true },
  ],
  mode: async (db) => (await getCrowdSettings(db)).mode,
  testMode: async () => false,
  currency: async () => DEFAULT_CURRENCY,
  fees: (learned) => learned ?? MTURK_FEES,
  confirmsProduction: true,
  qualification: { required: true, grading: "MTurk grades it with the answer key; HITs require the score.", recordsTakers: false },
  submitsTo: "crowd",
  submitUrl: async (db, provider) => externalSubmitUrl(provider.mode as MturkMode, (await getCrowdSettings(db)).simulatorUrl),
  workersAreUsers: false,
  settings: { page: "/settings", form: "provider-form", schema: providerSettingsFormSchema },
  policy: mturkPolicy,
  simulator: { command: "accord simulator", loadStarter: async () => (await import("../simulator/server")).startSimulator },
  demo: null,
  async connect(db, { degraded, onDown }) {
    const settings = await getCrowdSettings(db);
    const credentials = (await getCrowdCredentials(db)) ?? (settings.mode === "simulator" ? { accessKeyId: "accord-simulator", secretAccessKey: "accord-simulator" } : null);
    if (!credentials) {
      throw new UserError(`MTurk ${settings.mode} needs requester credentials: an admin can enter them in Settings (or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY on the server).`, "no_credentials");
    }
    const secretHash = createHash("sha256").update(credentials.secretAccessKey).digest("hex");
    const key = JSON.stringify([settings.mode, settings.simulatorUrl, credentials.accessKeyId, secretHash]);
    if (cached?.key === key) return cached.provider;
    const provider = createMturkProvider({ mode: settings.mode, simulatorUrl: settings.simulatorUrl, credentials, callTimeoutMs: env().ACCORD_CROWD_CALL_TIMEOUT_MS, degraded, onDown });
    cached = { key, provider };
    return provider;
  },
};
