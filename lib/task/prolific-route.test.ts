import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createHitBatch } from "@/lib/campaign/publish";
import { setupProlificCampaign, studyOfHit, type ProlificCampaign } from "@/lib/campaign/prolific-fixture";
import { createQualificationTest } from "@/lib/campaign/qualification";
import { PUBLISH_OPTIONS, publishQueued, syncUntilIdle } from "@/lib/campaign/test-fixture";
import { renderProlificMessagePage } from "./prolific-page";
import { testFlavors } from "@/lib/db/test-db";
import { prolificScreeningHandlers, prolificTaskHandlers } from "./prolific-route";

/** Accord's Prolific page handlers behind a plain HTTP server (what Next.js does for app/prolific/task/route.ts). */
async function serve(handlers: ReturnType<typeof prolificTaskHandlers>, screening?: ReturnType<typeof prolificScreeningHandlers>): Promise<{ server: Server; url: string }> {
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
        let response: Response;
        const page = url.pathname === "/prolific/task" ? handlers : url.pathname === "/prolific/screening" ? screening : undefined;
        if (page) {
          const request = new Request(url, { method: req.method, headers: req.headers as Record<string, string>, body: req.method === "POST" ? Buffer.concat(chunks) : undefined });
          response = req.method === "POST" ? await page.POST(request) : await page.GET(request);
        } else {
          // Without the screening page: a page without a form (participants return the screening study).
          response = new Response(renderProlificMessagePage("Not available", "Nothing to do here."), { status: 200 });
        }
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })().catch((err: unknown) => res.writeHead(500).end(String(err)));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.each(testFlavors())("simulated Prolific participants work on Accord's page over HTTP (%s)", (flavor) => {
  let f: ProlificCampaign;
  let server: Server | null = null;
  afterEach(async () => {
    await f?.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  });

  it("open the study URL, label 30 tweets, are sent back with the code; Accord ingests and decides their work", async () => {
    let campaign: ProlificCampaign | null = null;
    const http = await serve(prolificTaskHandlers({ db: () => campaign!.db, provider: async () => campaign!.provider }));
    server = http.server;
    f = campaign = await setupProlificCampaign({ flavor, unknown: 40, participants: { careful: 7 }, taskUrl: `${http.url}/prolific/task` });
    const test = await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    // The screening is left out here (its own test is below): its study is paused and the participants are granted the qualification.
    const screening = Object.values(f.prolific.state.studies).find((s) => s.internal_name?.startsWith("accord-qual:"))!;
    await f.provider.client.transitionStudy(screening.id, "PAUSE");
    for (const p of f.prolific.state.pool ?? []) await f.provider.grantQualification({ qualificationTypeId: test.providerQualTypeId as string, workerId: p.participantId });
    // Two HITs in one batch study: the page gives each participant one, filling the first HIT's places first.
    await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...PUBLISH_OPTIONS, rewardCents: 300, hitCount: 2 }, provider: f.provider });
    await publishQueued(f);
    const hits = await f.db.hit.findMany({ orderBy: { seq: "asc" } });
    const studyId = studyOfHit(hits[0]!.providerHitId);
    const places = hits.reduce((n, h) => n + h.maxAssignments, 0);

    // A forged session gets a page without a form; a submission with a tweet unlabelled gets the form again (422).
    const forged = await fetch(`${http.url}/prolific/task?PROLIFIC_PID=6000000000000000000000ab&STUDY_ID=${studyId}&SESSION_ID=6000000000000000000000cd`);
    expect(forged.status).toBe(404);
    expect(await forged.text()).not.toContain("<form");
    const tester = "6000000000000000000000ab";
    await f.provider.grantQualification({ qualificationTypeId: test.providerQualTypeId as string, workerId: tester });
    const sub = f.prolific.service.startSubmission(tester, studyId);
    const ids = { PROLIFIC_PID: tester, STUDY_ID: studyId, SESSION_ID: sub.id };
    const opened = await fetch(`${http.url}/prolific/task?${new URLSearchParams(ids)}`);
    expect(opened.status).toBe(200);
    expect((await opened.text()).match(/<fieldset/g)).toHaveLength(30);
    const refused = await fetch(`${http.url}/prolific/task`, { method: "POST", body: new URLSearchParams(ids), redirect: "manual" });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("Tweets 1, 2,");
    // Anyone may POST to the page: a body larger than a task's form is refused unread (413), nothing stored.
    const huge = await fetch(`${http.url}/prolific/task`, { method: "POST", body: `${new URLSearchParams(ids)}&pad=${"x".repeat(200_000)}`, headers: { "content-type": "application/x-www-form-urlencoded" }, redirect: "manual" });
    expect(huge.status).toBe(413);
    f.prolific.service.returnSubmission(sub.id);

    const participants = f.prolific.participants!;
    const completed = () => Object.values(f.prolific.state.submissions).filter((s) => s.study_id === studyId && s.status === "AWAITING REVIEW");
    for (let round = 0; round < 40 && completed().length < places; round++) {
      await participants.step();
      f.pclock.advance(300);
    }
    expect(participants.stats.errors.filter((e) => e.includes("/prolific/task"))).toEqual([]);
    expect(completed()).toHaveLength(places);
    const code = await f.provider.completionCode(hits[0]!.batchId as string);
    expect(completed().every((s) => s.study_code === code)).toBe(true);

    await syncUntilIdle(f);
    const assignments = await f.db.assignment.findMany({ include: { _count: { select: { judgments: true } } } });
    expect(assignments).toHaveLength(places);
    for (const h of hits) expect(assignments.filter((a) => a.hitId === h.id)).toHaveLength(h.maxAssignments);
    for (const a of assignments) expect(a._count.judgments).toBe(30);
    // Careful participants (90% right) pass the gold check: approved on Prolific, paid as debited.
    expect(assignments.every((a) => a.status === "approved")).toBe(true);
    const debited = f.prolific.state.debits.filter((d) => d.study_id === studyId).reduce((s, d) => s + d.amount, 0);
    expect((await f.db.costEntry.aggregate({ _sum: { amountCents: true } }))._sum.amountCents).toBe(debited);
  });

  it("take the screening test on Accord's screening page: who passes the event's mark joins the allow-list group", async () => {
    let campaign: ProlificCampaign | null = null;
    const deps = { db: () => campaign!.db, provider: async () => campaign!.provider };
    const http = await serve(prolificTaskHandlers(deps), prolificScreeningHandlers(deps));
    server = http.server;
    f = campaign = await setupProlificCampaign({ flavor, unknown: 20, participants: { careful: 4, "spammer-constant": 2 }, taskUrl: `${http.url}/prolific/task` });
    const test = await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const groupId = test.providerQualTypeId as string;
    const screening = Object.values(f.prolific.state.studies).find((s) => s.internal_name?.startsWith("accord-qual:"))!;
    expect(screening.external_study_url.startsWith(`${http.url}/prolific/screening?qualification=${groupId}&`)).toBe(true);

    const participants = f.prolific.participants!;
    const done = () => Object.values(f.prolific.state.submissions).filter((s) => s.study_id === screening.id && s.status === "APPROVED");
    for (let round = 0; round < 40 && done().length < 6; round++) {
      await participants.step();
      f.pclock.advance(300);
    }
    expect(participants.stats.errors).toEqual([]);
    // (A simulated participant may return or abandon the study; most complete it.)
    expect(done().length).toBeGreaterThanOrEqual(4);
    const passCode = screening.completion_codes.find((c) => c.actions.some((a) => a.action === "ADD_TO_PARTICIPANT_GROUP"))!.code;
    const passed = done().filter((s) => s.study_code === passCode).map((s) => s.participant_id).sort();
    expect(Object.keys(f.prolific.state.groups[groupId]!.members).sort()).toEqual(passed);
    // Careful participants (90% right) pass the 60% mark; constant spammers do not.
    const careful = new Set((f.prolific.state.pool ?? []).filter((p) => p.profile === "careful").map((p) => p.participantId));
    expect(passed).toEqual(done().map((s) => s.participant_id).filter((id) => careful.has(id)).sort());
    expect(passed.length).toBeGreaterThan(0);
    // Who failed was asked to return (never rejected, nor approved as done) and returned.
    const failedSubs = Object.values(f.prolific.state.submissions).filter((s) => s.study_id === screening.id && s.return_requested);
    expect(failedSubs.length).toBeGreaterThan(0);
    expect(failedSubs.every((s) => s.status === "RETURNED" && !careful.has(s.participant_id))).toBe(true);
    expect(Object.values(f.prolific.state.submissions).some((s) => s.study_id === screening.id && s.status === "REJECTED")).toBe(false);
    // Accord recorded every completed screening, qualified as Prolific grouped them.
    const recorded = await f.db.qualificationResult.findMany({ where: { testId: test.id }, select: { passed: true, worker: { select: { externalId: true, qualified: true } } } });
    expect(recorded.filter((r) => r.passed).map((r) => r.worker.externalId).sort()).toEqual(passed);
    expect(recorded.every((r) => r.worker.qualified === r.passed)).toBe(true);
    expect(recorded.map((r) => r.worker.externalId)).toEqual(expect.arrayContaining([...done(), ...failedSubs].map((s) => s.participant_id)));
  });
});
