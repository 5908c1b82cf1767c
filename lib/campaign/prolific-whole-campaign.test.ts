import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HIT_STATUS, PROVIDER_KIND, TWEET_ROLE } from "@/lib/db/enums";
import { testFlavors } from "@/lib/db/test-db";
import { tweetFunnel } from "@/lib/events/overview";
import { prolificTaskHandlers } from "@/lib/task/prolific-route";
import { PROLIFIC_SCOPES } from "@/lib/crowd/prolific/provider-store";
import { setupProlificCampaign, type ProlificCampaign } from "./prolific-fixture";
import { dbProlificStore } from "@/lib/crowd/prolific/db-store";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { syncDueHits } from "./sync";
import { flushSyncFollowUps } from "./sync/follow-ups";
import { PUBLISH_OPTIONS, publishQueued } from "./test-fixture";

// A whole Prolific campaign on the simulator, as the demo runs it (batches of 3 HITs, at most 4 out at a time) and as
// one 40-HIT batch: simulated participants work on Accord's page over HTTP while the sync loop runs between their
// steps. Every submission the simulator holds must reach Accord and be graded, no HIT may be decided while a session
// given it is still at work or its work is not stored, and the funnel's "judged" is the tweets with a judgment.

/** Accord's Prolific task page behind a plain HTTP server (what Next.js does for app/prolific/task/route.ts). */
async function serve(handlers: ReturnType<typeof prolificTaskHandlers>): Promise<{ server: Server; url: string }> {
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
        const request = new Request(url, { method: req.method, headers: req.headers as Record<string, string>, body: req.method === "POST" ? Buffer.concat(chunks) : undefined });
        const response = req.method === "POST" ? await handlers.POST(request) : await handlers.GET(request);
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })().catch((err: unknown) => res.writeHead(500).end(String(err)));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const ENDED = new Set(["RETURNED", "TIMED-OUT", "SCREENED OUT"]);

