import { createHash } from "node:crypto";
import { buildManifest } from "@/lib/export/manifest";
import { createHitBatch } from "@/lib/campaign/publish";
import { PUBLISH_OPTIONS } from "@/lib/campaign/test-fixture";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { countReopenable, reopenUnresolvedImported } from "./collect-more";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { computeEventAnalysis } from "@/lib/analysis/analysis";
import { countedJudgments } from "@/lib/analysis/counted-judgments";
import { loadRecordedEvent } from "@/lib/analysis/replay";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import { saveLabelMap } from "../label-map";
import { tempFiles } from "../testing/test-io";
import { drainJobs, JobCancelled, type JobContext } from "@/lib/jobs/runner";
import type { JobRecord } from "@/lib/jobs/queue";
import { createJudgmentImport, runJudgmentImportJob } from "./judgment-import-job";
import { detectMapping, type JudgmentMapping } from "./mapping";
import { readCsvRecords } from "./read-judgments";
import { CF_LABEL_MAP, crowdflowerReport, mturkBatch } from "./testing/fixtures";

const files = tempFiles("accord-judgments-");
afterAll(() => files.cleanup());
const registry = accordJobs({ loadClassifier: null });

async function makeEvent(db: Db, slug = "sandy") {
  const schemeId = await ensureHumaidScheme(db);
  return db.event.create({ data: { slug, name: slug, type: "hurricane", schemeId, settings: {}, filters: {}, locations: [] } });
}

async function importFile(db: Db, eventId: string, text: string, change: Partial<JudgmentMapping> = {}) {
  const filePath = files.write("report.csv", text);
  const mapping = { ...detectMapping(readCsvRecords(text).header)!, ...change };
  const { importId } = await createJudgmentImport({ db, eventId, fileName: "report.csv", filePath, mapping, via: "cli" });
  await drainJobs(db, { registry, types: [JOBS.judgmentImport.type] });
  return db.importBatch.findUniqueOrThrow({ where: { id: importId }, include: { errors: true } });
}

