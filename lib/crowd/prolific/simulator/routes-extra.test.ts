import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { normaliseStatus } from "./routes-extra";
import { startProlificSimulator, type RunningProlificSimulator } from "./server";

let sim: RunningProlificSimulator | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${sim!.apiUrl}${path}`, { method, headers: { authorization: `Token ${sim!.token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined };
}

const draft = {
  name: "Label tweets",
  description: "Choose the category of each tweet.",
  external_study_url: "https://example.org/task?pid={{%PROLIFIC_PID%}}",
  prolific_id_option: "url_parameters",
  completion_codes: [
    { code: "DONE1234", code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] },
    { code: "SCREENED", code_type: "OTHER", actor: "researcher", actions: [{ action: "AUTOMATICALLY_APPROVE" }] },
  ],
  total_available_places: 3,
  estimated_completion_time: 15,
  maximum_allowed_time: 45,
  reward: 300,
  filters: [],
};

describe("the reference's other endpoints", () => {
  it("lists submissions by study and status (underscores accepted), counts them, and costs the study", async () => {
    sim = await startProlificSimulator({ clock: new ManualClock(), balance: 100_000 });
    const study = (await api("POST", "studies/", draft)).json as { id: string };
    await api("POST", `studies/${study.id}/transition/`, { action: "PUBLISH" });
    const a = sim.service.startSubmission("aaaaaaaaaaaaaaaaaaaaaaa1", study.id);
    const b = sim.service.startSubmission("bbbbbbbbbbbbbbbbbbbbbbb2", study.id);
    sim.service.startSubmission("ccccccccccccccccccccccc3", study.id);
    sim.service.completeSubmission(a.id, "DONE1234");
    const completed = await api("POST", `submissions/${b.id}/transition/`, { action: "COMPLETE", completion_code: "SCREENED" });
    expect(completed.json).toMatchObject({ status: "APPROVED", entered_code: "SCREENED" });
    expect((await api("POST", `submissions/${b.id}/transition/`, { action: "COMPLETE", completion_code: "DONE1234" })).status).toBe(400);

    const awaiting = (await api("GET", `submissions/?study=${study.id}&status=AWAITING_REVIEW`)).json as { results: Array<{ id: string; participant: string }>; meta: { count: number } };
    expect(awaiting.results.map((s) => s.id)).toEqual([a.id]);
    const paged = (await api("GET", `submissions/?study=${study.id}&page_size=2`)).json as { results: unknown[]; _links: { next: { href: string | null } } };
    expect(paged.results).toHaveLength(2);
    expect(paged._links.next.href).toContain("page=2");
    expect((await api("GET", "submissions/?status=NOPE")).status).toBe(400);
    expect((await api("GET", `studies/${study.id}/submissions/counts/`)).json).toMatchObject({ ACTIVE: 1, "AWAITING REVIEW": 1, APPROVED: 1, "TIMED-OUT": 0, "SCREENED OUT": 0, TOTAL: 3 });
    const cost = (await api("GET", `studies/${study.id}/cost/`)).json as { rewards: { rewards: { amount: number; currency: string } } };
    expect(cost.rewards.rewards).toEqual({ amount: 300, currency: "GBP" });
    const projected = (await api("GET", `studies/${study.id}/cost/?is_projected=true`)).json as { rewards: { rewards: { amount: number } } };
    expect(projected.rewards.rewards.amount).toBe(900);
  });

  it("renames groups, messages a group, reads and patches subscriptions", async () => {
    sim = await startProlificSimulator({ clock: new ManualClock(), balance: 100_000 });
    const ws = sim.state.workspace.id;
    const group = (await api("POST", "participant-groups/", { name: "g", workspace_id: ws, participant_ids: ["aaaaaaaaaaaaaaaaaaaaaaa1"] })).json as { id: string };
    expect((await api("PATCH", `participant-groups/${group.id}/`, { name: "renamed" })).json).toMatchObject({ name: "renamed", participant_count: 1 });
    expect((await api("POST", "messages/participant-group/", { participant_group_id: group.id, body: "Thanks" })).status).toBe(201);
    expect(sim.state.messages.map((m) => m.recipient_id)).toEqual(["aaaaaaaaaaaaaaaaaaaaaaa1"]);
    expect((await api("GET", "messages/unread/")).json).toEqual({ results: [] });
    const sub = (await api("POST", "hooks/subscriptions/", { workspace_id: ws, event_type: "study.status.change", target_url: "https://example.org/hooks" })).json as { id: string };
    expect((await api("PATCH", `hooks/subscriptions/${sub.id}/`, { is_enabled: true, target_url: "https://example.org/h2" })).json).toMatchObject({ is_enabled: true, target_url: "https://example.org/h2" });
    expect((await api("GET", `hooks/subscriptions/${sub.id}/`)).json).not.toHaveProperty("confirmation");
    expect((await api("GET", "nothing-here/")).json).toMatchObject({ error: { status: 404, title: "Not found" } });
  });

  it("normalises status spellings the way the status filter does", () => {
    expect(normaliseStatus("awaiting_review")).toBe("AWAITING REVIEW");
    expect(normaliseStatus("TIMED_OUT")).toBe("TIMED-OUT");
    expect(normaliseStatus("SCREENED_OUT")).toBe("SCREENED OUT");
    expect(normaliseStatus("bogus")).toBeNull();
  });
});
