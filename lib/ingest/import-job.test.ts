import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { UserError } from "@/lib/errors";
import { listImports } from "@/lib/events/imports";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { requestCancel } from "@/lib/jobs/queue";
import { drainJobs } from "@/lib/jobs/runner";
import { subscribeLive } from "@/lib/live/bus";
import { createRng, randomInt } from "@/lib/util/random";
import type { Funnel } from "./funnel";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { createImport, type ImportClassifierLoader, IMPORT_JOB_TYPE } from "./import-job";
import { cancelImport, getImport, importErrorsCsv } from "./import-queries";
import { adversarialTsv } from "./testing/adversarial";
import { tempFiles } from "./testing/test-io";

const files = tempFiles("accord-import-");
afterAll(() => files.cleanup());
const writeFile = (name: string, content: string) => files.write(name, content);

function tsv(rows: Array<[string, string, string?]>, header = "tweet_id\ttweet_text\tclass_label"): string {
  return [header, ...rows.map((r) => r.filter((x) => x !== undefined).join("\t"))].join("\n") + "\n";
}

async function makeEvent(db: Db, { slug = "harvey", filters = {}, locations = [] as unknown[] } = {}) {
  const schemeId = await ensureHumaidScheme(db);
  return db.event.create({
    data: { slug, name: slug, type: "hurricane", schemeId, settings: {}, filters, locations: locations as object[] },
  });
}

async function runImport(db: Db, args: { eventId: string; filePath: string; fileName?: string; kind?: "tweets" | "gold" }) {
  const created = await createImport({ db, eventId: args.eventId, kind: args.kind ?? "tweets", fileName: args.fileName ?? path.basename(args.filePath), filePath: args.filePath });
  const outcomes = await drainJobs(db, { registry, types: [IMPORT_JOB_TYPE] });
  const view = await getImport(db, { importId: created.importId });
  if (!view) throw new Error("import missing");
  return { created, outcomes, view };
}

// The classifier the import job's classifier step gets, set per test (none by default).
let classifierLoader: ImportClassifierLoader | null = null;
const setImportClassifierLoader = (loader: ImportClassifierLoader | null) => {
  classifierLoader = loader;
};
const registry = accordJobs({ loadClassifier: async (args) => (classifierLoader ? classifierLoader(args) : null) });

