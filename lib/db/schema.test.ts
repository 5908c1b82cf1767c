import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ModelName } from "@/generated/sqlite/internal/prismaNamespace";
import { createTestDb, testFlavors, type TestDb } from "./test-db";

const run = promisify(execFile);

function normalise(schema: string): string {
  return schema
    .split("\n")
    .filter((l) => !l.startsWith("//"))
    .join("\n")
    .replace(/output\s*=\s*"[^"]*"/, 'output = "…"')
    .replace(/provider\s*=\s*"(sqlite|postgresql)"/, 'provider = "…"');
}

describe("schemas and migrations", () => {
  it("prisma/sqlite and prisma/postgres hold the same models", () => {
    const sqlite = fs.readFileSync("prisma/sqlite/schema.prisma", "utf8");
    const postgres = fs.readFileSync("prisma/postgres/schema.prisma", "utf8");
    expect(normalise(postgres)).toBe(normalise(sqlite));
  });

  it.each(testFlavors())("the %s migrations match its schema (no drift)", async (flavor) => {
    const url = flavor === "sqlite" ? `file:${path.resolve(".tmp/drift-check.db")}` : (process.env.DATABASE_URL_PG as string);
    const dir = flavor === "sqlite" ? "sqlite" : "postgres";
    // Exit code 0 = no difference, 2 = drift (prisma migrate diff --exit-code).
    const res = await run(
      process.execPath,
      ["node_modules/prisma/build/index.js", "migrate", "diff", "--from-migrations", `prisma/${dir}/migrations`, "--to-schema", `prisma/${dir}/schema.prisma`, "--exit-code"],
      { env: { ...process.env, DATABASE_URL: url } },
    ).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );
    expect(res.code, res.out).toBe(0);
  });
});

