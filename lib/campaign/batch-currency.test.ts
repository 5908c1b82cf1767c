import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { documentedFeeCents } from "@/lib/crowd/prolific/cost-estimate";
import type { Db } from "@/lib/db/client";
import { COST_KIND, PROVIDER_KIND } from "@/lib/db/enums";
import { testFlavors } from "@/lib/db/test-db";
import { eventListQuerySchema, listEvents } from "@/lib/events/event-list";
import { hitListQuerySchema, listEventHits } from "@/lib/events/hits";
import { formatMoneyTotals, sumByCurrency } from "@/lib/events/money-totals";
import { listWorkers, workerQuerySchema } from "@/lib/events/workers";
import { saveProlificCurrency } from "@/lib/crowd/prolific/currency";
import { committedSpendCents } from "./estimate";
import { ledgerByCurrency } from "./ledger-currency";
import { setupProlificCampaign, type ProlificCampaign } from "./prolific-fixture";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { bonusWorker } from "./worker-admin";
import { type CampaignFixture, PUBLISH_OPTIONS, publishQueued, publishTestBatch, setupCampaign } from "./test-fixture";

const OPTIONS = { ...PUBLISH_OPTIONS, hitCount: 1, rewardCents: 300 };

/** One paid reward on the batch's first HIT, by `workerId`. */
async function pay(db: Db, batchId: string, workerId: string, amountCents: number, kind: string = COST_KIND.reward) {
  const hit = await db.hit.findFirstOrThrow({ where: { batchId }, select: { id: true, eventId: true } });
  await db.costEntry.create({ data: { eventId: hit.eventId, hitId: hit.id, workerId, kind, amountCents, reference: `${kind}:${batchId}:${workerId}` } });
}

/** The backfill statement of the batch-currency migration on this flavor (the part after its "-- Backfill" line). */
function backfillSql(flavor: string): string {
  const file = path.join(process.cwd(), "prisma", flavor, "migrations", "20261203150000_hit_batch_currency", "migration.sql");
  return fs.readFileSync(file, "utf8").split(/^-- Backfill.*$/m)[1];
}

