import { afterEach, describe, expect, it } from "vitest";
import { dbProlificStore } from "@/lib/crowd/prolific/db-store";
import { createProlificProvider } from "@/lib/crowd/prolific/create-provider";
import { startProlificSimulator, type RunningProlificSimulator } from "@/lib/crowd/prolific/simulator/server";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { getProlificSettings, getProlificToken, prolificApiUrl, saveProlificSettings } from "@/lib/crowd/prolific/settings";
import { applyProlificTestMode } from "./test-participant";

describe.each(testFlavors())("Prolific's test mode from Settings (%s)", (flavor) => {
  let t: TestDb | null = null;
  let sim: RunningProlificSimulator | null = null;
  afterEach(async () => {
    await sim?.stop();
    await t?.cleanup();
    sim = null;
    t = null;
  });

  async function setup(testParticipants: boolean) {
    sim = await startProlificSimulator({ clock: new ManualClock(), testParticipants });
    t = await createTestDb(flavor);
    await saveProlificSettings(t.db, { mode: "simulator", simulatorUrl: sim.url });
    return { sim, db: t.db };
  }

  it("says Prolific's support must enable test participants when the workspace refuses them, and stays off", async () => {
    const { db } = await setup(false);
    const result = await applyProlificTestMode(db, { enabled: true, email: "tester@example.org" });
    expect(result.ok).toBe(false);
    expect(result.message).toContain("HTTP 403");
    expect(result.message).toContain("enabled per workspace by Prolific's support");
    expect(await getProlificSettings(db)).toMatchObject({ testMode: false, testParticipant: null });
    // Without a test participant test mode cannot be switched on.
    expect(await applyProlificTestMode(db, { enabled: true })).toMatchObject({ ok: false, message: expect.stringContaining("needs a test participant") });
    expect((await getProlificSettings(db)).testMode).toBe(false);
  });

  it("creates the test participant once, stores its id, and publishes a batch as one test copy recorded in Accord's database", async () => {
    const { sim, db } = await setup(true);
    const on = await applyProlificTestMode(db, { enabled: true, email: "tester@example.org" });
    const id = sim.state.testParticipants!.participant!.id;
    expect(on).toEqual({ ok: true, message: `Prolific test mode is on: HITs and screenings are published as test studies for the test participant tester@example.org (${id}).` });
    expect(await getProlificSettings(db)).toMatchObject({ testMode: true, testParticipant: { id, email: "tester@example.org" } });
    // Saving again with the same email creates nothing more (Prolific allows one per researcher).
    expect((await applyProlificTestMode(db, { enabled: true, email: "Tester@example.org" })).ok).toBe(true);

    const settings = await getProlificSettings(db);
    const provider = await createProlificProvider({ mode: "simulator", token: (await getProlificToken(db, "simulator"))!, apiUrl: prolificApiUrl(settings), publicUrl: "http://127.0.0.1:3000", store: dbProlificStore(db), testMode: settings.testMode });
    const input = { accordHitId: "hit-db", title: "Label 30 tweets", description: "Label tweets.", rewardCents: 300, maxAssignments: 2, lifetimeSeconds: 86_400, assignmentDurationSeconds: 2700, autoApprovalDelaySeconds: 86_400, questionXml: "<unused/>", batch: { key: "batch-db", position: 1 } };
    const first = await provider.publishHit(input);
    expect(await provider.publishHit(input)).toEqual({ ...first, duplicate: true });
    const studies = Object.values(sim.state.studies);
    expect(studies.map((s) => [s.status, s.test_of ?? null])).toEqual([
      ["UNPUBLISHED", null],
      ["ACTIVE", studies[0]!.id],
    ]);
    expect(first.providerHitId).toBe(`${studies[1]!.id}:hit-db`);
    expect(await dbProlificStore(db).get("prolific-study", "batch-db")).toMatchObject({ internalName: "accord-batch:batch-db", testStudyId: studies[1]!.id });

    expect(await applyProlificTestMode(db, { enabled: false })).toMatchObject({ ok: true });
    expect(await getProlificSettings(db)).toMatchObject({ testMode: false, testParticipant: { id } });
  });
});