describe.each(testFlavors())("import job on %s", (flavor) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(flavor);
  });
  afterEach(async () => {
    setImportClassifierLoader(null);
    await t.cleanup();
  });

  it("imports a HumAID TSV: filtered, deduplicated, stored with its funnel and per-row errors", async () => {
    // The event's label map drops the label from another scheme (without one, the import would wait for a mapping).
    const event = await makeEvent(t.db, { filters: { labels: { map: { "off-topic": null } } } });
    const file = writeFile(
      "harvey.tsv",
      tsv([
        ["901646074527535105", "Roads flooded near downtown Houston, stay inside", "caution_and_advice"],
        ["901646074527535106", "RT @x: roads flooded near downtown Houston, stay inside http://t.co/a", "caution_and_advice"],
        ["901646074527535107", "Shelter at the convention center needs volunteers", "Rescue, volunteering, or donation effort"],
        ["901646074527535108", "", "not_humanitarian"],
        ["901646074527535105", "Same id twice in one file", "not_humanitarian"],
        ["901646074527535109", "ok", "not_humanitarian"],
        ["901646074527535110", "A tweet with a label from another scheme", "off-topic"],
      ]),
    );
    const live: unknown[] = [];
    const stop = subscribeLive((m) => {
      if (m.kind === "import") live.push(m.data);
    });
    const { outcomes, view } = await runImport(t.db, { eventId: event.id, filePath: file });
    stop();
    expect(outcomes).toEqual(["succeeded"]);
    expect(view).toMatchObject({ status: "completed", format: "humaid-tsv", rowsRead: 7, rowsStored: 2, errorCount: 2 });
    expect(view.job).toMatchObject({ state: "succeeded", progressDone: 7, progressTotal: 7 });
    // The Data tab's list reads the same columns, with the job's progress.
    const [row] = await listImports(t.db, event.id);
    expect(row).toMatchObject({ id: view.id, kind: "tweets", status: "completed", format: "humaid-tsv", rowsRead: 7, rowsStored: 2, errorCount: 2, createdBy: null });
    expect(row.funnel).toEqual(view.funnel);
    expect(row.progress).toMatchObject({ jobId: view.job?.id, state: "succeeded", done: 7, total: 7 });
    const funnel = view.funnel as Funnel;
    expect(funnel.map((s) => [s.step, s.in, s.kept])).toEqual([
      ["read", 7, 7],
      ["valid", 7, 5],
      ["labelMap", 5, 4],
      ["date", 4, 4],
      ["location", 4, 4],
      ["language", 4, 4],
      ["classifier", 4, 4],
      ["wordCount", 4, 3],
      ["duplicates", 3, 2],
      ["sampling", 2, 2],
      ["stored", 2, 2],
    ]);
    const tweets = await t.db.tweet.findMany({ where: { eventId: event.id }, orderBy: { externalId: "asc" } });
    expect(tweets.map((x) => [x.externalId, x.role, x.sourceLabel, x.goldLabel, x.lang, x.importId])).toEqual([
      ["901646074527535105", "unknown", "caution_and_advice", null, "en", view.id],
      ["901646074527535107", "unknown", "rescue_volunteering_or_donation_effort", null, "en", view.id],
    ]);
    // The time comes from the snowflake id.
    expect(tweets[0].tweetedAt?.toISOString().slice(0, 10)).toBe("2017-08-27");
    const report = parse(await importErrorsCsv(t.db, { importId: view.id })) as string[][];
    expect(report).toEqual([
      ["line", "column", "reason", "raw"],
      ["5", "tweet_text", "empty text", "901646074527535108\t\tnot_humanitarian"],
      ["6", "tweet_id", "duplicate id 901646074527535105 (first on line 2)", "901646074527535105\tSame id twice in one file\tnot_humanitarian"],
    ]);
    expect(live).toContainEqual(expect.objectContaining({ importId: view.id, status: "completed", rowsStored: 2 }));
    const audit = await t.db.auditLog.findMany({ where: { entityId: view.id }, orderBy: { at: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["upload", "import"]);
  });

  it("adds nothing when the same file is imported again, and says so", async () => {
    const event = await makeEvent(t.db);
    const content = tsv([["1001", "Power is out across the whole county tonight", "infrastructure_and_utility_damage"]]);
    const first = await runImport(t.db, { eventId: event.id, filePath: writeFile("a.tsv", content) });
    expect(first.view.rowsStored).toBe(1);
    const second = await runImport(t.db, { eventId: event.id, filePath: writeFile("copy.tsv", content), fileName: "copy.tsv" });
    expect(second.created.sameFileAs?.importId).toBe(first.view.id);
    expect(second.view).toMatchObject({ status: "completed", rowsStored: 0 });
    expect(second.view.message).toMatch(/already imported.*nothing new was added/);
    expect(await t.db.tweet.count({ where: { eventId: event.id } })).toBe(1);
  });

  it("reports ids already stored for the event and drops near-duplicates of stored tweets", async () => {
    const event = await makeEvent(t.db);
    await runImport(t.db, { eventId: event.id, filePath: writeFile("a.tsv", tsv([["1", "Bridge on highway six is closed both ways"]], "tweet_id\ttweet_text")) });
    const { view } = await runImport(t.db, {
      eventId: event.id,
      filePath: writeFile(
        "b.tsv",
        tsv(
          [
            ["1", "A different text but the same id"],
            ["2", "bridge on highway six is closed both ways!!"],
            ["3", "Volunteers are sorting donations at the church"],
          ],
          "tweet_id\ttweet_text",
        ),
      ),
    });
    expect(view).toMatchObject({ rowsStored: 1, errorCount: 1 });
    const dup = (view.funnel as Funnel).find((s) => s.step === "duplicates");
    expect(dup?.reasons).toEqual({ "near-duplicate of a stored tweet": 1 });
    expect(dup?.note).toMatch(/compared with 1 stored tweets/);
    expect((await t.db.tweet.findMany({ where: { eventId: event.id } })).map((x) => x.externalId).sort()).toEqual(["1", "3"]);
  });

  it("imports gold apart from the unknown pool, with scheme labels only", async () => {
    // A gold label mapped to a label outside the scheme is still a row error (gold needs scheme labels).
    const event = await makeEvent(t.db, { filters: { labels: { map: { "on-topic": "on-topic" } } } });
    await runImport(t.db, { eventId: event.id, filePath: writeFile("pool.tsv", tsv([["10", "Families evacuated from the flooded neighbourhood", "displaced_people_and_evacuations"]])) });
    const { view } = await runImport(t.db, {
      kind: "gold",
      eventId: event.id,
      filePath: writeFile(
        "gold.csv",
        "tweet_id,text,label\n" +
          '20,"Families evacuated from the flooded neighbourhood",displaced_people_and_evacuations\n' +
          "21,Thoughts and prayers to everyone affected,Sympathy and support\n" +
          "22,Not a scheme label,on-topic\n" +
          "23,No label at all,\n" +
          "24,ok,not_humanitarian\n",
      ),
    });
    expect(view).toMatchObject({ status: "completed", format: "csv", rowsStored: 3, errorCount: 2 });
    // Gold is compared with gold only: the near-duplicate of an unknown tweet stays.
    const gold = await t.db.tweet.findMany({ where: { eventId: event.id, role: "gold" }, orderBy: { externalId: "asc" } });
    expect(gold.map((g) => [g.externalId, g.goldLabel, g.sourceLabel])).toEqual([
      ["20", "displaced_people_and_evacuations", null],
      ["21", "sympathy_and_support", null],
      ["24", "not_humanitarian", null],
    ]);
    expect(await t.db.tweet.count({ where: { eventId: event.id, role: "unknown" } })).toBe(1);
    const errors = await t.db.importError.findMany({ where: { importId: view.id }, orderBy: { line: "asc" } });
    expect(errors.map((e) => [e.line, e.column, e.reason])).toEqual([
      [4, "label", 'label "on-topic" is not in the event\'s scheme (humaid)'],
      [5, "label", "gold rows need a label"],
    ]);
  });

  it("applies the event's settings: location, classifier (injected) and sampling", async () => {
    const event = await makeEvent(t.db, {
      filters: { location: { noLocation: "drop" }, classifier: { enabled: true }, sampling: { enabled: true, by: "prediction", perClass: 1, seed: 4 } },
      locations: [{ name: "Puerto Rico", aliases: ["PR"] }],
    });
    setImportClassifierLoader(async ({ eventId }) => {
      expect(eventId).toBe(event.id);
      return { predict: (texts) => texts.map((x) => (/game/i.test(x) ? "not_humanitarian" : /water/i.test(x) ? "requests_or_urgent_needs" : "other_relevant_information")) };
    });
    const csv =
      "id,text,user_location,lang\n" +
      "1,Clean water needed in Ponce right now,\"Ponce, Puerto Rico\",en\n" +
      "2,Drinking water is running out in Caguas,\"Caguas, PR\",en\n" +
      "3,Great game tonight everyone watch it,San Juan PR,en\n" +
      "4,Roads in the mountains are still blocked,Utuado PR,en\n" +
      "5,No location for this tweet at all,,en\n" +
      "6,Power lines are down all over Miami,Miami,en\n";
    const { view } = await runImport(t.db, { eventId: event.id, filePath: writeFile("maria.csv", csv) });
    const byStep = Object.fromEntries((view.funnel as Funnel).map((s) => [s.step, s]));
    expect(byStep.location).toMatchObject({ in: 6, kept: 4, reasons: { "no location information": 1, "user location not among the event's locations": 1 } });
    expect(byStep.classifier).toMatchObject({ in: 4, kept: 3, reasons: { "predicted not_humanitarian": 1 } });
    expect(byStep.sampling).toMatchObject({ in: 3, kept: 2 });
    const stored = await t.db.tweet.findMany({ where: { eventId: event.id } });
    expect(stored.map((s) => s.predictedLabel).sort()).toEqual(["other_relevant_information", "requests_or_urgent_needs"]);
    expect(stored.every((s) => s.userLocation)).toBe(true);
  });

  it("is atomic: a cancel or a crash leaves no rows behind", async () => {
    const event = await makeEvent(t.db);
    const rows: string[] = [];
    const rng = createRng(9);
    const vocabulary = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}`);
    for (let i = 0; i < 3_000; i++) {
      const words = Array.from({ length: 8 }, () => vocabulary[randomInt(rng, vocabulary.length)]);
      rows.push(`${5000 + i}\t${words.join(" ")}\tother_relevant_information\ten`);
    }
    const file = writeFile("big.tsv", `tweet_id\ttweet_text\tclass_label\tlang\n${rows.join("\n")}\n`);

    // Cancel while it runs (here: when the classifier step is reached).
    const created = await createImport({ db: t.db, eventId: event.id, kind: "tweets", fileName: "big.tsv", filePath: file });
    await t.db.event.update({ where: { id: event.id }, data: { filters: { classifier: { enabled: true } } } });
    setImportClassifierLoader(async () => {
      const batch = await t.db.importBatch.findUniqueOrThrow({ where: { id: created.importId } });
      // Read again before storing starts, however recently the job last looked (no waiting for the throttle).
      await requestCancel(t.db, { jobId: batch.jobId as string });
      return { predict: (texts) => texts.map(() => "other_relevant_information") };
    });
    expect(await drainJobs(t.db, { registry, types: [IMPORT_JOB_TYPE] })).toEqual(["cancelled"]);
    expect(await getImport(t.db, { importId: created.importId })).toMatchObject({ status: "cancelled", message: "Cancelled: nothing was stored." });
    expect(await t.db.tweet.count()).toBe(0);

    // A crash inside the storing transaction (a clashing id inserted behind the import's back) rolls
    // everything back; the retry then reports the clash as a per-row error.
    // (The classifier runs after the worker has checked the ids against the stored tweets.)
    let inserted = false;
    setImportClassifierLoader(async () => ({
      predict: async (texts) => {
        if (!inserted) {
          inserted = true;
          await t.db.tweet.create({ data: { eventId: event.id, externalId: "7999", text: "inserted meanwhile" } });
        }
        return texts.map(() => "other_relevant_information");
      },
    }));
    const again = await createImport({ db: t.db, eventId: event.id, kind: "tweets", fileName: "big.tsv", filePath: file });
    const first = await drainJobs(t.db, { registry, types: [IMPORT_JOB_TYPE] });
    expect(first).toEqual(["retrying"]);
    expect(await t.db.tweet.count({ where: { importId: again.importId } })).toBe(0);
    expect((await getImport(t.db, { importId: again.importId }))?.status).toBe("queued");
    await t.db.job.updateMany({ where: { state: "queued" }, data: { runAfter: new Date() } });
    setImportClassifierLoader(null);
    await t.db.event.update({ where: { id: event.id }, data: { filters: {} } });
    expect(await drainJobs(t.db, { registry, types: [IMPORT_JOB_TYPE] })).toEqual(["succeeded"]);
    const done = await getImport(t.db, { importId: again.importId });
    expect(done).toMatchObject({ status: "completed", errorCount: 1 });
    expect(await t.db.tweet.count({ where: { importId: again.importId } })).toBe(2_999);
  });

  it("runs the heavy work off the event loop: a request is answered while the near-duplicate step runs; adversarial text stops at the dedupe cap, timed per step", async () => {
    const event = await makeEvent(t.db);
    const file = writeFile("adversarial.tsv", adversarialTsv({ rows: 3_000 }));
    const created = await createImport({ db: t.db, eventId: event.id, kind: "tweets", fileName: "adversarial.tsv", filePath: file });
    // A tiny server on this thread: it can only answer when this thread's event loop is free.
    const server = http.createServer((_req, res) => res.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const events: string[] = [];
    let answered: Promise<void> = Promise.resolve();
    const unsubscribe = subscribeLive((m) => {
      if (m.kind !== "import" || m.data?.importId !== created.importId || m.data?.phase !== "filtering") return;
      events.push(`step ${String(m.data.step)}`);
      // The import thread has started the near-duplicate search (seconds of work on this file): ask the server now.
      if (m.data.step === "duplicates") answered = fetch(`http://127.0.0.1:${port}/`).then(async (r) => void events.push(`answered ${await r.text()}`));
    });
    try {
      expect(await drainJobs(t.db, { registry, types: [IMPORT_JOB_TYPE] })).toEqual(["succeeded"]);
      await answered;
    } finally {
      unsubscribe();
      server.close();
    }
    // The order of events, not their times: the answer came while the thread was still comparing texts.
    const from = events.indexOf("step duplicates");
    expect(from, events.join(", ")).toBeGreaterThanOrEqual(0);
    expect(events.slice(from), events.join(", ")).toEqual(["step duplicates", "answered ok", "step sampling"]);
    const view = await getImport(t.db, { importId: created.importId });
    const funnel = view?.funnel as Funnel;
    const dup = funnel.find((s) => s.step === "duplicates");
    expect(dup?.note).toMatch(/approximate for [\d,]+ rows: their search stopped at 20,000 steps/);
    expect(dup?.details?.["rows compared only in part (search cap reached)"]).toBeGreaterThan(0);
    for (const step of funnel.filter((s) => s.enabled)) expect(step.ms, step.step).toBeGreaterThanOrEqual(0);
  });

  it("cancels a queued import at once, and refuses bad uploads up front", async () => {
    const event = await makeEvent(t.db);
    const file = writeFile("q.tsv", tsv([["1", "some text for the queue test"]]));
    const created = await createImport({ db: t.db, eventId: event.id, kind: "tweets", fileName: "q.tsv", filePath: file });
    await cancelImport(t.db, { importId: created.importId });
    expect(await getImport(t.db, { importId: created.importId })).toMatchObject({ status: "cancelled" });
    expect(await drainJobs(t.db, { registry, types: [IMPORT_JOB_TYPE] })).toEqual([]);
    await expect(cancelImport(t.db, { importId: created.importId })).rejects.toThrow(/already cancelled/);

    await t.db.event.update({ where: { id: event.id }, data: { filters: { limits: { maxFileBytes: 10 } } } });
    await expect(createImport({ db: t.db, eventId: event.id, kind: "tweets", fileName: "q.tsv", filePath: file })).rejects.toThrow(/above the 10 bytes limit/);
    await expect(createImport({ db: t.db, eventId: "nope", kind: "tweets", fileName: "q.tsv", filePath: file })).rejects.toBeInstanceOf(UserError);
  });

  it("fails an unreadable file with a clear message and stores nothing", async () => {
    const event = await makeEvent(t.db);
    const { outcomes, view } = await runImport(t.db, { eventId: event.id, filePath: writeFile("notes.csv", "name,comment\nann,hi\n") });
    expect(outcomes).toEqual(["failed"]);
    expect(view.status).toBe("failed");
    expect(view.message).toMatch(/No tweet id column/);
  });
});
