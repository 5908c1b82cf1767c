import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb, testFlavors } from "@/lib/db/test-db";
import type { DbFlavor } from "@/lib/db/url";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { Prisma } from "@/generated/sqlite/client";
import { insertMany, modelInfo, updateManyById, updateSql } from "./bulk";

let t: TestDb | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

async function draftHits(flavor: DbFlavor, n: number) {
  t = await createTestDb(flavor);
  const schemeId = await ensureHumaidScheme(t.db);
  const event = await t.db.event.create({ data: { slug: "e", name: "E", type: "flood", schemeId, provider: "mturk", locations: [], settings: {}, filters: {} } });
  await t.db.hit.createMany({
    data: Array.from({ length: n }, (_, i) => ({ id: `hit${String(i).padStart(4, "0")}`, eventId: event.id, seq: i + 1, provider: "mturk", uniqueRequestToken: `tok${i}`, maxAssignments: 3, rewardCents: 50, seed: i })),
  });
  return t.db;
}

describe.each(testFlavors())("updateManyById on %s", (flavor) => {
  it("writes each row's own values, only where the condition holds, and returns the ids it changed", async () => {
    const db = await draftHits(flavor, 40);
    for (const id of ["hit0001", "hit0003"]) await db.hit.update({ where: { id }, data: { status: "published", providerHitId: `EARLIER-${id}` } });
    const at = new Date("2026-11-30T12:00:00.123Z");
    const rows = ["hit0000", "hit0001", "hit0002", "hit0003", "missing"].map((id) => ({ id, providerHitId: `P-${id}`, status: "published", publishedAt: at }));
    const changed = await updateManyById(db, "Hit", rows, { where: { status: "draft" } });
    expect(changed.sort()).toEqual(["hit0000", "hit0002"]);
    const hits = await db.hit.findMany({ where: { id: { in: ["hit0000", "hit0001", "hit0002", "hit0003", "hit0004"] } }, orderBy: { id: "asc" } });
    expect(hits.map((h) => [h.id, h.providerHitId, h.status, h.publishedAt?.toISOString() ?? null])).toEqual([
      ["hit0000", "P-hit0000", "published", at.toISOString()],
      ["hit0001", "EARLIER-hit0001", "published", null],
      ["hit0002", "P-hit0002", "published", at.toISOString()],
      ["hit0003", "EARLIER-hit0003", "published", null],
      ["hit0004", null, "draft", null],
    ]);
    // Without a condition every listed row changes.
    expect((await updateManyById(db, "Hit", [{ id: "hit0004", providerHitId: "P4", status: "published", publishedAt: at }])).length).toBe(1);
  });
});

describe.each(testFlavors())("insertMany on %s", (flavor) => {
  it("writes each cell as given: a Date shared by rows, distinct Dates, null timestamps, booleans", async () => {
    const db = await draftHits(flavor, 0);
    const event = await db.event.findFirstOrThrow({ select: { id: true } });
    const shared = new Date("2026-11-30T12:00:00.123Z");
    const other = new Date("2026-12-01T08:30:00.456Z");
    const hit = (id: string, seq: number, publishedAt: Date | null, expiresAt: Date | null) => ({ id, eventId: event.id, provider: "mturk", uniqueRequestToken: `tok-${id}`, seq, maxAssignments: 3, rewardCents: 50, seed: seq, publishedAt, expiresAt });
    const rows = [hit("a", 1, shared, other), hit("b", 2, shared, null), hit("c", 3, other, shared), hit("d", 4, null, shared), hit("e", 5, shared, shared)];
    expect(await insertMany(db, "Hit", rows)).toBe(5);
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    const stored = await db.hit.findMany({ orderBy: { seq: "asc" }, select: { id: true, publishedAt: true, expiresAt: true, status: true, approvedCount: true } });
    expect(stored.map((h) => [h.id, iso(h.publishedAt), iso(h.expiresAt)])).toEqual(rows.map((r) => [r.id, iso(r.publishedAt), iso(r.expiresAt)]));
    // Columns no row gives take the database's defaults.
    expect(stored.every((h) => h.status === "draft" && h.approvedCount === 0)).toBe(true);

    await db.tweet.createMany({ data: ["t1", "t2", "t3"].map((id) => ({ id, eventId: event.id, externalId: id, text: id })) });
    await insertMany(db, "HitItem", [
      { id: "i1", hitId: "a", tweetId: "t1", position: 0, isGold: true },
      { id: "i2", hitId: "a", tweetId: "t2", position: 1, isGold: false },
      { id: "i3", hitId: "a", tweetId: "t3", position: 2, isGold: true },
    ]);
    expect((await db.hitItem.findMany({ orderBy: { position: "asc" }, select: { id: true, isGold: true } })).map((i) => [i.id, i.isGold])).toEqual([["i1", true], ["i2", false], ["i3", true]]);
  });
});

