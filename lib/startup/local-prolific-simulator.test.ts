import fs from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { checkProlificConnection } from "@/lib/crowd/prolific/connection-check";
import { saveProlificSettings } from "@/lib/crowd/prolific/settings";
import { startLocalProlificSimulator, stopLocalProlificSimulator, syncLocalProlificSimulator } from "./local-prolific-simulator";

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the embedded Prolific simulator and the connection check", () => {
  let t: TestDb;
  let dir: string;
  afterEach(async () => {
    await stopLocalProlificSimulator();
    await t?.cleanup();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("follows the settings: starts on the local address, restarts for a new token, stops for production; the check says what is wrong", async () => {
    t = await createTestDb("sqlite");
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "accord-prolific-sim-"));
    const stateFile = path.join(dir, "prolific-simulator-state.json");
    const url = `http://127.0.0.1:${await freePort()}`;

    // Nothing listens yet: the check names the simulator and how to start it.
    await saveProlificSettings(t.db, { mode: "simulator", simulatorUrl: url });
    const unreachable = await checkProlificConnection(t.db, { timeoutMs: 2_000 });
    expect(unreachable.ok).toBe(false);
    expect(unreachable.message).toContain(`Cannot reach the Prolific simulator at ${url}`);

    const sim = await startLocalProlificSimulator(t.db, { speedup: 100, workers: "careful:2", stateFile });
    expect(sim?.url).toBe(url);
    expect(sim?.participants).not.toBeNull();
    // Prolific's session time limits: the embedded simulator's clock is capped at ×60.
    expect((sim?.clock as { speedup?: number }).speedup).toBe(60);
    const connected = await checkProlificConnection(t.db);
    expect(connected).toMatchObject({ ok: true });
    expect(connected.message).toMatch(/^Connected to the Prolific simulator at .*: workspace ".+", project ".+", £[\d,]+\.\d{2} available\.$/);
    expect(fs.existsSync(stateFile)).toBe(true);
    // The same settings: the same simulator.
    expect(await syncLocalProlificSimulator(t.db)).toBe(sim);

    // A token of the admin's: the simulator is restarted to accept it (the provider sends the saved token).
    await saveProlificSettings(t.db, { mode: "simulator", token: "my-own-simulator-token" });
    const again = await syncLocalProlificSimulator(t.db);
    expect(again).not.toBe(sim);
    expect(again?.token).toBe("my-own-simulator-token");
    expect(await checkProlificConnection(t.db)).toMatchObject({ ok: true });

    // A workspace id the token does not see.
    await saveProlificSettings(t.db, { mode: "simulator", workspaceId: "aaaaaaaaaaaaaaaaaaaaaaaa" });
    expect((await checkProlificConnection(t.db)).message).toContain("The token does not see workspace aaaaaaaaaaaaaaaaaaaaaaaa");

    // Production: the embedded simulator stops (its port is free again).
    await saveProlificSettings(t.db, { mode: "production", workspaceId: "" });
    expect(await syncLocalProlificSimulator(t.db)).toBeNull();
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it("says when the simulator refuses the token", async () => {
    t = await createTestDb("sqlite");
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "accord-prolific-sim-"));
    const url = `http://127.0.0.1:${await freePort()}`;
    await saveProlificSettings(t.db, { mode: "simulator", simulatorUrl: url });
    await startLocalProlificSimulator(t.db, { speedup: 1, workers: "careful:1", stateFile: path.join(dir, "state.json") });
    // Another token saved behind the running simulator's back (the save action syncs; this does not).
    await saveProlificSettings(t.db, { mode: "simulator", token: "not-the-simulators-token" });
    const refused = await checkProlificConnection(t.db);
    expect(refused.ok).toBe(false);
    expect(refused.message).toContain("The simulator refused the API token");
  });
});
