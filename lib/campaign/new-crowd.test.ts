import { afterEach, describe, expect, it } from "vitest";
import type { CrowdDescriptor } from "@/lib/crowd/descriptor";
import { LocalProvider } from "@/lib/crowd/local-provider";
import { createMemoryLocalCrowdStore } from "@/lib/crowd/local-store";
import { policyFor } from "@/lib/crowd/policies";
import type { CrowdPolicy } from "@/lib/crowd/policy";
import type { CrowdProvider, FeeRules } from "@/lib/crowd/provider";
import { crowdChoices, crowdLabel, crowdName, feeRulesOf, findCrowd, registerCrowd } from "@/lib/crowd/registry";
import { COST_KIND, HIT_STATUS, TWEET_ROLE } from "@/lib/db/enums";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { createEventFromForm } from "@/lib/events/create-event";
import { eventCrowd } from "@/lib/events/event-crowd";
import { newEventFormSchema } from "@/lib/events/events.validation";
import { usesSimulatedWorkers } from "@/lib/events/simulated";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import { drainJobs } from "@/lib/jobs/runner";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { estimateBatch } from "./estimate";
import { feesOf, paymentEntries } from "./ledger";
import { ledgerByCurrency } from "./ledger-currency";
import { getProvider } from "./providers";
import { createHitBatch } from "./publish";
import { PUBLISH_OPTIONS } from "./test-fixture";

/*
 * A new crowd is one descriptor and its adapter, registered: nothing outside its folder changes. The "tiny" crowd
 * below lives only in this test (its adapter is the in-house crowd's engine on a memory store under another kind):
 * it pays in euros, charges 10% (at least 1 cent) and never rejects. Registered, it shows in the New-event form,
 * events are created on it, and estimate, publish, ledger, replay's fee rule, policy and the event pages answer by it.
 */

const TINY_FEES: FeeRules = {
  assignmentFeeCents: ({ rewardCents }) => (rewardCents === 0 ? 0 : Math.max(1, Math.round(rewardCents / 10))),
  bonusFeeCents: () => 0,
};

const tinyPolicy: CrowdPolicy = {
  crowd: "tiny",
  studyFigures: false,
  paysBelowGold: true,
  configurable: false,
  decide: ({ verdict }) => (verdict.decision === "approve" ? { action: "approve" } : { action: "exclude", reason: verdict.text, block: false }),
  describe: () => ({ statements: ["Tiny pays every submission and leaves work below the gold rule out."], refusal: null }),
};

/** The tiny crowd's adapter: a CrowdProvider of kind "tiny" (the in-house engine, its own fees). */
function tinyAdapter(): CrowdProvider {
  const engine = new LocalProvider({ store: createMemoryLocalCrowdStore() });
  return Object.assign(Object.create(engine) as CrowdProvider, { kind: "tiny", mode: "simulator", fees: TINY_FEES });
}

function tinyCrowd(adapter: CrowdProvider): CrowdDescriptor {
  return {
    kind: "tiny",
    name: "Tiny crowd",
    shortName: "tiny",
    choice: "Tiny crowd (a test's)",
    modes: [{ mode: "simulator", simulated: true, realMoney: false }],
    mode: async () => "simulator",
    testMode: async () => false,
    currency: async () => "EUR",
    fees: (learned) => learned ?? TINY_FEES,
    confirmsProduction: false,
    qualification: { required: false, grading: "Tiny grades nothing.", recordsTakers: false },
    submitsTo: "accord",
    submitUrl: async () => "https://accord.invalid/tiny/submit",
    workersAreUsers: false,
    settings: null,
    policy: tinyPolicy,
    simulator: null,
    demo: null,
    connect: async () => adapter,
  };
}

