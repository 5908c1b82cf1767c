import "server-only";
import { z } from "zod";
import { writeAudit } from "@/lib/audit/write-audit";
import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { openSecret, sealSecret } from "@/lib/secrets/secret-box";
import { MTURK_MODES, type MturkModeSetting, type ProviderSettingsForm } from "./settings-form";

/**
 * The crowd provider's settings: MTurk mode (the local simulator by default, sandbox or production), the
 * requester credentials (encrypted in the database, or from the server's environment; never sent to a
 * browser), the budget cap and the defaults of the publish form. Environment variables win over stored
 * values: ACCORD_MTURK_MODE, ACCORD_SIMULATOR_URL, AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, ACCORD_BUDGET_CAP_CENTS.
 */

export const publishDefaultsSchema = z.object({
  rewardCents: z.number().int().min(1).max(10_000).default(50),
  lifetimeSeconds: z.number().int().min(60).max(31_536_000).default(3 * 24 * 3600),
  durationSeconds: z.number().int().min(60).max(24 * 3600).default(3600),
  autoApprovalSeconds: z.number().int().min(3600).max(2_592_000).default(3 * 24 * 3600),
  title: z.string().min(1).max(128).default("Categorise disaster tweets"),
  description: z.string().min(1).max(2000).default("Read tweets posted during a disaster and choose the humanitarian category of each."),
  keywords: z.string().max(999).default("tweets, disaster, categorisation, crisis"),
});
export type PublishDefaults = z.infer<typeof publishDefaultsSchema>;

export type CrowdSettings = {
  mode: MturkModeSetting;
  simulatorUrl: string;
  /** Whether credentials are configured (never the values themselves). */
  hasCredentials: boolean;
  credentialsSource: "environment" | "settings" | "none";
  budgetCapCents: number | null;
  /** Production publishing needs an explicit switch in addition to the mode. */
  productionConfirmed: boolean;
  defaults: PublishDefaults;
};

const KEYS = {
  mode: "crowd.mode",
  simulatorUrl: "crowd.simulatorUrl",
  credentials: "crowd.credentials",
  budget: "crowd.budgetCapCents",
  production: "crowd.productionConfirmed",
  defaults: "crowd.defaults",
} as const;

async function readValues(db: Db) {
  const rows = await db.setting.findMany({ where: { key: { in: Object.values(KEYS) } } });
  return new Map(rows.map((r) => [r.key, r]));
}

export function defaultSimulatorUrl(): string {
  const config = env();
  return config.ACCORD_SIMULATOR_URL ?? `http://127.0.0.1:${config.ACCORD_SIMULATOR_PORT}`;
}

export async function getCrowdSettings(db: Db): Promise<CrowdSettings> {
  const values = await readValues(db);
  const config = env();
  const stored = z.enum(MTURK_MODES).safeParse(values.get(KEYS.mode)?.value);
  const mode = config.ACCORD_MTURK_MODE ?? (stored.success ? stored.data : "simulator");
  const envCreds = environmentCredentials() !== null;
  const storedCreds = Boolean(values.get(KEYS.credentials)?.secret);
  const budgetStored = values.get(KEYS.budget)?.value;
  const parsedDefaults = publishDefaultsSchema.safeParse(values.get(KEYS.defaults)?.value ?? {});
  return {
    mode,
    simulatorUrl: (values.get(KEYS.simulatorUrl)?.value as string | undefined) ?? defaultSimulatorUrl(),
    hasCredentials: envCreds || storedCreds,
    credentialsSource: envCreds ? "environment" : storedCreds ? "settings" : "none",
    budgetCapCents: config.ACCORD_BUDGET_CAP_CENTS ?? (typeof budgetStored === "number" ? budgetStored : null),
    productionConfirmed: values.get(KEYS.production)?.value === true,
    defaults: parsedDefaults.success ? parsedDefaults.data : publishDefaultsSchema.parse({}),
  };
}

type Credentials = { accessKeyId: string; secretAccessKey: string };

function environmentCredentials(): Credentials | null {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env();
  return accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null;
}

