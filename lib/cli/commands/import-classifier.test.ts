import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { syntheticTweets } from "@/lib/classify/synthetic.fixture";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import type { Funnel } from "@/lib/ingest/funnel";
import { createImport } from "@/lib/ingest/import-job";
import { getImport } from "@/lib/ingest/import-queries";
import { tempFiles } from "@/lib/ingest/testing/test-io";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import { drainJobs } from "@/lib/jobs/runner";
import { seedLabelledEvent } from "@/lib/models/test-fixture";
import { trainModelOnEvents } from "@/lib/models/train-job";

// `accord import` runs the same job handlers as the web server: with the classifier step on, both drop the same tweets.
const files = tempFiles("accord-import-cli-classifier-");
afterAll(() => files.cleanup());

describe("accord import with the classifier step", () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb("sqlite");
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("filters like the web import", async () => {
    const source = await seedLabelledEvent(t.db, { slug: "source", tweets: 200, seed: 7 });
    await trainModelOnEvents(t.db, { request: { name: "humanitarian", eventIds: [source.eventId] }, options: { hashBits: 16 } });
    const filters = { duplicates: { enabled: false }, classifier: { enabled: true } };
    const [web, cli] = await Promise.all(
      ["web", "cli"].map((slug) => t.db.event.create({ data: { slug, name: slug, type: "flood", schemeId: source.schemeId, settings: {}, locations: [], filters } })),
    );
    const { texts } = syntheticTweets(40, 31);
    const rows = texts.map((x, i) => `${1_500_000_000_000_000_000n + BigInt(i)},"${x} item ${i}",en`);
    const csv = files.write("new-tweets.csv", `id,text,lang\n${rows.join("\n")}\n`);

    // The web import: the upload route's createImport, run by the server's job registry.
    const created = await createImport({ db: t.db, eventId: web.id, kind: "tweets", fileName: path.basename(csv), filePath: csv });
    expect(await drainJobs(t.db, { registry: accordJobs(), types: [JOBS.import.type] })).toEqual(["succeeded"]);
    const webFunnel = (await getImport(t.db, { importId: created.importId }))?.funnel as Funnel;
    const webClassifier = webFunnel.find((s) => s.step === "classifier");
    expect(webClassifier?.kept).toBeLessThan(40);

    // The real command in its own process, against the same database.
    const { stdout } = await promisify(execFile)(process.execPath, ["scripts/accord.mjs", "import", "--event", "cli", csv, "--json"], {
      env: { ...process.env, DATABASE_URL: t.url },
    });
    const out = JSON.parse(stdout) as { status: string; funnel: Funnel };
    expect(out.status).toBe("completed");
    // The same row but for its time (each funnel step records how long it took).
    const withoutTime = (step: Funnel[number] | undefined) => (step ? { ...step, ms: undefined } : step);
    expect(withoutTime(out.funnel.find((s) => s.step === "classifier"))).toEqual(withoutTime(webClassifier));
    expect(await t.db.tweet.count({ where: { eventId: cli.id } })).toBe(await t.db.tweet.count({ where: { eventId: web.id } }));
  });
});