describe.each(testFlavors())("judgment import on %s", (flavor) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(flavor);
  });
  afterEach(async () => t.cleanup());

  it("stores a CrowdFlower report that Table 3, Dawid–Skene, worker trust and the replay then read", async () => {
    const { db } = t;
    const event = await makeEvent(db);
    // labels outside the scheme wait for a mapping; nothing stored
    const waiting = await importFile(db, event.id, crowdflowerReport(), { repeats: "first" });
    expect(waiting.status).toBe("needs_mapping");
    expect(waiting.fileLabels).toMatchObject({ "Not related": expect.any(Number) });
    expect(await db.judgment.count()).toBe(0);
    await saveLabelMap(db, { eventId: event.id, map: CF_LABEL_MAP, actor: null });
    // repeats refused by default, naming the option
    const refused = await importFile(db, event.id, crowdflowerReport());
    expect(refused.status).toBe("failed");
    expect(refused.message).toMatch(/1 repeat judgment .*--repeats first/);
    expect(await db.tweet.count()).toBe(0);

    const done = await importFile(db, event.id, crowdflowerReport(), { repeats: "first" });
    expect(done.status, done.message ?? "").toBe("completed");
    expect(done.message).toMatch(/Imported from CrowdFlower .*"report.csv"; 1 repeat judgment set aside \(--repeats first\)/);
    expect(done.rowsStored).toBe(36);
    expect(await db.tweet.count({ where: { eventId: event.id } })).toBe(12);
    expect(await db.tweet.count({ where: { eventId: event.id, role: "gold", goldLabel: "infrastructure_and_utility_damage" } })).toBe(1);
    const tweet = await db.tweet.findFirstOrThrow({ where: { externalId: "5000" } });
    expect(tweet.text).toBe('Sandy unit 0: "flooding" on\nline two, stay safe');
    // worker ids kept under the platform's own provider
    const workers = await db.worker.findMany({ select: { provider: true, externalId: true, goldTotal: true } });
    expect(new Set(workers.map((w) => w.provider))).toEqual(new Set(["import:crowdflower"]));
    expect(workers.reduce((s, w) => s + w.goldTotal, 0)).toBe(6);
    // personal columns are nowhere in the database
    const dump = JSON.stringify([await db.tweet.findMany(), await db.worker.findMany(), await db.judgment.findMany(), await db.importBatch.findMany(), await db.assignment.findMany(), await db.auditLog.findMany()]);
    expect(dump).not.toMatch(/192\.0\.2\.|Brooklyn|"NY"|USA/);

    expect(await countedJudgments(db, event.id)).toHaveLength(30);
    const snapshot = await db.metricSnapshot.findFirstOrThrow({ where: { eventId: event.id } });
    expect(snapshot.judgments).toBe(30);
    expect(snapshot.scopes).toMatchObject({ agreed: expect.anything(), all: expect.anything() });
    const analysis = await computeEventAnalysis(db, event.id);
    expect(analysis.judgments).toBe(30);
    expect(analysis.table3.fleissKappa).not.toBeNull();
    expect(analysis.comparison.tweets).toBe(10);
    expect(analysis.comparison.goldAnchors).toBeGreaterThan(0);
    expect(analysis.intervals?.agreed).toBeDefined();
    // gold health reads the platform's gold units: each shown to its three workers
    const goldTweets = await db.tweet.findMany({ where: { eventId: event.id, role: "gold" }, select: { id: true } });
    expect(goldTweets).toHaveLength(2);
    expect(analysis.goldStats.filter((s) => goldTweets.some((g) => g.id === s.tweetId)).map((s) => s.shown)).toEqual([3, 3]);
    const recorded = await loadRecordedEvent(db, event.id);
    expect(recorded.hits.length).toBeGreaterThan(0);
    expect(recorded.hits.every((h) => h.provider === "import")).toBe(true);
    expect(await db.acceptedLabel.count({ where: { eventId: event.id } })).toBe(10);

    // the same file again adds nothing
    const again = await importFile(db, event.id, crowdflowerReport(), { repeats: "first" });
    expect(again.message).toMatch(/Already imported/);
    expect(await db.judgment.count()).toBe(36);

    // the exports' manifest names the source file by its SHA-256 (once: the copy that added nothing is not a source)
    const manifest = await buildManifest(db, { eventIds: [event.id], seed: null });
    expect(manifest.events[0].sources).toEqual([
      { kind: "judgments", fileName: "report.csv", format: done.format, sha256: createHash("sha256").update(crowdflowerReport()).digest("hex"), rowsStored: 36, importedAt: expect.any(String) },
    ]);
    expect(done.format).toBe("crowdflower");
  });

  it("a malformed row is named and nothing is stored", async () => {
    const { db } = t;
    const event = await makeEvent(db);
    await saveLabelMap(db, { eventId: event.id, map: CF_LABEL_MAP, actor: null });
    const bad = await importFile(db, event.id, crowdflowerReport({ repeats: 0, malformed: true }));
    expect(bad.status).toBe("failed");
    expect(bad.message).toMatch(/Nothing was stored: 1 row could not be read \(line \d+: time "yesterday at noon"/);
    expect(bad.errors).toHaveLength(1);
    expect(await db.tweet.count()).toBe(0);
    expect(await db.hit.count()).toBe(0);
  });

  it("MTurk batch results: one HIT per HITId, a rejected assignment not counted", async () => {
    const { db } = t;
    const event = await makeEvent(db);
    await saveLabelMap(db, { eventId: event.id, map: { Other: "other_relevant_information" }, actor: null });
    const done = await importFile(db, event.id, mturkBatch());
    expect(done.status, done.message ?? "").toBe("completed");
    expect(await db.hit.count({ where: { importId: done.id } })).toBe(4);
    expect(await db.assignment.count({ where: { status: "rejected" } })).toBe(1);
    expect(await countedJudgments(db, event.id)).toHaveLength(33);
    expect(new Set((await db.worker.findMany()).map((w) => w.provider))).toEqual(new Set(["import:mturk"]));
  });

  it("decides each tweet over ALL its counted judgments with the event's minimum: one judgment is not enough, a later file's votes join the earlier ones", async () => {
    const { db } = t;
    const event = await makeEvent(db);
    const plain = (rows: Array<[string, string, string]>) =>
      ["item,annotator,label,submitted_at,text", ...rows.map(([item, who, label], i) => `${item},${who},${label},2020-01-01T10:0${i}:00Z,tweet ${item}`)].join("\n") + "\n";
    const first = await importFile(db, event.id, plain([
      ["801", "p1", "sympathy_and_support"],
      ["802", "p1", "sympathy_and_support"],
      ["802", "p2", "sympathy_and_support"],
      ["802", "p3", "sympathy_and_support"],
    ]));
    expect(first.status, first.message ?? "").toBe("completed");
    const tweet = (id: string) => db.tweet.findFirstOrThrow({ where: { externalId: id }, include: { acceptedLabel: true } });
    // 1 of 1 is not a decision: the event asks for 3 judgments per tweet
    expect((await tweet("801")).acceptedLabel).toBeNull();
    expect((await tweet("801")).status).toBe("judged");
    expect((await tweet("802")).acceptedLabel).toMatchObject({ label: "sympathy_and_support", topVotes: 3, totalVotes: 3 });

    const second = await importFile(db, event.id, plain([
      ["801", "p2", "sympathy_and_support"],
      ["801", "p3", "sympathy_and_support"],
      ["802", "p4", "not_humanitarian"],
      ["802", "p5", "not_humanitarian"],
    ]));
    expect(second.status, second.message ?? "").toBe("completed");
    // the earlier judgment counts with this file's two
    expect((await tweet("801")).acceptedLabel).toMatchObject({ label: "sympathy_and_support", topVotes: 3, totalVotes: 3 });
    expect((await tweet("801")).status).toBe("accepted");
    // 3 of 5 fails the 2/3 rule: the earlier label is withdrawn, not replaced by this file's 2 of 2
    expect((await tweet("802")).acceptedLabel).toBeNull();
    expect((await tweet("802")).status).toBe("unresolved");
    expect(await db.acceptedLabel.count({ where: { eventId: event.id } })).toBe(1);
  });

  it("an unexpected error or a cancel ends the import (failed or cancelled, its file free again), never left running", async () => {
    const { db } = t;
    const event = await makeEvent(db);
    await saveLabelMap(db, { eventId: event.id, map: { Other: "other_relevant_information" }, actor: null });
    const text = mturkBatch();
    const filePath = files.write("batch.csv", text);
    const mapping = detectMapping(readCsvRecords(text).header)!;
    const run = async (ctxChange: Partial<JobContext>) => {
      const { importId, jobId } = await createJudgmentImport({ db, eventId: event.id, fileName: "batch.csv", filePath, mapping, via: "cli" });
      const job = (await db.job.findUniqueOrThrow({ where: { id: jobId } })) as unknown as JobRecord;
      const ctx: JobContext = { db, job, owner: "test", signal: new AbortController().signal, progress: async () => undefined, throwIfCancelled: async () => undefined, ...ctxChange };
      const outcome = await runJudgmentImportJob(ctx, { importId, filePath }).then(
        () => null,
        (err: unknown) => err,
      );
      return { outcome, batch: await db.importBatch.findUniqueOrThrow({ where: { id: importId } }) };
    };
    // a failure nobody expected (here: at the "Storing" step) with a path in its message
    const failed = await run({
      progress: async (done) => {
        if (done === 2) throw new Error("ENOENT: /var/lib/accord/secret/path");
      },
    });
    expect(failed.outcome).toBeInstanceOf(Error);
    expect(failed.batch).toMatchObject({ status: "failed", activeKey: null });
    expect(failed.batch.message).toMatch(/Something went wrong on the server \(logged as \w+\)/);
    expect(failed.batch.message).not.toMatch(/secret|ENOENT/);
    expect(await db.judgment.count()).toBe(0);
    // cancelled between steps: nothing stored, the file may be uploaded again
    const cancelled = await run({
      throwIfCancelled: async () => {
        throw new JobCancelled();
      },
    });
    expect(cancelled.outcome).toBeInstanceOf(JobCancelled);
    expect(cancelled.batch).toMatchObject({ status: "cancelled", activeKey: null, message: "Cancelled: nothing was stored." });
    expect(await db.judgment.count()).toBe(0);
    // and the same file imports afterwards
    const done = await importFile(db, event.id, text);
    expect(done.status, done.message ?? "").toBe("completed");
  });

  it("an imported event goes on collecting on a crowd: its tweets without an accepted label go back to the publish queue and are packed into new HITs", async () => {
    const { db } = t;
    const event = await makeEvent(db);
    await saveLabelMap(db, { eventId: event.id, map: CF_LABEL_MAP, actor: null });
    // two workers per unit, the event asks for 3 judgments per tweet: none of the 10 non-gold units has a label yet
    const done = await importFile(db, event.id, crowdflowerReport({ workersPerUnit: 2, repeats: 0 }));
    expect(done.status, done.message ?? "").toBe("completed");
    expect(await db.acceptedLabel.count({ where: { eventId: event.id } })).toBe(0);
    const unresolved = await db.tweet.findMany({ where: { eventId: event.id, role: "unknown", status: { in: ["judged", "unresolved"] } }, select: { id: true, externalId: true } });
    expect(unresolved).toHaveLength(10);
    expect(await countReopenable(db, event.id)).toBe(10);
    expect(await reopenUnresolvedImported(db, { eventId: event.id })).toEqual({ reopened: 10 });
    expect(await db.tweet.count({ where: { eventId: event.id, status: "pending", role: "unknown" } })).toBe(10);
    await expect(reopenUnresolvedImported(db, { eventId: event.id })).rejects.toThrow(/nothing more to collect/);

    // Publishing on the event's crowd (here the in-house crowd) packs them with gold into a new HIT; a HIT is full or
    // not made, so with fewer than 20 such tweets the event's HIT size is lowered first (Settings).
    await db.event.update({ where: { id: event.id }, data: { provider: PROVIDER_KIND.local } });
    await expect(createHitBatch({ db, eventId: event.id, options: { ...PUBLISH_OPTIONS, hitCount: 1 } })).rejects.toThrow(/10 unknown tweets are waiting and a HIT needs 20/);
    await db.event.update({ where: { id: event.id }, data: { settings: { hitSize: 20, goldPerHit: 10 } } });
    for (let i = 0; i < 10; i++) {
      await db.tweet.create({ data: { eventId: event.id, externalId: `gold-${i}`, text: `expert gold tweet ${i} about the storm`, role: "gold", goldLabel: "not_humanitarian" } });
    }
    const { batch } = await createHitBatch({ db, eventId: event.id, options: { ...PUBLISH_OPTIONS, hitCount: 1, seed: 7 } });
    const [hit] = await db.hit.findMany({ where: { batchId: batch.id }, include: { items: true } });
    expect(hit.provider).toBe(PROVIDER_KIND.local);
    expect(hit.items.filter((it) => !it.isGold).map((it) => it.tweetId).sort()).toEqual(unresolved.map((u) => u.id).sort());
    expect(await db.tweet.count({ where: { id: { in: unresolved.map((u) => u.id) }, status: "in_hit" } })).toBe(10);
  });
});