describe("a crowd added by registering its descriptor and adapter", () => {
  let t: TestDb | undefined;
  let unregister: (() => void) | undefined;
  afterEach(async () => {
    unregister?.();
    unregister = undefined;
    await t?.cleanup();
    t = undefined;
  });

  it("is offered, named, priced, published to, booked and decided by its own rules, and gone once removed", async () => {
    const adapter = tinyAdapter();
    expect(findCrowd("tiny")).toBeUndefined();
    unregister = registerCrowd(tinyCrowd(adapter));
    expect(() => registerCrowd(tinyCrowd(adapter))).toThrow(/already registered/);

    // The New-event form offers it; an event is created on it (an unregistered crowd is refused, by field).
    expect(crowdChoices()).toContainEqual({ value: "tiny", label: "Tiny crowd (a test's)" });
    t = await createTestDb("sqlite");
    const db = t.db;
    const schemeId = await ensureHumaidScheme(db);
    const user = await db.user.create({ data: { email: "lead@example.org", name: "Lead", passwordHash: "x", role: "admin" } });
    const form = (provider: string) => newEventFormSchema.parse({ name: "Tiny flood", type: "flood", schemeId, provider });
    await expect(createEventFromForm(db, form("figure-eight"), { userId: user.id })).rejects.toMatchObject({ fieldErrors: { provider: [expect.stringContaining("Tiny crowd (a test's)")] } });
    const created = await createEventFromForm(db, form("tiny"), { userId: user.id });
    const event = await db.event.findUniqueOrThrow({ where: { id: created.id }, select: { id: true, provider: true } });
    expect(event.provider).toBe("tiny");

    // Its name, mode, currency and simulated workers on the event pages.
    expect(crowdName("tiny")).toBe("Tiny crowd");
    expect(crowdLabel("tiny", "simulator")).toBe("Tiny crowd simulator");
    expect(await eventCrowd(db, "tiny")).toEqual({ kind: "tiny", mode: "simulator", label: "Tiny crowd simulator", production: false, testMode: false, currency: "EUR" });
    expect(await usesSimulatedWorkers(db, event)).toBe(true);

    // The campaign layer reaches its adapter through the registry.
    const provider = await getProvider(db, "tiny");
    expect(provider).toBe(adapter);

    // Estimate: its fee rule (10%) and its currency.
    const labels = HUMAID_LABELS.map((l) => l.value);
    await db.tweet.createMany({
      data: [
        ...Array.from({ length: 40 }, (_, i) => ({ eventId: event.id, externalId: `1${String(i).padStart(17, "0")}`, text: `unknown tweet ${i}`, role: TWEET_ROLE.unknown })),
        ...Array.from({ length: 20 }, (_, i) => ({ eventId: event.id, externalId: `9${String(i).padStart(17, "0")}`, text: `gold tweet ${i}`, role: TWEET_ROLE.gold, goldLabel: labels[i % labels.length] })),
      ],
    });
    const estimate = await estimateBatch({ db, provider, eventId: event.id, hitCount: 1, rewardCents: 80 });
    expect(estimate).toMatchObject({ hits: 1, feePerAssignmentCents: 8, currency: "EUR", ok: true });
    expect(estimate.baseCents).toBe(estimate.assignmentsPerHit * 88);

    // Publish: no qualification test needed (its descriptor says so); HITs go out on the adapter, in euros.
    const { batch } = await createHitBatch({ db, eventId: event.id, provider, options: { ...PUBLISH_OPTIONS, hitCount: 1, rewardCents: 80 } });
    const outcome = await drainJobs(db, { registry: accordJobs({ provider }), types: [JOBS.publish.type] });
    expect(outcome.join()).toBe("succeeded");
    const hits = await db.hit.findMany({ where: { batchId: batch.id }, select: { provider: true, status: true, providerHitId: true } });
    expect(hits).toEqual([{ provider: "tiny", status: HIT_STATUS.published, providerHitId: expect.any(String) }]);
    expect((await db.hitBatch.findUniqueOrThrow({ where: { id: batch.id }, select: { currency: true } })).currency).toBe("EUR");

    // Ledger and replay ask the same fee rule; the ledger sums its event's entries in its currency.
    expect(feesOf(provider)).toBe(TINY_FEES);
    expect(feeRulesOf({ kind: "tiny" })).toBe(TINY_FEES);
    const entries = paymentEntries([{ eventId: event.id, hitId: "h", assignmentId: "a1", workerId: "w", rewardCents: 80, maxAssignments: 3 }], feesOf(provider));
    expect(entries.map((e) => [e.kind, e.amountCents])).toEqual([
      [COST_KIND.reward, 80],
      [COST_KIND.fee, 8],
    ]);
    await db.costEntry.createMany({ data: entries.map((e) => ({ eventId: e.eventId as string, kind: e.kind as string, amountCents: e.amountCents as number, reference: e.reference as string })) });
    expect(await ledgerByCurrency(db, { eventId: event.id })).toEqual([{ key: null, currency: "EUR", minor: 88 }]);

    // Its policy decides.
    expect(policyFor("tiny")).toBe(tinyPolicy);

    // Removed, it is gone: the kind is unknown again.
    unregister();
    unregister = undefined;
    expect(findCrowd("tiny")).toBeUndefined();
    expect(crowdChoices().map((c) => c.value)).not.toContain("tiny");
    await expect(getProvider(db, "tiny")).rejects.toThrow(/Unknown crowd provider "tiny"/);
  });
});