describe("updateManyById on sqlite: the statement", () => {
  it("finds the rows by id, not by scanning what the condition selects (the query plan)", async () => {
    const db = await draftHits("sqlite", 5);
    const plan = await db.$queryRawUnsafe<Array<{ detail: string }>>(`EXPLAIN QUERY PLAN ${updateSql("sqlite", "Hit", modelInfo(db, "Hit").fields.filter((f) => ["providerHitId", "status", "publishedAt"].includes(f.name)), { status: "draft" })}`, "[]");
    const details = plan.map((p) => p.detail);
    // The JSON rows drive the loop and each HIT is one lookup in the primary key's index.
    expect(details[0]).toMatch(/^SCAN x/);
    expect(details[1]).toMatch(/^SEARCH T USING (COVERING )?INDEX sqlite_autoindex_Hit_1 \(id=\?\)/);
  });
});

describe.each(testFlavors())("insertMany on %s: ids, Json, conflicts", (flavor) => {
  it("generates missing ids, keeps Json values (objects and plain strings), and skips conflicting rows when asked", async () => {
    const db = await draftHits(flavor, 0);
    const event = await db.event.findFirstOrThrow({ select: { id: true } });
    const at = new Date("2026-12-01T10:00:00.000Z");
    const rows = [
      { eventId: event.id, actorType: "system", entityType: "hit", entityId: "h1", action: "a", details: { rule: "gold", n: 7 }, at },
      { eventId: event.id, actorType: "system", entityType: "hit", entityId: "h2", action: "b", details: "plain", at },
      { eventId: event.id, actorType: "system", entityType: "hit", entityId: "h3", action: "c", at },
    ];
    expect(await insertMany(db, "AuditLog", rows)).toBe(3);
    const stored = await db.auditLog.findMany({ orderBy: { entityId: "asc" }, select: { id: true, details: true, at: true } });
    expect(stored.map((r) => r.details)).toEqual([{ rule: "gold", n: 7 }, "plain", null]);
    expect(new Set(stored.map((r) => r.id)).size).toBe(3);
    expect(stored[0].at.toISOString()).toBe(at.toISOString());
    const entry = { id: "c1", eventId: event.id, kind: "reward", amountCents: 5, reference: "reward:x", at };
    expect(await insertMany(db, "CostEntry", [entry])).toBe(1);
    expect(await insertMany(db, "CostEntry", [{ ...entry, id: "c2" }], { onConflict: "ignore" })).toBe(0);
  });
});

describe("the Prisma data model bulk writes read", () => {
  it("lists every scalar field of each model, as the generated client's ScalarFieldEnum does", async () => {
    const db = await draftHits("sqlite", 0);
    for (const model of Object.values(Prisma.ModelName)) {
      const key = `${model}ScalarFieldEnum` as keyof typeof Prisma;
      expect(modelInfo(db, model).fields.map((f) => f.name)).toEqual(Object.values(Prisma[key] as Record<string, string>));
    }
  });
});
