import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { verifyWebhook } from "../webhook-signature";
import { draftBody, httpClient } from "./http-test-client";
import { startProlificSimulator, type RunningProlificSimulator } from "./server";

// The reference's [2+] webhook facts over HTTP: event types, set-up, the four payloads, headers, delivery logs.

let sim: RunningProlificSimulator | null = null;
let receiver: Server | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  receiver = null;
});

type Obj = Record<string, unknown>;
type Delivery = { body: Obj; headers: Record<string, string | string[] | undefined>; verified: boolean };
const pid = (n: number) => n.toString(16).padStart(24, "a");

/** A target that records each delivery and whether its signature checks out with the workspace secret. */
async function startReceiver(secret: () => string): Promise<{ url: string; got: Delivery[] }> {
  const got: Delivery[] = [];
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks);
      const check = verifyWebhook({ rawBody, timestamp: String(req.headers["x-prolific-request-timestamp"]), signature: String(req.headers["x-prolific-request-signature"]), secret: secret() });
      got.push({ body: JSON.parse(rawBody.toString("utf8")) as Obj, headers: req.headers, verified: check.ok });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, "127.0.0.1", () => resolve()));
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, got };
}

describe("webhooks", () => {
  it("lists the four documented event types with descriptions", async () => {
    sim = await startProlificSimulator({ clock: new ManualClock() });
    const types = ((await httpClient(sim)("GET", "hooks/event-types/")).json as { results: Array<{ event_type: string; description: string }> }).results;
    expect(types.map((t) => t.event_type)).toEqual(["submission.status.change", "study.status.change", "study.progress.change", "study.has_high_return_rate"]);
    for (const t of types) expect(t.description.length).toBeGreaterThan(0);
  });

  it("delivers every event type with its documented body and headers, and logs the deliveries", async () => {
    const clock = new ManualClock();
    sim = await startProlificSimulator({ clock, balance: 1_000_000 });
    const api = httpClient(sim);
    const ws = sim.state.workspace.id;
    const secret = (await api("POST", "hooks/secrets/", { workspace_id: ws })).json as { id: string; value: string; workspace_id: string };
    expect(secret.workspace_id).toBe(ws);
    expect(((await api("GET", `hooks/secrets/?workspace_id=${ws}`)).json as { results: Obj[] }).results).toEqual([secret]);
    const { url, got } = await startReceiver(() => secret.value);
    const subs: Record<string, string> = {};
    for (const event_type of ["submission.status.change", "study.status.change", "study.progress.change", "study.has_high_return_rate"]) {
      const created = await api("POST", "hooks/subscriptions/", { workspace_id: ws, event_type, target_url: url });
      expect(created.status).toBe(201);
      const id = (created.json as { id: string }).id;
      subs[event_type] = id;
      if (event_type !== "study.has_high_return_rate") await api("POST", `hooks/subscriptions/${id}/`, { secret: created.headers.get("x-hook-secret") });
    }
    const listed = async (q: string) => (((await api("GET", `hooks/subscriptions/${q}`)).json as { results: Obj[] }).results.map((s) => s.event_type));
    expect(await listed("?is_enabled=false")).toEqual(["study.has_high_return_rate"]);
    expect((await listed(`?workspace_id=${ws}&is_enabled=true`)).sort()).toEqual(["study.progress.change", "study.status.change", "submission.status.change"]);
    expect(await listed("?workspace_id=cccccccccccccccccccccccc")).toEqual([]);
    expect((await api("GET", "hooks/subscriptions/?is_enabled=perhaps")).status).toBe(400);
    expect((await api("PATCH", `hooks/subscriptions/${subs["study.has_high_return_rate"]}/`, { is_enabled: true })).json).toMatchObject({ is_enabled: true });

    const study = (await api("POST", "studies/", draftBody({ total_available_places: 6 }))).json as { id: string };
    await api("POST", `studies/${study.id}/transition/`, { action: "PUBLISH" });
    const started = [1, 2, 3, 4, 5].map((n) => sim!.service.startSubmission(pid(n), study.id));
    sim.service.completeSubmission(started[0]!.id, "DONE1234");
    sim.service.returnSubmission(started[1]!.id);
    sim.service.returnSubmission(started[2]!.id);
    await sim.flushWebhooks();

    expect(got.every((d) => d.verified)).toBe(true);
    for (const d of got) {
      expect(d.headers["x-event-id"]).toMatch(/^[0-9a-f]{24}$/);
      expect(d.headers["x-timestamp"]).toMatch(/^\d+$/);
      expect(d.headers["x-prolific-request-timestamp"]).toMatch(/^\d+$/);
    }
    const of = (type: string) => got.filter((d) => d.body.event_type === type).map((d) => d.body);
    expect(of("study.status.change")).toEqual([{ resource_id: study.id, event_type: "study.status.change", metadata: {}, status: "ACTIVE" }]);
    expect(of("submission.status.change")[0]).toEqual({ resource_id: started[0]!.id, event_type: "submission.status.change", participant_id: pid(1), status: "ACTIVE" });
    expect(of("submission.status.change").map((b) => b.status)).toEqual(["ACTIVE", "ACTIVE", "ACTIVE", "ACTIVE", "ACTIVE", "AWAITING REVIEW", "RETURNED", "RETURNED"]);
    // One progress event per change of a submission in the study, carrying only the study id and the type.
    expect(of("study.progress.change")).toHaveLength(8);
    for (const b of of("study.progress.change")) expect(b).toEqual({ resource_id: study.id, event_type: "study.progress.change" });
    // 2 of 5 returned (40%): announced once.
    expect(of("study.has_high_return_rate")).toEqual([{ resource_id: study.id, event_type: "study.has_high_return_rate", metadata: {} }]);
    sim.service.returnSubmission(started[3]!.id);
    await sim.flushWebhooks();
    expect(got.filter((d) => d.body.event_type === "study.has_high_return_rate")).toHaveLength(1);

    const log = (await api("GET", `hooks/subscriptions/${subs["study.status.change"]}/events/?status=SUCCEEDED`)).json as { results: Obj[]; meta: { count: number } };
    expect(log.meta.count).toBe(1);
    expect(log.results[0]).toEqual({ id: expect.any(String), datetime_created: expect.any(String), datetime_updated: expect.any(String), event_type: "study.status.change", resource_id: study.id, status: "SUCCEEDED", target_url: url });
    expect(((await api("GET", `hooks/subscriptions/${subs["study.status.change"]}/events/?status=FAILED`)).json as { results: Obj[] }).results).toEqual([]);
    expect((await api("DELETE", `hooks/subscriptions/${subs["study.progress.change"]}/`)).status).toBe(204);
    expect((await api("GET", `hooks/subscriptions/${subs["study.progress.change"]}/events/`)).status).toBe(404);
  });
});

