import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadProlificState } from "@/lib/crowd/prolific/simulator/state";
import { PROLIFIC_SCOPES } from "@/lib/crowd/prolific/provider-store";
import { testFlavors } from "@/lib/db/test-db";
import { createRng } from "@/lib/util/random";
import { setupProlificCampaign, type ProlificCampaign } from "./prolific-fixture";
import { dbProlificStore } from "@/lib/crowd/prolific/db-store";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { type Child, startChild, waitFor } from "./reliability-fixture";
import { PUBLISH_OPTIONS } from "./test-fixture";

const HITS = 40;
/**
 * Where each child dies: before the batch study's create reaches Prolific (its intent recorded), right after the
 * create, right after its PUBLISH, right after a seeded n-th PATCH of its places (a HIT queued), and a seeded delay
 * after one.
 */
const KILLS = ["intent", "created", "published", "places", "delay"] as const;

/**
 * The publish job on Prolific runs in a child process (scripts/campaign-child.ts, its provider from Accord's settings)
 * against the Prolific simulator in this process (state fsync'd to a file) and a shared database. It is killed with
 * SIGKILL once at each point of KILLS; a new child takes the job over once the dead one's lease expires. At the end
 * the batch has exactly one study `accord-batch:<batch id>`, published once, holding every HIT's places, and every
 * Accord HIT is `<that study>:<hit id>`: no duplicate, none lost.
 */
describe.each(testFlavors())(`SIGKILL while publishing ${HITS} HITs to Prolific (%s)`, (flavor) => {
  let f: ProlificCampaign;
  let dir = "";
  const children: Child[] = [];
  afterEach(async () => {
    for (const c of children.splice(0)) c.proc.kill("SIGKILL");
    await f?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a kill at each point and a restart: one study for the batch, every HIT published in it", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "accord-prolific-kill-"));
    const persistFile = path.join(dir, "prolific.json");
    f = await setupProlificCampaign({ flavor, unknown: HITS * 20, persistFile });
    // The child finds the simulator through Prolific's settings (simulator mode and token are the defaults).
    await f.db.setting.create({ data: { key: "prolific.simulatorUrl", value: f.prolific.url } });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const { batch } = await createHitBatch({ db: f.db, eventId: f.eventId, provider: f.provider, options: { ...PUBLISH_OPTIONS, rewardCents: 300, hitCount: HITS, seed: 5 } });
    expect(await f.db.hit.count({ where: { status: "draft" } })).toBe(HITS);

    const name = `accord-batch:${batch.id}`;
    const ours = () => Object.values(f.prolific.state.studies).filter((s) => s.internal_name === name);
    const calls = { creates: 0, publishes: 0 };
    const killed: string[] = [];
    const rng = createRng(2026);
    const start = () => {
      const child = startChild(["scripts/campaign-child.ts", "publish", "--batch", batch.id, "--lease-ms", "2000"], { DATABASE_URL: f.t.url });
      children.push(child);
      return child;
    };

    let next = start();
    for (const [k, point] of KILLS.entries()) {
      const current = next;
      await waitFor(() => current.output().includes("claimed job") || current.proc.exitCode !== null, `child ${k + 1} to claim the publish job`, { timeoutMs: 120_000, everyMs: 20 });
      next = start(); // waits for the lease of the job to expire after the kill
      const patchAt = 2 + Math.floor(rng() * 5);
      let patches = 0;
      const done = new Promise<void>((resolve) => {
        const kill = () => {
          f.prolific.intercept = undefined;
          killed.push(point);
          current.proc.kill("SIGKILL");
          resolve();
        };
        f.prolific.intercept = ({ phase, key, body }) => {
          const b = body as { internal_name?: unknown; action?: unknown; total_available_places?: unknown } | undefined;
          const create = key === "POST studies" && b?.internal_name === name;
          const publish = key === "POST studies/:id/transition" && b?.action === "PUBLISH";
          const places = key === "PATCH studies/:id" && typeof b?.total_available_places === "number";
          if (phase === "before" && create && point === "intent") {
            kill();
            return false; // the create never reaches Prolific
          }
          if (phase !== "after") return undefined;
          if (create) calls.creates++;
          if (publish) calls.publishes++;
          if (places) patches++;
          if ((create && point === "created") || (publish && point === "published") || (places && patches === patchAt && point === "places")) kill();
          if (places && patches === patchAt && point === "delay") {
            f.prolific.intercept = undefined;
            setTimeout(kill, Math.floor(rng() * 40));
          }
          return undefined;
        };
      });
      const outcome = await Promise.race([done.then(() => current.exited), current.exited]);
      expect(outcome.signal, `child ${k + 1} should have been killed mid-publishing (${point}); it exited with ${outcome.code}:\n${current.output()}`).toBe("SIGKILL");
      expect(await f.db.hit.count({ where: { status: "draft" } }), `child ${k + 1} (${point}) died with HITs left`).toBeGreaterThan(0);
      if (point === "intent") {
        // Killed after the intent was recorded and before the create reached Prolific: Accord knows of it, Prolific does not.
        expect(await dbProlificStore(f.db).get(PROLIFIC_SCOPES.study, batch.id)).not.toBeNull();
        expect(ours()).toEqual([]);
      }
    }
    // The last restart finishes the job.
    const last = await next.exited;
    expect(last, next.output()).toEqual({ code: 0, signal: null });
    expect(killed).toEqual([...KILLS]);

    const hits = await f.db.hit.findMany({ select: { id: true, status: true, providerHitId: true, maxAssignments: true } });
    expect(hits).toHaveLength(HITS);
    const studies = ours();
    expect(studies.map((s) => s.status)).toEqual(["ACTIVE"]);
    expect(calls).toEqual({ creates: 1, publishes: 1 });
    const study = studies[0]!;
    expect(hits.every((h) => h.status === "published" && h.providerHitId === `${study.id}:${h.id}`)).toBe(true);
    expect(study.total_available_places).toBe(hits.reduce((n, h) => n + h.maxAssignments, 0));
    const job = await f.db.job.findUniqueOrThrow({ where: { id: batch.jobId as string } });
    expect([job.state, job.attempts >= KILLS.length + 1]).toEqual(["succeeded", true]);
    // What the simulator saved (fsync'd before each answer) holds the same study.
    const saved = loadProlificState(persistFile)!;
    expect(Object.values(saved.studies).filter((s) => s.internal_name === name).map((s) => [s.id, s.status, s.total_available_places])).toEqual([[study.id, "ACTIVE", study.total_available_places]]);
  });
});
