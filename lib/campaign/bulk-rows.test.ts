import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb, testFlavors } from "@/lib/db/test-db";
import type { DbFlavor } from "@/lib/db/url";
import { ensureHumaidScheme } from "@/lib/events/schemes";
import { type BulkColumn, insertRows, updateRows, updateRowsSql } from "./bulk-rows";

const PUBLISHED: BulkColumn[] = [
  { name: "providerHitId", type: "text" },
  { name: "status", type: "text" },
  { name: "publishedAt", type: "timestamp" },
];

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

describe.each(testFlavors())("updateRows on %s", (flavor) => {
  it("writes each row's own values, only where the condition holds, and returns the ids it changed", async () => {
    const db = await draftHits(flavor, 40);
    for (const id of ["hit0001", "hit0003"]) await db.hit.update({ where: { id }, data: { status: "published", providerHitId: `EARLIER-${id}` } });
    const at = new Date("2026-11-30T12:00:00.123Z");
    const rows = ["hit0000", "hit0001", "hit0002", "hit0003", "missing"].map((id) => [id, `P-${id}`, "published", at]);
    const changed = await updateRows(db, flavor, "Hit", PUBLISHED, rows, `T."status" = 'draft'`);
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
    expect((await updateRows(db, flavor, "Hit", PUBLISHED, [["hit0004", "P4", "published", at]])).length).toBe(1);
  });
});

describe.each(testFlavors())("insertRows on %s", (flavor) => {
  it("writes each cell as given: a Date shared by rows, distinct Dates, null timestamps, booleans", async () => {
    const db = await draftHits(flavor, 0);
    const event = await db.event.findFirstOrThrow({ select: { id: true } });
    const shared = new Date("2026-11-30T12:00:00.123Z");
    const other = new Date("2026-12-01T08:30:00.456Z");
    const hitColumns: BulkColumn[] = ["id", "eventId", "provider", "uniqueRequestToken"].map((name) => ({ name, type: "text" as const }));
    hitColumns.push(...["seq", "maxAssignments", "rewardCents", "seed"].map((name) => ({ name, type: "integer" as const })));
    hitColumns.push({ name: "publishedAt", type: "timestamp" }, { name: "expiresAt", type: "timestamp" });
    const hit = (id: string, seq: number, publishedAt: Date | null, expiresAt: Date | null) => [id, event.id, "mturk", `tok-${id}`, seq, 3, 50, seq, publishedAt, expiresAt];
    const rows = [hit("a", 1, shared, other), hit("b", 2, shared, null), hit("c", 3, other, shared), hit("d", 4, null, shared), hit("e", 5, shared, shared)];
    expect(await insertRows(db, flavor, "Hit", hitColumns, rows)).toBe(5);
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    const stored = await db.hit.findMany({ orderBy: { seq: "asc" }, select: { id: true, publishedAt: true, expiresAt: true } });
    expect(stored.map((h) => [h.id, iso(h.publishedAt), iso(h.expiresAt)])).toEqual(rows.map((r) => [r[0], iso(r[8] as Date | null), iso(r[9] as Date | null)]));

    await db.tweet.createMany({ data: ["t1", "t2", "t3"].map((id) => ({ id, eventId: event.id, externalId: id, text: id })) });
    const itemColumns: BulkColumn[] = [{ name: "id", type: "text" }, { name: "hitId", type: "text" }, { name: "tweetId", type: "text" }, { name: "position", type: "integer" }, { name: "isGold", type: "boolean" }];
    await insertRows(db, flavor, "HitItem", itemColumns, [["i1", "a", "t1", 0, true], ["i2", "a", "t2", 1, false], ["i3", "a", "t3", 2, true]]);
    expect((await db.hitItem.findMany({ orderBy: { position: "asc" }, select: { id: true, isGold: true } })).map((i) => [i.id, i.isGold])).toEqual([["i1", true], ["i2", false], ["i3", true]]);
  });
});

describe("updateRows on sqlite: the statement", () => {
  it("finds the rows by id, not by scanning what the condition selects (the query plan)", async () => {
    const db = await draftHits("sqlite", 5);
    const plan = await db.$queryRawUnsafe<Array<{ detail: string }>>(`EXPLAIN QUERY PLAN ${updateRowsSql("sqlite", "Hit", PUBLISHED, `T."status" = 'draft'`)}`, "[]");
    const details = plan.map((p) => p.detail);
    // The JSON rows drive the loop and each HIT is one lookup in the primary key's index.
    expect(details[0]).toMatch(/^SCAN x/);
    expect(details[1]).toMatch(/^SEARCH T USING (COVERING )?INDEX sqlite_autoindex_Hit_1 \(id=\?\)/);
  });
});
