import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadProlificState } from "@/lib/crowd/prolific/simulator/state";
import { PROLIFIC_SCOPES } from "@/lib/crowd/prolific/provider-store";
import { testFlavors } from "@/lib/db/test-db";
import { createRng } from "@/lib/util/random";
import { setupProlificCampaign, type ProlificCampaign } from "./prolific-fixture";
import { dbProlificStore } from "./prolific-store";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { type Child, startChild, waitFor } from "./reliability-fixture";
import { PUBLISH_OPTIONS } from "./test-fixture";

const HITS = 40;
/** Where each child dies: before its create reaches Prolific (its intent recorded), right after a create, right after a PUBLISH, after a random delay. */
const KILLS = ["intent", "created", "published", "delay"] as const;

/**
 * The publish job on Prolific runs in a child process (scripts/campaign-child.ts, its provider from Accord's settings)
 * against the Prolific simulator in this process (state fsync'd to a file) and a shared database. It is killed with
 * SIGKILL once at each point of KILLS, at seeded random counts of studies created; a new child takes the job over once
 * the dead one's lease expires. At the end every Accord HIT has exactly one study `accord:<hit id>`, published, and
 * it is the study Accord recorded: no duplicate, none lost.
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

  it("a kill at each point and a restart: one study per HIT, every HIT published", { timeout: 240_000 }, async () => {
    dir = mkdtempSync(path.join(tmpdir(), "accord-prolific-kill-"));
    const persistFile = path.join(dir, "prolific.json");
    f = await setupProlificCampaign({ flavor, unknown: HITS * 20, persistFile });
    // The child finds the simulator through Prolific's settings (simulator mode and token are the defaults).
    await f.db.setting.create({ data: { key: "prolific.simulatorUrl", value: f.prolific.url } });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const { batch } = await createHitBatch({ db: f.db, eventId: f.eventId, provider: f.provider, options: { ...PUBLISH_OPTIONS, rewardCents: 300, hitCount: HITS, seed: 5 } });
    expect(await f.db.hit.count({ where: { status: "draft" } })).toBe(HITS);

    const isAccord = (name: unknown) => typeof name === "string" && name.startsWith("accord:");
    const log = { creates: 0 };
    const killedAt: Partial<Record<(typeof KILLS)[number], string>> = {};
    const rng = createRng(2026);
    const start = () => {
      const child = startChild(["scripts/campaign-child.ts", "publish", "--batch", batch.id, "--lease-ms", "2000"], { DATABASE_URL: f.t.url });
      children.push(child);
      return child;
    };

    let next = start();
    for (const [k, point] of KILLS.entries()) {
      // Kill k at a random count of created studies within the k-th part of the batch (so it is mid-publishing).
      const part = HITS / KILLS.length;
      const at = Math.floor(k * part + 2 + rng() * (part - 4));
      const current = next;
      await waitFor(() => current.output().includes("claimed job") || current.proc.exitCode !== null, `child ${k + 1} to claim the publish job`, { timeoutMs: 120_000, everyMs: 20 });
      next = start(); // waits for the lease of the job to expire after the kill
      const killed = new Promise<void>((resolve) => {
        const kill = () => {
          f.prolific.intercept = undefined;
          current.proc.kill("SIGKILL");
          resolve();
        };
        f.prolific.intercept = ({ phase, key, path: p, body }) => {
          const b = body as { internal_name?: unknown; action?: unknown } | undefined;
          const create = key === "POST studies" && isAccord(b?.internal_name);
          const publish = key === "POST studies/:id/transition" && b?.action === "PUBLISH" && isAccord(f.prolific.state.studies[p[1]!]?.internal_name);
          if (phase === "before" && create && ++log.creates >= at && point === "intent") {
            killedAt.intent = String(b!.internal_name);
            kill();
            return false; // the create never reaches Prolific
          }
          if (phase === "after" && create && log.creates >= at && point === "created") {
            killedAt.created = String(b!.internal_name);
            kill();
          }
          if (phase === "after" && publish && log.creates >= at && point === "published") {
            killedAt.published = String(f.prolific.state.studies[p[1]!]!.internal_name);
            kill();
          }
          if (phase === "after" && create && log.creates >= at && point === "delay") {
            f.prolific.intercept = undefined;
            setTimeout(kill, Math.floor(rng() * 40));
          }
        };
      });
      const outcome = await Promise.race([killed.then(() => current.exited), current.exited]);
      expect(outcome.signal, `child ${k + 1} should have been killed mid-publishing (${point}); it exited with ${outcome.code}:\n${current.output()}`).toBe("SIGKILL");
      expect(await f.db.hit.count({ where: { status: "draft" } }), `child ${k + 1} (${point}) died with HITs left`).toBeGreaterThan(0);
      if (point === "intent") {
        // Killed after the intent was recorded and before the create reached Prolific: Accord knows of it, Prolific does not.
        const hitId = killedAt.intent!.slice("accord:".length);
        expect(await dbProlificStore(f.db).get(PROLIFIC_SCOPES.study, hitId)).not.toBeNull();
        expect(Object.values(f.prolific.state.studies).filter((s) => s.internal_name === killedAt.intent)).toEqual([]);
      }
    }
    // The last restart finishes the job.
    const last = await next.exited;
    expect(last, next.output()).toEqual({ code: 0, signal: null });

    const hits = await f.db.hit.findMany({ select: { id: true, status: true, providerHitId: true } });
    expect(hits).toHaveLength(HITS);
    expect(hits.every((h) => h.status === "published" && h.providerHitId)).toBe(true);
    const studies = Object.values(f.prolific.state.studies).filter((s) => isAccord(s.internal_name));
    expect(studies).toHaveLength(HITS);
    for (const h of hits) {
      const own = studies.filter((s) => s.internal_name === `accord:${h.id}`);
      expect(own.map((s) => [s.id, s.status]), `the studies of HIT ${h.id}`).toEqual([[h.providerHitId, "ACTIVE"]]);
    }
    // The studies created (and published) in the killed children's last calls are the ones Accord recorded.
    expect(Object.keys(killedAt).sort()).toEqual(["created", "intent", "published"]);
    for (const name of Object.values(killedAt)) expect(hits.find((h) => `accord:${h.id}` === name)?.providerHitId).toBe(studies.find((s) => s.internal_name === name)?.id);
    const job = await f.db.job.findUniqueOrThrow({ where: { id: batch.jobId as string } });
    expect([job.state, job.attempts >= KILLS.length + 1]).toEqual(["succeeded", true]);
    // What the simulator saved (fsync'd before each answer) holds the same studies.
    const saved = loadProlificState(persistFile)!;
    expect(Object.values(saved.studies).filter((s) => isAccord(s.internal_name)).map((s) => [s.id, s.status]).sort()).toEqual(studies.map((s) => [s.id, s.status]).sort());
  });
});