// Facts copied from the reference (the Prolific API reference used in development), so the test does not read it.
const REF = {
  // §7 Setup [2+]: POST /hooks/secrets/ {workspace_id} → 201 {id, value, workspace_id}; one active secret per workspace,
  // a new one replaces the old; GET /hooks/secrets/?workspace_id= lists it.
  secretFields: ["id", "value", "workspace_id"],
  // §7 Setup [2+]: subscriptions belong to a workspace ({workspace_id, event_type, target_url}); GET ?workspace_id&is_enabled.
  subscriptionFields: ["id", "event_type", "target_url", "is_enabled", "workspace_id"],
  // §1 Pagination [1]: /hooks/subscriptions/ takes limit and offset; its list has no _links or meta (CLI struct).
  subscriptionPaging: ["limit", "offset"],
  // §2 Study status machine [2+]: PUBLISH with publish_at → SCHEDULED → (time) → ACTIVE; study.status.change carries the status.
  scheduledThenActive: ["SCHEDULED", "ACTIVE"],
};

describe("webhooks per workspace", () => {
  it("keeps one secret per workspace, signs each workspace's deliveries with its own, and sends a workspace only its events", async () => {
    const clock = new ManualClock();
    sim = await startProlificSimulator({ clock, balance: 1_000_000 });
    const api = httpClient(sim);
    const main = sim.state.workspace.id;
    const other = ((await api("POST", "workspaces/", { title: "Other lab" })).json as { id: string }).id;
    const mainSecret = (await api("POST", "hooks/secrets/", { workspace_id: main })).json as Obj;
    const first = (await api("POST", "hooks/secrets/", { workspace_id: other })).json as Obj;
    const otherSecret = (await api("POST", "hooks/secrets/", { workspace_id: other })).json as Obj;
    expect(Object.keys(otherSecret).sort()).toEqual([...REF.secretFields].sort());
    expect(otherSecret.workspace_id).toBe(other);
    expect(otherSecret.value).not.toBe(first.value);
    expect(((await api("GET", `hooks/secrets/?workspace_id=${other}`)).json as { results: Obj[] }).results).toEqual([otherSecret]);
    expect(((await api("GET", `hooks/secrets/?workspace_id=${main}`)).json as { results: Obj[] }).results).toEqual([mainSecret]);
    expect((await api("POST", "hooks/secrets/", { workspace_id: "dddddddddddddddddddddddd" })).status).toBe(404);

    const { url, got } = await startReceiver(() => String(mainSecret.value));
    const subscribe = async (workspace_id: string) => {
      const created = await api("POST", "hooks/subscriptions/", { workspace_id, event_type: "study.status.change", target_url: url });
      expect(Object.keys(created.json as Obj).sort()).toEqual([...REF.subscriptionFields].sort());
      const id = (created.json as { id: string }).id;
      await api("POST", `hooks/subscriptions/${id}/`, { secret: created.headers.get("x-hook-secret") });
      return id;
    };
    await subscribe(main);
    await subscribe(other);
    expect((await api("POST", "hooks/subscriptions/", { workspace_id: "dddddddddddddddddddddddd", event_type: "study.status.change", target_url: url })).status).toBe(404);
    const page1 = (await api("GET", "hooks/subscriptions/?limit=1&offset=0")).json as Obj;
    const page2 = (await api("GET", "hooks/subscriptions/?limit=1&offset=1")).json as Obj;
    expect(REF.subscriptionPaging.every((p) => p === "limit" || p === "offset")).toBe(true);
    expect((page1.results as Obj[]).length).toBe(1);
    expect((page2.results as Obj[])[0]!.id).not.toBe((page1.results as Obj[])[0]!.id);
    expect(((await api("GET", `hooks/subscriptions/?workspace_id=${other}`)).json as { results: Obj[] }).results).toHaveLength(1);

    // A study of the main workspace, scheduled: its two status changes reach the main workspace's subscription only.
    const at = new Date(clock.now() + 60_000).toISOString();
    const study = (await api("POST", "studies/", draftBody({ publish_at: at }))).json as { id: string };
    await api("POST", `studies/${study.id}/transition/`, { action: "PUBLISH" });
    clock.advance(60);
    await sim.flushWebhooks();
    expect(got.map((d) => d.body.status)).toEqual(REF.scheduledThenActive);
    expect(got.every((d) => d.verified && d.body.resource_id === study.id)).toBe(true);
  });
});