describe.each(testFlavors())("every model round-trips on %s", (flavor) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(flavor);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("creates, links and reads back one row of each model", async () => {
    const db = t.db;
    const user = await db.user.create({ data: { email: "r@example.org", name: "R", passwordHash: "h", role: "researcher" } });
    await db.loginThrottle.create({ data: { key: "email:r@example.org", failures: 2 } });
    await db.session.create({ data: { id: "sha256-of-a-token", userId: user.id, expiresAt: new Date("2026-12-08T00:00:00Z") } });
    const scheme = await db.labelScheme.create({
      data: { slug: "s", name: "S", labels: { create: [{ value: "a", name: "A", position: 0 }, { value: "b", name: "B", position: 1 }] } },
    });
    const event = await db.event.create({
      data: {
        slug: "ev", name: "Event", type: "flood", schemeId: scheme.id, locations: [{ name: "Kerala", aliases: ["Keralam"] }],
        settings: { assignmentApproval: { num: 7, den: 10 } }, filters: { minWords: 3 }, createdById: user.id, startDate: new Date("2018-08-17T00:00:00Z"),
      },
    });
    const job = await db.job.create({ data: { type: "import", payload: { file: "x.tsv" }, eventId: event.id, createdById: user.id } });
    const batch = await db.importBatch.create({
      data: {
        eventId: event.id,
        kind: "tweets",
        fileName: "x.tsv",
        fileHash: "abc",
        fileSize: 10,
        jobId: job.id,
        createdById: user.id,
        errors: { create: [{ line: 3, column: "text", reason: "empty text" }] },
        staged: { create: [{ id: "staged-1", eventId: event.id, externalId: "1031295138342842370", text: "staged", role: "unknown", status: "pending", createdAt: new Date() }] },
      },
    });
    // Tweet ids beyond 2^53 are kept as text, unchanged.
    const t1 = await db.tweet.create({ data: { eventId: event.id, externalId: "1031295138342842368", text: "Flood <script>alert(1)</script> & “quotes” 🌊", importId: batch.id, latitude: 9.93, longitude: 76.26 } });
    const t2 = await db.tweet.create({ data: { eventId: event.id, externalId: "1031295138342842369", text: "dup", duplicateOfId: t1.id } });
    const gold = await db.tweet.create({ data: { eventId: event.id, externalId: "9", text: "gold", role: "gold", goldLabel: "a" } });
    const worker = await db.worker.create({ data: { provider: "mturk", externalId: "A1B2C3D4E5F6G7" } });
    const qt = await db.qualificationTest.create({
      data: { eventId: event.id, schemeId: scheme.id, name: "Q", provider: "mturk", goldTweetIds: [gold.id], questionFormXml: "<QuestionForm/>", answerKeyXml: "<AnswerKey/>" },
    });
    await db.qualificationResult.create({ data: { testId: qt.id, workerId: worker.id, score: 60, passed: true } });
    const hitBatch = await db.hitBatch.create({
      data: { eventId: event.id, hitCount: 1, rewardCents: 50, assignmentsPerHit: 3, lifetimeSeconds: 86400, durationSeconds: 3600, autoApprovalSeconds: 259200, title: "T", description: "D", estimatedCostCents: 180 },
    });
    const hit = await db.hit.create({
      data: { eventId: event.id, batchId: hitBatch.id, seq: 1, provider: "mturk", uniqueRequestToken: "accord-hit-1", maxAssignments: 3, rewardCents: 50, seed: 1, providerHitId: "3AB" },
    });
    const item = await db.hitItem.create({ data: { hitId: hit.id, tweetId: t1.id, position: 0, isGold: false } });
    const assignment = await db.assignment.create({
      data: { hitId: hit.id, workerId: worker.id, providerAssignmentId: "3IX", providerStatus: "Submitted", decisionReason: { rule: "gold", correct: 7, total: 10 } },
    });
    await db.judgment.create({ data: { assignmentId: assignment.id, hitItemId: item.id, tweetId: t1.id, workerId: worker.id, label: "a", isGold: false } });
    await db.assignmentAnswer.create({ data: { assignmentId: assignment.id, raw: "<QuestionFormAnswers/>" } });
    await db.acceptedLabel.create({ data: { tweetId: t1.id, eventId: event.id, label: "a", topVotes: 2, totalVotes: 3, votes: { a: 2, b: 1 } } });
    await db.auditLog.create({ data: { actorType: "system", eventId: event.id, entityType: "assignment", entityId: assignment.id, action: "approve", reason: "7/10 gold", details: { correct: 7 } } });
    await db.costEntry.create({ data: { eventId: event.id, hitId: hit.id, assignmentId: assignment.id, workerId: worker.id, kind: "reward", amountCents: 50, reference: `reward:${assignment.id}` } });
    await db.metricSnapshot.create({ data: { eventId: event.id, judgments: 3, tweetsAccepted: 1, fleissKappa: 0.55 } });
    await db.classifierModel.create({ data: { name: "m", version: 1, schemeId: scheme.id, kind: "tfidf-logreg", trainedOn: { rows: 1 }, model: new Uint8Array([1, 2, 3]) } });
    await db.setting.create({ data: { key: "budget.capCents", value: 10000 } });
    await db.settingChange.create({ data: { eventId: event.id, scope: "procedure", key: "tweetAcceptance", oldValue: { num: 2, den: 3 }, newValue: { num: 3, den: 4 }, actorId: user.id, actorEmail: user.email } });
    await db.localCrowdRecord.create({ data: { scope: "assignment", key: "L1", parent: "LHIT1", data: { status: "Submitted" } } });
    const llmRun = await db.llmRun.create({
      data: { eventId: event.id, model: "accord-sim-1", baseUrl: "http://127.0.0.1:9420/v1", temperature: 0, promptVersion: "1", exampleTweetIds: [gold.id], inputPricePerMillion: 0.15 },
    });
    await db.llmLabel.createMany({ data: [{ runId: llmRun.id, tweetId: t1.id, label: "a" }, { runId: llmRun.id, tweetId: t2.id, label: null }] });

    const read = await db.tweet.findUniqueOrThrow({ where: { id: t1.id }, include: { duplicates: true, acceptedLabel: true, judgments: true } });
    expect(read.externalId).toBe("1031295138342842368");
    expect(read.text).toBe("Flood <script>alert(1)</script> & “quotes” 🌊");
    expect(read.duplicates.map((d) => d.id)).toEqual([t2.id]);
    expect(read.acceptedLabel?.votes).toEqual({ a: 2, b: 1 });
    expect(read.judgments).toHaveLength(1);
    const ev = await db.event.findUniqueOrThrow({ where: { id: event.id }, include: { scheme: { include: { labels: { orderBy: { position: "asc" } } } } } });
    expect(ev.scheme.labels.map((l) => l.value)).toEqual(["a", "b"]);
    expect(ev.locations).toEqual([{ name: "Kerala", aliases: ["Keralam"] }]);
    expect((await db.classifierModel.findFirstOrThrow()).model).toEqual(new Uint8Array([1, 2, 3]));
    expect(await db.costEntry.findUnique({ where: { reference: `reward:${assignment.id}` } })).not.toBeNull();
    expect((await db.assignment.findUniqueOrThrow({ where: { id: assignment.id }, include: { answer: true } })).answer?.raw).toBe("<QuestionFormAnswers/>");
    // The ledger's idempotency key refuses a second entry for the same thing.
    await expect(db.costEntry.create({ data: { eventId: event.id, kind: "reward", amountCents: 50, reference: `reward:${assignment.id}` } })).rejects.toThrow();

    // Every model of the schema was exercised above (a new model must be added to this test).
    const counts: Record<string, number> = {};
    for (const model of Object.values(ModelName)) {
      const delegate = (db as unknown as Record<string, { count(): Promise<number> }>)[model.charAt(0).toLowerCase() + model.slice(1)];
      counts[model] = await delegate.count();
    }
    for (const [model, n] of Object.entries(counts)) expect(n, model).toBeGreaterThan(0);

    // Deleting the event cascades to everything that belongs to it.
    await db.event.delete({ where: { id: event.id } });
    expect(await db.tweet.count()).toBe(0);
    expect(await db.stagedTweet.count()).toBe(0);
    expect(await db.llmLabel.count()).toBe(0);
    expect(await db.llmRun.count()).toBe(0);
    expect(await db.judgment.count()).toBe(0);
    expect(await db.assignmentAnswer.count()).toBe(0);
    expect(await db.settingChange.count()).toBe(0);
    expect(await db.worker.count()).toBe(1);
  });
});
