import { afterEach, describe, expect, it } from "vitest";
import { testFlavors } from "@/lib/db/test-db";
import { markTweetsGold, SKIP, unmarkTweetsGold } from "@/lib/gold/gold-marking";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { type CampaignFixture, LABELS, PUBLISH_OPTIONS, setupCampaign } from "./test-fixture";

// Issue 19 (2d): tweets made gold after import are packed as gold, never as unknown; once packed as unknown a tweet
// cannot become gold; unmarking gold used in a HIT retires it (past grades keep their expert label).

const OPTIONS = { ...PUBLISH_OPTIONS, hitCount: "all" as const };

describe.each(testFlavors())("gold made after import, in HIT packing (%s)", (flavor) => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  it("packs tweets made gold only as gold, and refuses gold for tweets already packed as unknown", async () => {
    // Only 2 uploaded gold tweets: HITs and the test need the ones made gold here.
    f = await setupCampaign({ flavor, unknown: 60, gold: 2 });
    const unknown = await f.db.tweet.findMany({ where: { eventId: f.eventId, role: "unknown" }, orderBy: { externalId: "asc" }, select: { id: true, sourceLabel: true } });
    const made = unknown.slice(0, 20);
    const outcome = await markTweetsGold(f.db, { eventId: f.eventId, picks: made.map((t) => ({ id: t.id, label: t.sourceLabel })), schemeLabels: LABELS, actorId: null });
    expect(outcome).toEqual({ changed: 20, retired: 0, skipped: {} });

    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const { batch } = await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...OPTIONS, seed: 7 }, provider: f.provider });
    const items = await f.db.hitItem.findMany({ where: { hit: { batchId: batch.id } }, select: { tweetId: true, isGold: true } });
    const madeIds = new Set(made.map((t) => t.id));
    const asUnknown = items.filter((it) => !it.isGold).map((it) => it.tweetId);
    expect(asUnknown.length).toBeGreaterThan(0);
    expect(asUnknown.filter((id) => madeIds.has(id))).toEqual([]);
    expect(items.some((it) => it.isGold && madeIds.has(it.tweetId))).toBe(true);

    // A tweet packed as unknown cannot become gold.
    const packed = await markTweetsGold(f.db, { eventId: f.eventId, picks: [{ id: asUnknown[0], label: LABELS[0] }], schemeLabels: LABELS, actorId: null });
    expect(packed).toEqual({ changed: 0, retired: 0, skipped: { [SKIP.inHit]: 1 } });
    expect(await f.db.tweet.findUniqueOrThrow({ where: { id: asUnknown[0] }, select: { role: true } })).toEqual({ role: "unknown" });

    // Unmarking gold used in a HIT retires it: it keeps its role and label (past grades), new HITs skip it.
    const usedGold = items.find((it) => it.isGold && madeIds.has(it.tweetId))!.tweetId;
    const before = await f.db.tweet.findUniqueOrThrow({ where: { id: usedGold }, select: { goldLabel: true } });
    expect(await unmarkTweetsGold(f.db, { eventId: f.eventId, ids: [usedGold], actorId: null })).toEqual({ changed: 0, retired: 1, skipped: {} });
    expect(await f.db.tweet.findUniqueOrThrow({ where: { id: usedGold }, select: { role: true, goldLabel: true, status: true } })).toEqual({
      role: "gold",
      goldLabel: before.goldLabel,
      status: "retired",
    });
    // Relabelling used gold is refused too.
    const other = await f.db.tweet.findUniqueOrThrow({ where: { id: items.find((it) => it.isGold && it.tweetId !== usedGold)!.tweetId }, select: { id: true, goldLabel: true } });
    const newLabel = LABELS.find((l) => l !== other.goldLabel)!;
    const relabel = await markTweetsGold(f.db, { eventId: f.eventId, picks: [{ id: other.id, label: newLabel }], schemeLabels: LABELS, actorId: null });
    expect(relabel).toEqual({ changed: 0, retired: 0, skipped: { [SKIP.usedGold]: 1 } });
  });
});