describe.each(testFlavors())("each batch's currency (%s)", (flavor) => {
  let f: ProlificCampaign | CampaignFixture | undefined;
  afterEach(async () => {
    await f?.close();
    f = undefined;
  });

  it("records USD on an MTurk batch", async () => {
    const m = (f = await setupCampaign({ flavor }));
    const batch = await publishTestBatch(m);
    expect((await m.db.hitBatch.findUniqueOrThrow({ where: { id: batch.id } })).currency).toBe("USD");
  });

  it("keeps an old Prolific batch's amounts in its currency after the workspace's currency changes, and never adds them to the new one's", async () => {
    const p = (f = await setupProlificCampaign({ flavor, unknown: 80 }));
    await createQualificationTest({ db: p.db, provider: p.provider, eventId: p.eventId, seed: 1 });
    const { batch: old } = await createHitBatch({ db: p.db, eventId: p.eventId, options: OPTIONS, provider: p.provider });
    expect(old.currency).toBe("GBP"); // nothing recorded yet: Prolific's own
    const worker = await p.db.worker.create({ data: { provider: PROVIDER_KIND.prolific, externalId: "PARTICIPANT1" } });
    await pay(p.db, old.id, worker.id, 300);
    await pay(p.db, old.id, worker.id, 100, COST_KIND.fee);

    // Another workspace, in dollars: new batches are in USD, the old one stays in pounds.
    await saveProlificCurrency(p.db, { workspaceId: "another", currency: "USD" });
    const { batch: next } = await createHitBatch({ db: p.db, eventId: p.eventId, options: OPTIONS, provider: p.provider });
    expect(next.currency).toBe("USD");
    expect((await p.db.hitBatch.findUniqueOrThrow({ where: { id: old.id } })).currency).toBe("GBP");
    await pay(p.db, next.id, worker.id, 250);

    const ledger = sumByCurrency(await ledgerByCurrency(p.db, { eventId: p.eventId }));
    expect(ledger).toEqual([
      { currency: "USD", minor: 250 },
      { currency: "GBP", minor: 400 },
    ]);
    // Each HIT's reward is shown in its batch's currency.
    const hits = await listEventHits(p.db, p.eventId, hitListQuerySchema.parse({}));
    expect(hits.rows.map((h) => [h.seq, h.currency])).toEqual([
      [1, "GBP"],
      [2, "USD"],
    ]);
    const [row] = (await listEvents(p.db, eventListQuerySchema.parse({}))).rows;
    expect(formatMoneyTotals(row.cost)).toBe("$2.50 + £4.00");

    // A cap counts its own currency only: each batch's open HIT is committed in its batch's currency, once.
    const gbp = await committedSpendCents(p.db, "GBP", { eventId: p.eventId });
    const outstanding = gbp - 400;
    expect(outstanding).toBeGreaterThan(0);
    expect(outstanding % (300 + documentedFeeCents(300))).toBe(0); // unpaid places × (reward + Prolific's documented fee)
    expect(await committedSpendCents(p.db, "USD", { eventId: p.eventId })).toBe(250 + outstanding); // the same HIT shape

    // The Workers page shows the participant's earnings (rewards and bonuses) per currency.
    const { rows } = await listWorkers(p.db, workerQuerySchema.parse({}));
    expect(rows[0].earnings).toEqual([
      { currency: "USD", minor: 250 },
      { currency: "GBP", minor: 300 },
    ]);
  });

  it("refuses to publish a batch priced in one currency once its workspace pays in another", async () => {
    const p = (f = await setupProlificCampaign({ flavor, unknown: 80 }));
    await createQualificationTest({ db: p.db, provider: p.provider, eventId: p.eventId, seed: 1 });
    const { batch } = await createHitBatch({ db: p.db, eventId: p.eventId, options: OPTIONS, provider: p.provider });
    await saveProlificCurrency(p.db, { workspaceId: "another", currency: "USD" });
    expect(await publishQueued(p)).toEqual(["failed"]);
    const job = await p.db.job.findUniqueOrThrow({ where: { id: batch.jobId as string } });
    expect(job.error).toMatch(/priced in GBP, but its crowd now pays in USD/);
    expect(await p.db.hit.count({ where: { batchId: batch.id, providerHitId: { not: null } } })).toBe(0);
    // In its own currency it publishes.
    await saveProlificCurrency(p.db, { workspaceId: "ws", currency: "GBP" });
    const { batch: again } = await createHitBatch({ db: p.db, eventId: p.eventId, options: OPTIONS, provider: p.provider });
    expect(await publishQueued(p)).toEqual(["succeeded"]);
    expect(await p.db.hit.count({ where: { batchId: again.id, providerHitId: { not: null } } })).toBe(1);
  });

  it("refuses a bonus on an assignment whose batch paid in another currency than the crowd's now", async () => {
    const p = (f = await setupProlificCampaign({ flavor, unknown: 80 }));
    await createQualificationTest({ db: p.db, provider: p.provider, eventId: p.eventId, seed: 1 });
    const { batch } = await createHitBatch({ db: p.db, eventId: p.eventId, options: OPTIONS, provider: p.provider });
    const hit = await p.db.hit.findFirstOrThrow({ where: { batchId: batch.id } });
    const worker = await p.db.worker.create({ data: { provider: PROVIDER_KIND.prolific, externalId: "PARTICIPANT2" } });
    await p.db.assignment.create({ data: { hitId: hit.id, workerId: worker.id, providerAssignmentId: "sub-1", providerStatus: "Approved", status: "approved", submitTime: new Date() } });
    await saveProlificCurrency(p.db, { workspaceId: "another", currency: "USD" });
    const bonus = { db: p.db, workerId: worker.id, amountCents: 50, reason: "thanks", actorId: "admin", provider: p.provider };
    await expect(bonusWorker(bonus)).rejects.toMatchObject({ code: "currency_changed", message: expect.stringMatching(/batch paid in GBP, but the crowd now pays in USD/) });
    expect(await p.db.costEntry.count()).toBe(0);
  });

  it("backfills old batches: USD for MTurk, the recorded Prolific currency (else GBP) for Prolific", async () => {
    const p = (f = await setupProlificCampaign({ flavor, unknown: 80 }));
    await createQualificationTest({ db: p.db, provider: p.provider, eventId: p.eventId, seed: 1 });
    const { batch } = await createHitBatch({ db: p.db, eventId: p.eventId, options: OPTIONS, provider: p.provider });
    const backfilled = async () => {
      await p.db.hitBatch.updateMany({ data: { currency: null } });
      await p.db.$executeRawUnsafe(backfillSql(flavor));
      return (await p.db.hitBatch.findUniqueOrThrow({ where: { id: batch.id } })).currency;
    };
    expect(await backfilled()).toBe("GBP");
    await saveProlificCurrency(p.db, { workspaceId: "ws", currency: "EUR" });
    expect(await backfilled()).toBe("EUR");
    await p.db.event.update({ where: { id: p.eventId }, data: { provider: PROVIDER_KIND.mturk } });
    expect(await backfilled()).toBe("USD");
  });
});
