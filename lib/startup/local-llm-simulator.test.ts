import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { checkLlmConnection } from "@/lib/crowd/llm/connection-check";
import { DEFAULT_LLM_SETTINGS, saveLlmSettings } from "@/lib/crowd/llm/settings";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { startLocalLlmSimulator, stopLocalLlmSimulator, syncLocalLlmSimulator } from "./local-llm-simulator";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the embedded LLM simulator", () => {
  let t: TestDb | null = null;
  afterEach(async () => {
    await stopLocalLlmSimulator();
    await t?.cleanup();
    t = null;
  });

  it("follows the settings: listens on the local base URL with the saved key and model, restarts for a new key, stops for a remote endpoint", async () => {
    t = await createTestDb("sqlite");
    const baseUrl = `http://127.0.0.1:${await freePort()}/v1`;
    await saveLlmSettings(t.db, { ...DEFAULT_LLM_SETTINGS, baseUrl });
    expect((await checkLlmConnection(t.db, { timeoutMs: 2_000 })).ok).toBe(false);

    const sim = await startLocalLlmSimulator(t.db);
    expect(sim?.baseURL).toBe(baseUrl);
    expect(sim?.apiKey).toBe("accord-simulator-key");
    expect(await checkLlmConnection(t.db)).toEqual({ ok: true, message: `Connected to ${baseUrl}: model "accord-sim-1" is available.` });
    expect(await syncLocalLlmSimulator(t.db)).toBe(sim);

    await saveLlmSettings(t.db, { ...DEFAULT_LLM_SETTINGS, baseUrl, model: "my-model", apiKey: "sk-local-test-key" });
    const again = await syncLocalLlmSimulator(t.db);
    expect(again).not.toBe(sim);
    expect(again?.apiKey).toBe("sk-local-test-key");
    expect(again?.models).toEqual(["my-model"]);
    expect((await checkLlmConnection(t.db)).ok).toBe(true);

    await saveLlmSettings(t.db, { ...DEFAULT_LLM_SETTINGS, baseUrl: "https://api.example.invalid/v1" });
    expect(await syncLocalLlmSimulator(t.db)).toBeNull();
    const refused = await checkLlmConnection(t.db, { timeoutMs: 2_000 });
    expect(refused.ok).toBe(false);
    expect(refused.message).toContain("https://api.example.invalid/v1");
  });
});
