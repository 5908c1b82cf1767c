import "server-only";
import { z } from "zod";
import { writeAudit } from "@/lib/audit/write-audit";
import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { webhookSecretUpsert } from "./webhook-settings";
import { openSecret, sealSecret } from "@/lib/secrets/secret-box";

/**
 * Prolific's settings: mode (the local simulator by default, or production), the simulator's address, the API
 * token (encrypted in the database like the AWS keys; never sent to a browser) and, optionally, the workspace and
 * project Accord's studies go to (empty: the token's first).
 */
export const PROLIFIC_MODES = ["simulator", "production"] as const;
/** The Prolific simulator's default port (`accord simulator --prolific`). */
export const PROLIFIC_SIMULATOR_PORT = 9410;
/** The token the simulator accepts by default. */
export const PROLIFIC_SIMULATOR_TOKEN = "accord-simulator-token";

export type ProlificSettings = {
  mode: (typeof PROLIFIC_MODES)[number];
  simulatorUrl: string;
  /** Whether a token is stored (never the token). */
  hasToken: boolean;
  workspaceId: string;
  projectId: string;
  /** Prolific's test mode: HITs and screenings are published as test studies for the test participant (off by default). */
  testMode: boolean;
  /** The researcher's test participant, once Accord created it (`POST /researchers/participants/`). */
  testParticipant: { id: string; email: string } | null;
};

const testParticipantSchema = z.object({ id: z.string(), email: z.string() });

const KEYS = {
  mode: "prolific.mode",
  simulatorUrl: "prolific.simulatorUrl",
  token: "prolific.token",
  workspaceId: "prolific.workspaceId",
  projectId: "prolific.projectId",
  testMode: "prolific.testMode",
  testParticipant: "prolific.testParticipant",
} as const;

/** The simulator's address when Settings names none: ACCORD_PROLIFIC_SIMULATOR_URL, else localhost:9410. */
export function defaultProlificSimulatorUrl(): string {
  return env().ACCORD_PROLIFIC_SIMULATOR_URL ?? `http://127.0.0.1:${PROLIFIC_SIMULATOR_PORT}`;
}

/** The API base the client talks to: the simulator's `/api/v1/`, or Prolific's own (undefined) in production. */
export function prolificApiUrl(settings: Pick<ProlificSettings, "mode" | "simulatorUrl">): string | undefined {
  return settings.mode === "simulator" ? `${settings.simulatorUrl.replace(/\/+$/, "")}/api/v1/` : undefined;
}

export async function getProlificSettings(db: Db): Promise<ProlificSettings> {
  const rows = new Map((await db.setting.findMany({ where: { key: { in: Object.values(KEYS) } } })).map((r) => [r.key, r]));
  const text = (key: string) => (typeof rows.get(key)?.value === "string" ? (rows.get(key)?.value as string) : "");
  const mode = z.enum(PROLIFIC_MODES).safeParse(rows.get(KEYS.mode)?.value);
  return {
    mode: mode.success ? mode.data : "simulator",
    simulatorUrl: text(KEYS.simulatorUrl) || defaultProlificSimulatorUrl(),
    hasToken: Boolean(rows.get(KEYS.token)?.secret),
    workspaceId: text(KEYS.workspaceId),
    projectId: text(KEYS.projectId),
    testMode: rows.get(KEYS.testMode)?.value === true,
    testParticipant: testParticipantSchema.safeParse(rows.get(KEYS.testParticipant)?.value).data ?? null,
  };
}

/** Switches Prolific's test mode on or off (the caller makes sure a test participant exists first). */
export async function saveProlificTestMode(db: Db, enabled: boolean): Promise<void> {
  await db.setting.upsert({ where: { key: KEYS.testMode }, create: { key: KEYS.testMode, value: enabled }, update: { value: enabled } });
}

/** Records the test participant Prolific created for the researcher. */
export async function saveProlificTestParticipant(db: Db, participant: { id: string; email: string }): Promise<void> {
  const value = testParticipantSchema.parse(participant);
  await db.setting.upsert({ where: { key: KEYS.testParticipant }, create: { key: KEYS.testParticipant, value }, update: { value } });
}

/** Server-side only: the API token (the simulator's default token in simulator mode when none is stored). */
export async function getProlificToken(db: Db, mode: ProlificSettings["mode"]): Promise<string | null> {
  const row = await db.setting.findUnique({ where: { key: KEYS.token } });
  if (!row?.secret) return mode === "simulator" ? PROLIFIC_SIMULATOR_TOKEN : null;
  try {
    return openSecret(row.secret);
  } catch {
    throw new UserError("The stored Prolific token cannot be decrypted (was ACCORD_SECRET changed?). Enter it again in Settings.");
  }
}

export const saveProlificSettingsSchema = z.object({
  mode: z.enum(PROLIFIC_MODES),
  token: z.string().trim().max(512).optional(),
  simulatorUrl: z.url().optional(),
  workspaceId: z.string().trim().regex(/^[0-9a-f]{0,64}$/i, "a Prolific id (hexadecimal)").optional(),
  projectId: z.string().trim().regex(/^[0-9a-f]{0,64}$/i, "a Prolific id (hexadecimal)").optional(),
  /** The workspace's webhook signing secret, when it was created outside Accord (write-only, like the token). */
  webhookSecret: z.string().trim().max(512).optional(),
});
export type SaveProlificSettingsInput = z.infer<typeof saveProlificSettingsSchema>;

/** Saves what is given; an empty token keeps the stored one (it is write-only). */
export async function saveProlificSettings(db: Db, input: SaveProlificSettingsInput): Promise<void> {
  const data = saveProlificSettingsSchema.parse(input);
  const value = (key: string, v: string) => db.setting.upsert({ where: { key }, create: { key, value: v }, update: { value: v } });
  const ops = [value(KEYS.mode, data.mode)];
  if (data.simulatorUrl) ops.push(value(KEYS.simulatorUrl, data.simulatorUrl));
  if (data.workspaceId !== undefined) ops.push(value(KEYS.workspaceId, data.workspaceId));
  if (data.projectId !== undefined) ops.push(value(KEYS.projectId, data.projectId));
  if (data.token) {
    const secret = sealSecret(data.token);
    ops.push(db.setting.upsert({ where: { key: KEYS.token }, create: { key: KEYS.token, secret }, update: { secret } }));
  }
  if (data.webhookSecret) ops.push(webhookSecretUpsert(db, data.webhookSecret, data.workspaceId ?? ""));
  await db.$transaction(ops);
}

/** The admin's Prolific form, saved and audited (never the token: only whether it changed). */
export async function saveProlificSettingsForm(db: Db, form: SaveProlificSettingsInput, { actorId, testMode }: { actorId: string; testMode?: boolean }): Promise<void> {
  await saveProlificSettings(db, form);
  await writeAudit(db, {
    actorType: "user",
    actorId,
    entityType: "settings",
    entityId: "prolific",
    action: "update-prolific-settings",
    details: { mode: form.mode, simulatorUrl: form.simulatorUrl ?? null, workspaceId: form.workspaceId ?? null, projectId: form.projectId ?? null, tokenChanged: Boolean(form.token), webhookSecretChanged: Boolean(form.webhookSecret), testMode: testMode ?? null },
  });
}

/** Accord's address as participants reach it (ACCORD_PUBLIC_URL, else localhost and PORT). */
export function participantBaseUrl(): string {
  const config = env();
  return config.ACCORD_PUBLIC_URL ?? `http://localhost:${config.PORT}`;
}
