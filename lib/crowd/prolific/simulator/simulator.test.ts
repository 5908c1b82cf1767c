import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { ThrottleGate } from "@/lib/crowd/throttle-gate";
import { ProlificClient } from "../api-client";
import { verifyWebhook } from "../webhook-signature";
import { simFee } from "./money";
import { startProlificSimulator, type RunningProlificSimulator } from "./server";
import type { ProlificSimState } from "./state";

const LONG = "Your answers to the gold tweets in this task agreed with the experts' labels on 4 of 10, below the 7 of 10 this study requires.";
let sim: RunningProlificSimulator | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

async function start(extra: Parameters<typeof startProlificSimulator>[0] = {}) {
  const clock = new ManualClock();
  sim = await startProlificSimulator({ clock, balance: 100_000, currency: "GBP", ...extra });
  const client = new ProlificClient({ token: sim.token, baseUrl: sim.apiUrl, gate: new ThrottleGate({ baseMs: 1, capMs: 4 }), faultBackoffMs: 1 });
  return { sim, clock, client };
}

const draft = (over: Record<string, unknown> = {}) => ({
  name: "Label 30 tweets",
  internal_name: "accord:batch-1",
  description: "Read 30 tweets about a disaster and choose the category of each.",
  external_study_url: "http://127.0.0.1:3000/task/prolific?pid={{%PROLIFIC_PID%}}&study={{%STUDY_ID%}}&sub={{%SESSION_ID%}}",
  prolific_id_option: "url_parameters",
  completion_codes: [{ code: "DONE1234", code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] }],
  total_available_places: 2,
  estimated_completion_time: 15,
  maximum_allowed_time: 45,
  reward: 225,
  filters: [],
  ...over,
});

