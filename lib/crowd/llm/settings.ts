import "server-only";
import { z } from "zod";
import { writeAudit } from "@/lib/audit/write-audit";
import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { openSecret, sealSecret } from "@/lib/secrets/secret-box";
import { DEFAULT_LLM_API_KEY, DEFAULT_LLM_MODEL } from "./simulator/server";

/**
 * The language model endpoint (issue 32): any OpenAI-compatible chat-completions server. The API key is sealed in
 * the Setting table like the AWS keys and never sent to a browser; the defaults point at the embedded LLM simulator.
 */
export const LLM_SIMULATOR_PORT = 9420;

/** The endpoint's base URL when Settings names none: ACCORD_LLM_SIMULATOR_URL, else the embedded simulator's. */
export function defaultLlmBaseUrl(): string {
  return env().ACCORD_LLM_SIMULATOR_URL ?? `http://127.0.0.1:${LLM_SIMULATOR_PORT}/v1`;
}

export const llmSettingsSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }),
  model: z.string().trim().min(1).max(200),
  temperature: z.number().min(0).max(2),
  /** Chat-completion calls in flight at once. */
  concurrency: z.number().int().min(1).max(64),
  /** Price per million input (prompt) and output (completion) tokens, in `currency`. */
  inputPricePerMillion: z.number().min(0).max(100_000),
  outputPricePerMillion: z.number().min(0).max(100_000),
  /** Labellings of each tweet in a run (more than 1 only makes sense at temperature > 0). */
  passes: z.number().int().min(1).max(9),
  /** Gold tweets shown as examples in the prompt (one per label while there are any); they are not graded in that run. */
  examples: z.number().int().min(0).max(10),
  /** Seconds one call may take before it counts as failed. */
  timeoutSeconds: z.number().int().min(5).max(600),
});
export type LlmSettingsValues = z.infer<typeof llmSettingsSchema>;
export type LlmSettings = LlmSettingsValues & { hasKey: boolean };

export const DEFAULT_LLM_SETTINGS: Omit<LlmSettingsValues, "baseUrl"> = {
  model: DEFAULT_LLM_MODEL,
  temperature: 0,
  concurrency: 4,
  inputPricePerMillion: 0,
  outputPricePerMillion: 0,
  passes: 1,
  examples: 3,
  timeoutSeconds: 60,
};

const KEYS = { values: "llm.endpoint", key: "llm.apiKey" } as const;

export async function getLlmSettings(db: Db): Promise<LlmSettings> {
  const rows = new Map((await db.setting.findMany({ where: { key: { in: Object.values(KEYS) } } })).map((r) => [r.key, r]));
  const stored = llmSettingsSchema.partial().safeParse(rows.get(KEYS.values)?.value ?? {});
  return { baseUrl: defaultLlmBaseUrl(), ...DEFAULT_LLM_SETTINGS, ...(stored.success ? stored.data : {}), hasKey: Boolean(rows.get(KEYS.key)?.secret) };
}

/** Server-side only: the API key (the simulator's default key when none is stored). */
export async function getLlmApiKey(db: Db): Promise<string> {
  const row = await db.setting.findUnique({ where: { key: KEYS.key } });
  if (!row?.secret) return DEFAULT_LLM_API_KEY;
  try {
    return openSecret(row.secret);
  } catch {
    throw new UserError("The stored language model API key cannot be decrypted (was ACCORD_SECRET changed?). Enter it again in Settings.");
  }
}

/** The admin's form: every value, and a key only when one is typed (the key is write-only). */
export const saveLlmSettingsSchema = llmSettingsSchema.extend({ apiKey: z.string().trim().max(1024).optional() });
export type SaveLlmSettingsInput = z.input<typeof saveLlmSettingsSchema>;

export async function saveLlmSettings(db: Db, input: SaveLlmSettingsInput, { actorId }: { actorId?: string } = {}): Promise<void> {
  const { apiKey, ...values } = saveLlmSettingsSchema.parse(input);
  const ops = [db.setting.upsert({ where: { key: KEYS.values }, create: { key: KEYS.values, value: values }, update: { value: values } })];
  if (apiKey) {
    const secret = sealSecret(apiKey);
    ops.push(db.setting.upsert({ where: { key: KEYS.key }, create: { key: KEYS.key, secret }, update: { secret } }));
  }
  await db.$transaction(ops);
  if (actorId) {
    await writeAudit(db, { actorType: "user", actorId, entityType: "settings", entityId: "llm", action: "update-llm-settings", details: { ...values, keyChanged: Boolean(apiKey) } });
  }
}