/** Server-side only: the credentials for the SDK client. The simulator accepts any. */
export async function getCrowdCredentials(db: Db): Promise<Credentials | null> {
  const fromEnv = environmentCredentials();
  if (fromEnv) return fromEnv;
  const row = await db.setting.findUnique({ where: { key: KEYS.credentials } });
  if (!row?.secret) return null;
  try {
    return JSON.parse(openSecret(row.secret)) as Credentials;
  } catch {
    throw new UserError("The stored MTurk credentials cannot be decrypted (was ACCORD_SECRET changed?). Enter them again in Settings.");
  }
}

export const saveCrowdSettingsSchema = z.object({
  mode: z.enum(MTURK_MODES),
  accessKeyId: z.string().trim().max(128).optional(),
  secretAccessKey: z.string().trim().max(256).optional(),
  budgetCapCents: z.number().int().min(0).nullable().optional(),
  productionConfirmed: z.boolean().optional(),
  defaults: publishDefaultsSchema.partial().optional(),
  simulatorUrl: z.url().optional(),
});
export type SaveCrowdSettingsInput = z.infer<typeof saveCrowdSettingsSchema>;

/** Saves what is given; empty credential fields keep the stored ones (they are write-only). */
export async function saveCrowdSettings(db: Db, input: SaveCrowdSettingsInput): Promise<void> {
  const data = saveCrowdSettingsSchema.parse(input);
  if (data.mode === "production" && !data.productionConfirmed) {
    throw new UserError("Production MTurk spends real money: tick the confirmation to switch to it.", "confirm_production", {
      productionConfirmed: ["Confirm to use production MTurk."],
    });
  }
  const ops = [db.setting.upsert({ where: { key: KEYS.mode }, create: { key: KEYS.mode, value: data.mode }, update: { value: data.mode } })];
  const confirmed = data.mode === "production" && data.productionConfirmed === true;
  ops.push(db.setting.upsert({ where: { key: KEYS.production }, create: { key: KEYS.production, value: confirmed }, update: { value: confirmed } }));
  if (data.accessKeyId || data.secretAccessKey) {
    if (!data.accessKeyId || !data.secretAccessKey) {
      throw new UserError("Enter both the access key id and the secret access key.", "credentials", {
        secretAccessKey: ["Both fields are needed to change the credentials."],
      });
    }
    const secret = sealSecret(JSON.stringify({ accessKeyId: data.accessKeyId, secretAccessKey: data.secretAccessKey }));
    ops.push(db.setting.upsert({ where: { key: KEYS.credentials }, create: { key: KEYS.credentials, secret }, update: { secret } }));
  }
  if (data.budgetCapCents !== undefined) {
    const value = data.budgetCapCents;
    if (value === null) await db.setting.deleteMany({ where: { key: KEYS.budget } });
    else ops.push(db.setting.upsert({ where: { key: KEYS.budget }, create: { key: KEYS.budget, value }, update: { value } }));
  }
  if (data.defaults) {
    const current = (await getCrowdSettings(db)).defaults;
    const merged = publishDefaultsSchema.parse({ ...current, ...data.defaults });
    ops.push(db.setting.upsert({ where: { key: KEYS.defaults }, create: { key: KEYS.defaults, value: merged }, update: { value: merged } }));
  }
  if (data.simulatorUrl) {
    ops.push(db.setting.upsert({ where: { key: KEYS.simulatorUrl }, create: { key: KEYS.simulatorUrl, value: data.simulatorUrl }, update: { value: data.simulatorUrl } }));
  }
  await db.$transaction(ops);
}

/** The admin's provider settings form, saved and audited (never the secret values: only whether they changed). */
export async function saveProviderSettings(db: Db, form: ProviderSettingsForm, { actorId }: { actorId: string }): Promise<void> {
  await saveCrowdSettings(db, {
    mode: form.mode,
    accessKeyId: form.accessKeyId || undefined,
    secretAccessKey: form.secretAccessKey || undefined,
    budgetCapCents: form.budgetCapDollars === undefined ? null : Math.round(form.budgetCapDollars * 100),
    productionConfirmed: form.confirmProduction,
    defaults: form.defaultRewardCents ? { rewardCents: form.defaultRewardCents } : undefined,
  });
  await writeAudit(db, {
    actorType: "user",
    actorId,
    entityType: "settings",
    entityId: "crowd",
    action: "update-provider-settings",
    details: { mode: form.mode, credentialsChanged: Boolean(form.accessKeyId || form.secretAccessKey), budgetCapDollars: form.budgetCapDollars ?? null },
  });
}
