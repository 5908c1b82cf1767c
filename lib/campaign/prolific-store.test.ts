import { afterEach, describe, expect, it } from "vitest";
import { MemoryProlificStore, PROLIFIC_SCOPES } from "@/lib/crowd/prolific/provider-store";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { dbProlificStore } from "@/lib/crowd/prolific/db-store";

describe.each(testFlavors())("the Prolific provider's records in Accord's database (%s)", (flavor) => {
  let t: TestDb;
  afterEach(async () => {
    await t?.cleanup();
  });

  it("inserts once (the first intent wins, also when two race), overwrites with put, reads back JSON", async () => {
    t = await createTestDb(flavor);
    const store = dbProlificStore(t.db);
    expect(await store.get(PROLIFIC_SCOPES.study, "h1")).toBeNull();
    const raced = await Promise.all([
      store.insert(PROLIFIC_SCOPES.study, "h1", { internalName: "accord:h1", expiresAt: "2026-12-05T00:00:00.000Z" }),
      store.insert(PROLIFIC_SCOPES.study, "h1", { internalName: "accord:other", expiresAt: "2027-01-01T00:00:00.000Z" }),
    ]);
    expect(raced.filter(Boolean)).toHaveLength(1);
    const won = await store.get(PROLIFIC_SCOPES.study, "h1");
    expect(won?.internalName === "accord:h1" || won?.internalName === "accord:other").toBe(true);
    await store.put(PROLIFIC_SCOPES.bonus, "b1", { bulkId: "x", fees: 42, paid: false });
    await store.put(PROLIFIC_SCOPES.bonus, "b1", { bulkId: "x", fees: 42, paid: true });
    expect(await store.get(PROLIFIC_SCOPES.bonus, "b1")).toEqual({ bulkId: "x", fees: 42, paid: true });
    // Records of other scopes under the same key are apart.
    expect(await store.get(PROLIFIC_SCOPES.answer, "h1")).toBeNull();
  });

  it("lists a scope's records by key prefix (a batch study's HITs, a HIT's claims), and the memory store the same", async () => {
    t = await createTestDb(flavor);
    for (const store of [dbProlificStore(t.db), new MemoryProlificStore()]) {
      for (const key of ["s1|h1|0001", "s1|h1|0000", "s1|h10|0000", "s2|h1|0000"]) await store.insert(PROLIFIC_SCOPES.claim, key, { sessionId: key });
      await store.insert(PROLIFIC_SCOPES.hit, "s1|h1", { places: 3 });
      const keys = async (prefix: string) => (await store.list(PROLIFIC_SCOPES.claim, prefix)).map((r) => r.key).sort();
      expect(await keys("s1|h1|")).toEqual(["s1|h1|0000", "s1|h1|0001"]);
      expect(await keys("s1|")).toEqual(["s1|h10|0000", "s1|h1|0000", "s1|h1|0001"]);
      expect(await store.list(PROLIFIC_SCOPES.claim, "s3|")).toEqual([]);
      expect(await store.list(PROLIFIC_SCOPES.hit, "s1|")).toEqual([{ key: "s1|h1", data: { places: 3 } }]);
    }
  });
});
