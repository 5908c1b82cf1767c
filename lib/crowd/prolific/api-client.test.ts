import { describe, expect, it } from "vitest";
import { CrowdError } from "../errors";
import { ThrottleGate } from "../throttle-gate";
import { ProlificClient } from "./api-client";

type Call = { method: string; url: string; auth: string | null; body: unknown };
type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

/** A fetch that records each call and answers from a script (the last answer repeats). */
function scripted(replies: Array<Reply | ((call: Call) => Reply)>) {
  const calls: Call[] = [];
  const impl: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const call = { method: init?.method ?? "GET", url: String(input), auth: headers.get("authorization"), body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const next = replies[Math.min(calls.length - 1, replies.length - 1)]!;
    const reply = typeof next === "function" ? next(call) : next;
    if (reply instanceof Error) throw reply;
    return new Response(reply.body === undefined ? null : typeof reply.body === "string" ? JSON.stringify(reply.body) : JSON.stringify(reply.body), { status: reply.status, headers: reply.headers });
  };
  return { calls, impl };
}

const fastGate = () => new ThrottleGate({ baseMs: 1, capMs: 2, random: () => 0 });
const client = (impl: typeof fetch, extra: Partial<ConstructorParameters<typeof ProlificClient>[0]> = {}) =>
  new ProlificClient({ token: "tok", baseUrl: "http://127.0.0.1:1/api/v1", fetch: impl, gate: fastGate(), faultBackoffMs: 1, ...extra });

const STUDY = { id: "64a1b2c3d4e5f60718293a4b", name: "Tweets", internal_name: "accord:batch-1", status: "UNPUBLISHED", total_available_places: 3, reward: 225, completion_codes: [{ code: "C0DE", code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] }] };

describe("ProlificClient", () => {
  it("sends the token, JSON and trailing-slash paths, and validates the answer", async () => {
    const f = scripted([{ status: 201, body: STUDY }]);
    const study = await client(f.impl).createStudy({ name: "Tweets" });
    expect(study.status).toBe("UNPUBLISHED");
    expect(f.calls).toEqual([{ method: "POST", url: "http://127.0.0.1:1/api/v1/studies/", auth: "Token tok", body: { name: "Tweets" } }]);
  });

  it("follows _links.next until it is null", async () => {
    const item = (n: number) => ({ id: `s${n}`, participant_id: `p${n}`, status: "AWAITING REVIEW" });
    const f = scripted([
      { status: 200, body: { results: [item(1), item(2)], _links: { next: { href: "http://127.0.0.1:1/api/v1/studies/x/submissions/?limit=2&offset=2" } } } },
      { status: 200, body: { results: [item(3)], _links: { next: { href: null } } } },
    ]);
    const subs = await client(f.impl).listSubmissions("x");
    expect(subs.map((s) => s.id)).toEqual(["s1", "s2", "s3"]);
    expect(f.calls.map((c) => c.url)).toEqual(["http://127.0.0.1:1/api/v1/studies/x/submissions/?limit=200", "http://127.0.0.1:1/api/v1/studies/x/submissions/?limit=2&offset=2"]);
  });

  it("never sends the token to another host named by a next link", async () => {
    const f = scripted([{ status: 200, body: { results: [], _links: { next: { href: "https://evil.example/api/v1/x/" } } } }]);
    await expect(client(f.impl).listSubmissions("x")).rejects.toThrow(/another host/);
    expect(f.calls).toHaveLength(1);
  });

  it("retries 429 through the gate, for creating calls too (nothing was done)", async () => {
    const f = scripted([{ status: 429, body: { error: { status: 429, title: "Too many requests" } } }, { status: 429 }, { status: 201, body: STUDY }]);
    const c = client(f.impl);
    expect((await c.createStudy({ name: "Tweets" })).id).toBe(STUDY.id);
    expect(f.calls).toHaveLength(3);
    expect(c.gate.stats.throttled).toBe(2);
  });

  it("retries a 5xx or a network error for safe calls only, never for a create", async () => {
    const safe = scripted([{ status: 502 }, new TypeError("fetch failed"), { status: 200, body: STUDY }]);
    expect((await client(safe.impl).getStudy(STUDY.id)).id).toBe(STUDY.id);
    expect(safe.calls).toHaveLength(3);

    const create = scripted([{ status: 503, body: { message: "Service unavailable" } }]);
    const err = await client(create.impl).createStudy({ name: "Tweets" }).catch((e: unknown) => e);
    expect(create.calls).toHaveLength(1);
    expect(err).toBeInstanceOf(CrowdError);
    expect((err as CrowdError).code).toBe("service_unavailable");

    const publish = scripted([new TypeError("socket hang up")]);
    await expect(client(publish.impl).transitionStudy(STUDY.id, "PUBLISH")).rejects.toMatchObject({ code: "network" });
    expect(publish.calls).toHaveLength(1);
  });

  it("turns Prolific's error bodies into messages a researcher can act on", async () => {
    const f = scripted([{ status: 400, body: { error: { status: 400, error_code: 140100, title: "Bad request", detail: { reward: ["Reward too low."] } } } }]);
    await expect(client(f.impl).updateStudy("s", { reward: 1 })).rejects.toThrow("Prolific refused updating a study (HTTP 400): Bad request: reward: Reward too low.");
    const auth = scripted([{ status: 401, body: { message: "Invalid token." } }]);
    await expect(client(auth.impl).getMe()).rejects.toThrow(/HTTP 401\): Invalid token\. Check the Prolific API token in Settings/);
    const shape = scripted([{ status: 200, body: { id: "s", status: "SOMETHING NEW" } }]);
    await expect(client(shape.impl).getStudy("s")).rejects.toThrow(/unexpected shape/);
  });

  it("refuses a short rejection message before calling, and sends bulk approvals in sequential batches of 1,000", async () => {
    const f = scripted([{ status: 200, body: "The request to bulk approve has been made successfully." }]);
    const c = client(f.impl);
    await expect(c.rejectSubmission("s", "FAILED_CHECK", "too short")).rejects.toThrow(/at least 100 characters/);
    expect(f.calls).toHaveLength(0);
    await c.bulkApprove(Array.from({ length: 2500 }, (_, i) => `sub${i}`));
    expect(f.calls.map((call) => (call.body as { submission_ids: string[] }).submission_ids.length)).toEqual([1000, 1000, 500]);
    expect((f.calls[2]!.body as { submission_ids: string[] }).submission_ids[0]).toBe("sub2000");
  });

  it("sets up bonuses in major units and returns the subscription's confirmation header", async () => {
    const f = scripted([
      { status: 201, body: { id: "bb1", study: "s", amount: 475.0, fees: 158.3, vat: 31.7, total_amount: 665.0 } },
      { status: 201, body: { id: "h1", event_type: "submission.status.change", target_url: "https://a/b", is_enabled: false }, headers: { "X-Hook-Secret": "confirm-me" } },
    ]);
    const c = client(f.impl);
    expect((await c.setUpBonuses("s", [{ id: "p1", cents: 425 }, { id: "p2", cents: 50 }])).total_amount).toBe(665);
    expect(f.calls[0]!.body).toEqual({ study_id: "s", csv_bonuses: "p1,4.25\np2,0.50" });
    const sub = await c.createHookSubscription("w", "submission.status.change", "https://a/b");
    expect(sub.confirmationSecret).toBe("confirm-me");
  });

  it("needs a token", () => {
    expect(() => new ProlificClient({ token: "  " })).toThrow(/No Prolific API token/);
  });
});