describe("the local Prolific simulator, through Accord's client", () => {
  it("runs a qualification group, a screened study, review, more places and bonuses, with the money adding up", async () => {
    const { sim, client } = await start();
    const me = await client.getMe();
    expect(me.currency_code).toBe("GBP");
    const workspace = sim.state.workspace.id;
    expect(await client.calculateCost(225, 2)).toBe(2 * (225 + simFee(225)));

    const group = await client.createParticipantGroup(workspace, "Accord qualified: Queensland");
    const screening = await client.createStudy(
      draft({ internal_name: "accord:qual-1", completion_codes: [{ code: "PASSED01", code_type: "COMPLETED", actions: [{ action: "AUTOMATICALLY_APPROVE" }, { action: "ADD_TO_PARTICIPANT_GROUP", participant_group: group.id }] }] }),
    );
    await client.transitionStudy(screening.id, "PUBLISH");
    const q = sim.service.startSubmission("aaaaaaaaaaaaaaaaaaaaaaa1", screening.id);
    sim.service.completeSubmission(q.id, "PASSED01");
    expect((await client.listParticipantGroupMembers(group.id)).map((m) => m.participant_id)).toEqual(["aaaaaaaaaaaaaaaaaaaaaaa1"]);

    const study = await client.createStudy(draft({ filters: [{ filter_id: "participant_group_allowlist", selected_values: [group.id] }] }));
    expect(study.status).toBe("UNPUBLISHED");
    expect((await client.transitionStudy(study.id, "PUBLISH")).status).toBe("ACTIVE");
    expect(() => sim.service.startSubmission("bbbbbbbbbbbbbbbbbbbbbbb2", study.id)).toThrow(/not eligible/);
    await client.addToParticipantGroup(group.id, ["bbbbbbbbbbbbbbbbbbbbbbb2"]);
    const s1 = sim.service.startSubmission("aaaaaaaaaaaaaaaaaaaaaaa1", study.id);
    const s2 = sim.service.startSubmission("bbbbbbbbbbbbbbbbbbbbbbb2", study.id);
    expect(() => sim.service.startSubmission("aaaaaaaaaaaaaaaaaaaaaaa1", study.id)).toThrow(/no free place|already taken part/);
    sim.service.completeSubmission(s1.id, "DONE1234");
    sim.service.completeSubmission(s2.id, "DONE1234");
    expect((await client.getStudy(study.id)).status).toBe("AWAITING REVIEW");
    const listed = await client.listSubmissions(study.id);
    expect(listed.map((s) => [s.participant_id, s.status, s.study_code])).toEqual([
      ["aaaaaaaaaaaaaaaaaaaaaaa1", "AWAITING REVIEW", "DONE1234"],
      ["bbbbbbbbbbbbbbbbbbbbbbb2", "AWAITING REVIEW", "DONE1234"],
    ]);

    await client.bulkApprove([s1.id]);
    await expect(client.rejectSubmission(s2.id, "FAILED_CHECK", LONG.slice(0, 50))).rejects.toThrow(/at least 100/);
    expect((await client.rejectSubmission(s2.id, "FAILED_CHECK", LONG)).status).toBe("REJECTED");
    expect((await client.approveSubmission(s1.id)).status).toBe("APPROVED"); // a repeat is ignored
    expect((await client.getStudy(study.id)).status).toBe("PAUSED"); // a rejection while awaiting review pauses it

    await expect(client.updateStudy(study.id, { total_available_places: 1 })).rejects.toThrow(/can only be increased/);
    expect((await client.updateStudy(study.id, { total_available_places: 3 })).total_available_places).toBe(3);
    expect((await client.transitionStudy(study.id, "START")).status).toBe("ACTIVE");

    const bonus = await client.setUpBonuses(study.id, [{ id: "aaaaaaaaaaaaaaaaaaaaaaa1", cents: 50 }]);
    expect(bonus.amount).toBe(50);
    await client.payBonuses(bonus.id);
    await expect(client.payBonuses(bonus.id)).rejects.toThrow(/already been paid/);
    await expect(client.setUpBonuses(study.id, [{ id: "ccccccccccccccccccccccc3", cents: 50 }])).rejects.toThrow(/ccccccccccccccccccccccc3/);

    const debited = sim.state.debits.reduce((s, d) => s + d.amount, 0);
    expect(debited).toBe(2 * (225 + simFee(225)) + 50 + simFee(50));
    expect(sim.state.workspace.balance).toBe(100_000 - debited);
    expect((await client.getBalance(workspace)).total_balance).toBe(100_000 - debited);
  });

  it("refuses to publish under the minimum hourly pay or beyond the balance", async () => {
    const { client } = await start({ balance: 1_000 });
    const cheap = await client.createStudy(draft({ reward: 100, estimated_completion_time: 15 }));
    await expect(client.transitionStudy(cheap.id, "PUBLISH")).rejects.toThrow(/below the minimum of 600/);
    const dear = await client.createStudy(draft({ total_available_places: 10 }));
    await expect(client.transitionStudy(dear.id, "PUBLISH")).rejects.toThrow(/Insufficient balance/);
  });

  it("times out open submissions, frees their place, and auto-approves after 21 days", async () => {
    const { sim, clock, client } = await start();
    const study = await client.createStudy(draft());
    await client.transitionStudy(study.id, "PUBLISH");
    const late = sim.service.startSubmission("aaaaaaaaaaaaaaaaaaaaaaa1", study.id);
    const done = sim.service.startSubmission("bbbbbbbbbbbbbbbbbbbbbbb2", study.id);
    sim.service.completeSubmission(done.id, "DONE1234");
    clock.advance(46 * 60);
    expect((await client.getSubmission(late.id)).status).toBe("TIMED-OUT");
    expect((await client.getStudy(study.id)).places_taken).toBe(1);
    clock.advance(21 * 24 * 3600);
    expect((await client.getSubmission(done.id)).status).toBe("APPROVED");
  });

  it("signs webhooks as Prolific does, confirms subscriptions with X-Hook-Secret and keeps X-Event-ID across retries", async () => {
    const received: Array<{ id: string; ok: boolean; status: string }> = [];
    let failFirst = true;
    let secret = "";
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const check = verifyWebhook({ rawBody: Buffer.concat(chunks), timestamp: String(req.headers["x-prolific-request-timestamp"]), signature: String(req.headers["x-prolific-request-signature"]), secret });
        received.push({ id: String(req.headers["x-event-id"]), ok: check.ok, status: check.ok ? String((check.payload as { status: string }).status) : "" });
        res.writeHead(failFirst ? 500 : 200).end();
        failFirst = false;
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
    try {
      const { sim, clock, client } = await start({ webhookBackoffMs: 1000 });
      secret = (await client.createHookSecret(sim.state.workspace.id)).value;
      const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const { subscription, confirmationSecret } = await client.createHookSubscription(sim.state.workspace.id, "submission.status.change", target);
      expect(subscription.is_enabled).toBe(false);
      await expect(client.confirmHookSubscription(subscription.id, "wrong")).rejects.toThrow(/does not match/);
      expect((await client.confirmHookSubscription(subscription.id, confirmationSecret!)).is_enabled).toBe(true);
      const study = await client.createStudy(draft());
      await client.transitionStudy(study.id, "PUBLISH");
      sim.service.startSubmission("aaaaaaaaaaaaaaaaaaaaaaa1", study.id);
      await sim.flushWebhooks();
      expect(received).toHaveLength(1); // answered 500: retried after the back-off, in simulated time
      await sim.flushWebhooks();
      expect(received).toHaveLength(1);
      clock.advance(1);
      await sim.flushWebhooks();
      expect(received).toHaveLength(2);
      expect(received.every((r) => r.ok && r.status === "ACTIVE")).toBe(true);
      expect(received[0]!.id).toBe(received[1]!.id);
      expect(sim.state.deliveries[0]!.status).toBe("SUCCEEDED");
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });

  it("answers 401 without the token, and 429s on money calls that the client's gate rides out", async () => {
    const { sim, client } = await start();
    const stranger = new ProlificClient({ token: "nope", baseUrl: sim.apiUrl });
    await expect(stranger.getMe()).rejects.toMatchObject({ code: "permission_denied" });
    const study = await client.createStudy(draft({ total_available_places: 20 }));
    await client.transitionStudy(study.id, "PUBLISH");
    const ids = Array.from({ length: 20 }, (_, i) => {
      const sub = sim.service.startSubmission(`a${String(i).padStart(23, "0")}`, study.id);
      sim.service.completeSubmission(sub.id, "DONE1234");
      return sub.id;
    });
    sim.setFaults({ throttleRate: 0.5 });
    for (const id of ids) await client.approveSubmission(id);
    expect(sim.stats.throttled).toBeGreaterThan(0);
    expect(Object.values(sim.state.submissions).every((s) => s.status === "APPROVED")).toBe(true);
    expect(sim.state.debits.filter((d) => d.kind === "reward")).toHaveLength(20);
  });

  it("has a created study on disk before the create call answers", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "prolific-sim-")), "state.json");
    const { client } = await start({ persistFile: file });
    const study = await client.createStudy(draft());
    const onDisk = JSON.parse(readFileSync(file, "utf8")) as ProlificSimState;
    expect(onDisk.studies[study.id]?.internal_name).toBe("accord:batch-1");
  });
});
