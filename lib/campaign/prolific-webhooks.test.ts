import { afterEach, describe, expect, it } from "vitest";
import { signWebhook } from "@/lib/crowd/prolific/webhook-signature";
import { ensureWebhookSubscriptions } from "@/lib/crowd/prolific/webhook-subscription";
import { testFlavors } from "@/lib/db/test-db";
import { getProlificWebhookRecord, getProlificWebhookSecret } from "@/lib/crowd/prolific/webhook-settings";
import { createHitBatch } from "./publish";
import { setupProlificCampaign, studyOfHit, takeScreening, workOnProlific, type ProlificCampaign } from "./prolific-fixture";
import { dbWebhookSetupStore, prolificWebhookSetup } from "@/lib/crowd/prolific/webhook-setup";
import { prolificWebhookHandlers, WEBHOOK_EVENT_SCOPE } from "@/lib/crowd/prolific/webhook-handlers";
import { createQualificationTest } from "./qualification";
import { claimDueHits } from "./sync/lease";
import { PUBLISH_OPTIONS, publishQueued, syncUntilIdle } from "./test-fixture";

const TARGET = "http://accord.test/api/prolific/webhook";
const HOUR = 3_600_000;

describe.each(testFlavors())("Prolific's webhooks reach Accord's route (%s)", (flavor) => {
  let f: ProlificCampaign;
  /** The route's answers by X-Event-ID (the simulator's timer may also flush, so counts are read from here). */
  const answers = new Map<string, string[]>();
  const answersTo = (ids: string[]) => ids.map((id) => answers.get(id) ?? []);
  afterEach(async () => {
    await f?.close();
  });

  /** The campaign with the simulator delivering to the route handler of app/api/prolific/webhook (no HTTP server in between). */
  async function campaign() {
    answers.clear();
    let current: ProlificCampaign | null = null;
    const route = prolificWebhookHandlers({ db: () => current!.db, client: async () => current!.provider.client });
    const simulatorFetch: typeof fetch = async (url, init) => {
      if (String(url).startsWith(TARGET)) {
        const res = await route.POST(new Request(String(url), init));
        const id = new Headers(init?.headers).get("x-event-id") ?? "";
        answers.set(id, [...(answers.get(id) ?? []), `${res.status} ${await res.clone().text()}`]);
        return res;
      }
      return fetch(url, init);
    };
    f = current = await setupProlificCampaign({ flavor, unknown: 20, simulatorFetch });
    return { f, route };
  }

  it("subscribes once (a restart reuses the subscriptions), and a submission's status changes make its HIT due for sync, once per X-Event-ID", async () => {
    const { f, route } = await campaign();
    const setup = { client: f.provider.client, workspaceId: f.prolific.state.workspace.id, targetUrl: TARGET, store: dbWebhookSetupStore(f.db) };
    const first = await ensureWebhookSubscriptions(setup);
    expect(await ensureWebhookSubscriptions(setup)).toEqual(first);
    const subs = Object.values(f.prolific.state.subscriptions);
    expect(subs.map((s) => [s.event_type, s.target_url, s.is_enabled]).sort()).toEqual([
      ["study.status.change", TARGET, true],
      ["submission.status.change", TARGET, true],
    ]);
    // The signing secret is the simulator's, stored sealed.
    expect((await getProlificWebhookSecret(f.db))?.secret).toBe(f.prolific.state.hookSecret?.value);
    const row = await f.db.setting.findUniqueOrThrow({ where: { key: "prolific.webhookSecret" } });
    expect(row.secret).not.toContain(f.prolific.state.hookSecret!.value);

    const test = await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    expect(test.status).toBe("active");
    expect((await takeScreening(f, "p-webhook-1", 10)).passed).toBe(true);
    await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...PUBLISH_OPTIONS, rewardCents: 300, hitCount: 1 }, provider: f.provider });
    expect(await publishQueued(f)).toEqual(["succeeded"]);
    await f.prolific.flushWebhooks();
    await syncUntilIdle(f);
    const hit = await f.db.hit.findFirstOrThrow({ select: { id: true, providerHitId: true } });
    // Synced a moment ago: not due for an hour by polling.
    expect(await claimDueHits(f.db, { owner: "probe", minIntervalMs: HOUR })).toEqual([]);

    const submissionId = await workOnProlific(f, "p-webhook-1", hit.id, (it) => it.truth);
    await f.prolific.flushWebhooks();
    // ACTIVE, then AWAITING REVIEW: one delivery each, acted on once.
    const deliveries = f.prolific.state.deliveries.filter((d) => d.resource_id === submissionId);
    expect(deliveries.map((d) => [d.body.status, d.status])).toEqual([
      ["ACTIVE", "SUCCEEDED"],
      ["AWAITING REVIEW", "SUCCEEDED"],
    ]);
    expect(answersTo(deliveries.map((d) => d.id))).toEqual([["200 acted"], ["200 acted"]]);
    expect(await claimDueHits(f.db, { owner: "probe", minIntervalMs: HOUR })).toEqual([hit.id]);
    expect(await f.db.localCrowdRecord.count({ where: { scope: WEBHOOK_EVENT_SCOPE, parent: hit.id } })).toBeGreaterThanOrEqual(2);

    // Prolific delivers the same event again (same X-Event-ID): acknowledged, not acted on.
    const stamp = new Date(Date.now() - 1000);
    await f.db.hit.update({ where: { id: hit.id }, data: { lastSyncedAt: stamp, leaseOwner: null, leaseUntil: null } });
    const records = await f.db.localCrowdRecord.count({ where: { scope: WEBHOOK_EVENT_SCOPE } });
    for (const d of deliveries) Object.assign(d, { status: "PENDING", nextAt: 0 });
    await f.prolific.flushWebhooks();
    expect(answersTo(deliveries.map((d) => d.id))).toEqual([
      ["200 acted", "200 duplicate"],
      ["200 acted", "200 duplicate"],
    ]);
    expect(await f.db.localCrowdRecord.count({ where: { scope: WEBHOOK_EVENT_SCOPE } })).toBe(records);
    expect((await f.db.hit.findUniqueOrThrow({ where: { id: hit.id } })).lastSyncedAt?.getTime()).toBe(stamp.getTime());

    // A study Accord does not know: acknowledged and ignored. A forged delivery: refused, nothing recorded.
    const secret = f.prolific.state.hookSecret!.value;
    const deliver = (eventId: string, body: string, key = secret, ts = String(Math.floor(Date.now() / 1000))) =>
      route.POST(
        new Request(TARGET, {
          method: "POST",
          headers: { "content-type": "application/json", "X-Prolific-Request-Signature": signWebhook(key, ts, body), "X-Prolific-Request-Timestamp": ts, "X-Event-ID": eventId },
          body,
        }),
      );
    const unknown = await deliver("evt-unknown", JSON.stringify({ resource_id: "0123456789abcdef01234567", event_type: "study.status.change", metadata: {}, status: "COMPLETED" }));
    expect([unknown.status, await unknown.text()]).toEqual([200, "ignored"]);
    const studyEvent = JSON.stringify({ resource_id: studyOfHit(hit.providerHitId), event_type: "study.status.change", metadata: {}, status: "AWAITING REVIEW" });
    const forged = await deliver("evt-forged", studyEvent, "not-the-secret");
    expect([forged.status, await forged.text()]).toEqual([401, "Unauthorized"]);
    const stale = await deliver("evt-stale", studyEvent, secret, String(Math.floor(Date.now() / 1000) - 600));
    expect(stale.status).toBe(401);
    expect(await f.db.localCrowdRecord.count({ where: { scope: WEBHOOK_EVENT_SCOPE } })).toBe(records);
    const study = await deliver("evt-study", studyEvent);
    expect([study.status, await study.text()]).toEqual([200, "acted"]);
    expect((await f.db.hit.findUniqueOrThrow({ where: { id: hit.id } })).lastSyncedAt).toBeNull();
    // A publish that died before storing the HIT's id: the batch is found through the study's internal name.
    await f.db.hit.update({ where: { id: hit.id }, data: { providerHitId: null, lastSyncedAt: new Date() } });
    const orphan = await deliver("evt-orphan", studyEvent.replace("AWAITING REVIEW", "ACTIVE"));
    expect([orphan.status, await orphan.text()]).toEqual([200, "acted"]);
    expect((await f.db.hit.findUniqueOrThrow({ where: { id: hit.id } })).lastSyncedAt).toBeNull();
  });

  it("moves Accord's subscriptions to a new address and re-enables one Prolific disabled, without creating more", async () => {
    const { f } = await campaign();
    const store = dbWebhookSetupStore(f.db);
    const base = { client: f.provider.client, workspaceId: f.prolific.state.workspace.id, store };
    const first = await ensureWebhookSubscriptions({ ...base, targetUrl: TARGET });
    const secret = f.prolific.state.hookSecret!.value;
    const moved = await ensureWebhookSubscriptions({ ...base, targetUrl: "https://accord.example.org/api/prolific/webhook" });
    expect(moved).toEqual(first);
    expect(Object.values(f.prolific.state.subscriptions).map((s) => s.target_url)).toEqual(["https://accord.example.org/api/prolific/webhook", "https://accord.example.org/api/prolific/webhook"]);
    f.prolific.state.subscriptions[first["study.status.change"]!]!.is_enabled = false;
    expect(await ensureWebhookSubscriptions({ ...base, targetUrl: "https://accord.example.org/api/prolific/webhook" })).toEqual(first);
    expect(Object.values(f.prolific.state.subscriptions).every((s) => s.is_enabled)).toBe(true);
    // The secret was created once and kept.
    expect(f.prolific.state.hookSecret!.value).toBe(secret);
    expect((await store.getSecret())?.secret).toBe(secret);
    expect((await store.getRecord())?.targetUrl).toBe("https://accord.example.org/api/prolific/webhook");
    // Another tool replaced the workspace's secret: Accord adopts the active one rather than creating another.
    const replaced = (await f.provider.client.createHookSecret(f.prolific.state.workspace.id)).value;
    await ensureWebhookSubscriptions({ ...base, targetUrl: "https://accord.example.org/api/prolific/webhook" });
    expect(f.prolific.state.hookSecret!.value).toBe(replaced);
    expect((await store.getSecret())?.secret).toBe(replaced);
  });

  it("is set up from the provider factory only where Prolific can deliver, and a failure leaves polling in place", async () => {
    const { f } = await campaign();
    const ws = f.prolific.state.workspace.id;
    const logs: string[] = [];
    await prolificWebhookSetup(f.db, { mode: "production", publicUrl: "http://localhost:3000", log: (m) => logs.push(m) })(f.provider.client, ws);
    expect(Object.keys(f.prolific.state.subscriptions)).toEqual([]);
    f.prolific.setFaults({ faultRate: 1 });
    await prolificWebhookSetup(f.db, { mode: "simulator", publicUrl: "http://accord.test", log: (m) => logs.push(m) })(f.provider.client, ws);
    expect(logs).toEqual([expect.stringMatching(/^Prolific webhooks are not set up \(Accord polls instead\)/)]);
    f.prolific.setFaults({});
    await prolificWebhookSetup(f.db, { mode: "simulator", publicUrl: "http://accord.test", log: (m) => logs.push(m) })(f.provider.client, ws);
    expect(Object.values(f.prolific.state.subscriptions).map((s) => [s.target_url, s.is_enabled])).toEqual([
      [TARGET, true],
      [TARGET, true],
    ]);
    expect((await getProlificWebhookRecord(f.db))?.targetUrl).toBe(TARGET);
  });
});