describe.each(testFlavors())("a whole Prolific campaign on the simulator (%s)", (flavor) => {
  let f: ProlificCampaign | null = null;
  let server: Server | null = null;
  afterEach(async () => {
    await f?.close();
    f = null;
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = null;
  });

  async function campaign(unknown: number, mix: Record<string, number>) {
    let c: ProlificCampaign | null = null;
    const http = await serve(prolificTaskHandlers({ db: () => c!.db, provider: async () => c!.provider }));
    server = http.server;
    f = c = await setupProlificCampaign({ flavor, unknown, participants: mix, taskUrl: `${http.url}/prolific/task` });
    const test = await createQualificationTest({ db: c.db, provider: c.provider, eventId: c.eventId, seed: 1 });
    // The screening is not what this test is about: its study is paused and every participant is qualified.
    const screening = Object.values(c.prolific.state.studies).find((s) => s.internal_name?.startsWith("accord-qual:"))!;
    await c.provider.client.transitionStudy(screening.id, "PAUSE");
    for (const p of c.prolific.state.pool ?? []) await c.provider.grantQualification({ qualificationTypeId: test.providerQualTypeId as string, workerId: p.participantId });
    return c;
  }

  /**
   * No HIT is decided while its work is out: every session Accord's queue gave a decided HIT has ended without work
   * (returned, timed out) or its submission is stored as an assignment of that HIT.
   */
  async function checkDecidedHits(c: ProlificCampaign) {
    const decided = new Set((await c.db.hit.findMany({ where: { status: { in: [HIT_STATUS.approved, HIT_STATUS.unresolved] } }, select: { id: true } })).map((h) => h.id));
    const stored = new Map((await c.db.assignment.findMany({ select: { providerAssignmentId: true, hitId: true } })).map((a) => [a.providerAssignmentId, a.hitId]));
    for (const { key: session, data } of await dbProlificStore(c.db).list(PROLIFIC_SCOPES.session, "")) {
      const hitId = String(data.hitId);
      if (!decided.has(hitId)) continue;
      const status = c.prolific.state.submissions[session]?.status;
      if (status && ENDED.has(status)) continue;
      expect({ session, status, hitId, stored: stored.get(session) }).toEqual({ session, status, hitId, stored: hitId });
    }
  }

  /** Participants step, the simulated clock moves, Accord syncs right after (the study view it read is then stale). */
  async function round(c: ProlificCampaign) {
    await syncDueHits(c.db, { owner: "test", minIntervalMs: 0, provider: c.provider, limit: 200 });
    await c.prolific.participants!.step();
    await syncDueHits(c.db, { owner: "test", minIntervalMs: 0, provider: c.provider, limit: 200 });
    await checkDecidedHits(c);
    c.pclock.advance(120);
  }

  async function finalChecks(c: ProlificCampaign, unknown: number) {
    await flushSyncFollowUps(c.db);
    const hits = await c.db.hit.findMany({ include: { assignments: { select: { status: true, decision: true } } } });
    expect(hits.length).toBe(unknown / 20);
    // Every HIT ended, approved or unresolved, with all its places worked.
    for (const h of hits) {
      expect([HIT_STATUS.approved, HIT_STATUS.unresolved]).toContain(h.status);
      expect(h.assignments.length).toBeGreaterThanOrEqual(h.maxAssignments);
    }
    // Every submission the simulator holds in the batch studies reached Accord and was graded and delivered.
    const batchStudies = new Set(Object.values(c.prolific.state.studies).filter((s) => s.internal_name?.startsWith("accord-batch:")).map((s) => s.id));
    const held = Object.values(c.prolific.state.submissions).filter((s) => batchStudies.has(s.study_id) && !ENDED.has(s.status));
    expect(held.length).toBeGreaterThan(0);
    const byId = new Map((await c.db.assignment.findMany()).map((a) => [a.providerAssignmentId, a]));
    for (const s of held) {
      expect(s.status, `submission ${s.id}`).not.toBe("ACTIVE");
      const a = byId.get(s.id);
      expect(a?.decision ?? null, `submission ${s.id} (${s.status})`).not.toBeNull();
      expect(a?.decisionSentAt ?? null).not.toBeNull();
      expect(s.status).toBe(a?.providerStatus === "Approved" ? "APPROVED" : "REJECTED");
    }
    await checkDecidedHits(c);
    // The funnel: every tweet of the event went into a HIT and got judgments; "judged" counts exactly those.
    const funnel = await tweetFunnel(c.db, c.eventId);
    const withJudgment = new Set((await c.db.judgment.findMany({ where: { tweet: { role: TWEET_ROLE.unknown } }, select: { tweetId: true } })).map((j) => j.tweetId));
    expect(withJudgment.size).toBe(unknown);
    expect(funnel.judged).toBe(withJudgment.size);
    expect(funnel.accepted + funnel.unresolved).toBe(unknown);
  }

  it("the demo's size: 400 tweets published 3 HITs at a time, at most 4 out", { timeout: 900_000 }, async () => {
    const c = await campaign(400, { careful: 40, average: 30, sloppy: 10, "spammer-constant": 6, "spammer-random": 4 });
    expect((await c.db.event.findUniqueOrThrow({ where: { id: c.eventId } })).provider).toBe(PROVIDER_KIND.prolific);
    for (let i = 0; i < 400; i++) {
      const active = await c.db.hit.count({ where: { status: { in: [HIT_STATUS.draft, HIT_STATUS.published, HIT_STATUS.extended] } } });
      const pending = await c.db.tweet.count({ where: { role: TWEET_ROLE.unknown, status: "pending" } });
      if (active === 0 && pending < 20) break;
      if (active < 4 && pending >= 20) {
        // The demo autopilot's batch: £1.50 for an estimated 30 minutes at most.
        await createHitBatch({ db: c.db, eventId: c.eventId, provider: c.provider, options: { ...PUBLISH_OPTIONS, rewardCents: 300, durationSeconds: 1800, hitCount: Math.min(3, Math.floor(pending / 20)) } });
        expect(await publishQueued(c)).toEqual(["succeeded"]);
      }
      await round(c);
    }
    await finalChecks(c, 400);
  });

  it("one batch of 40 HITs", { timeout: 900_000 }, async () => {
    const c = await campaign(800, { careful: 90, average: 60, sloppy: 20, "spammer-constant": 10, "spammer-random": 10 });
    await createHitBatch({ db: c.db, eventId: c.eventId, provider: c.provider, options: { ...PUBLISH_OPTIONS, rewardCents: 300, durationSeconds: 1800, hitCount: 40 } });
    expect(await publishQueued(c)).toEqual(["succeeded"]);
    for (let i = 0; i < 400; i++) {
      if ((await c.db.hit.count({ where: { status: { in: [HIT_STATUS.published, HIT_STATUS.extended] } } })) === 0) break;
      await round(c);
    }
    await finalChecks(c, 800);
  });
});
