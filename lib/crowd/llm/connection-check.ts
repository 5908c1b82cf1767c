import "server-only";
import OpenAI from "openai";
import type { Db } from "@/lib/db/client";
import { toLlmError } from "./client";
import { getLlmApiKey, getLlmSettings } from "./settings";

/** Settings' "Test connection": lists the endpoint's models and says whether the saved model is among them. */
export async function checkLlmConnection(db: Db, { timeoutMs = 10_000 }: { timeoutMs?: number } = {}): Promise<{ ok: boolean; message: string }> {
  const s = await getLlmSettings(db);
  const client = new OpenAI({ baseURL: s.baseUrl, apiKey: await getLlmApiKey(db), timeout: timeoutMs, maxRetries: 0 });
  try {
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    if (ids.length > 0 && !ids.includes(s.model)) return { ok: false, message: `Connected to ${s.baseUrl}, but it does not serve the model "${s.model}" (it serves ${ids.slice(0, 10).join(", ")}).` };
    return { ok: true, message: `Connected to ${s.baseUrl}: model "${s.model}" is available.` };
  } catch (err) {
    return { ok: false, message: `${toLlmError(err).message} (${s.baseUrl})` };
  }
}
