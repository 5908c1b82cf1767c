import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { draftBody, httpClient } from "./http-test-client";
import { startProlificSimulator, type RunningProlificSimulator } from "./server";

// The reference's [2+] facts on submissions, groups and messages, checked over HTTP (participants act through the service).

let sim: RunningProlificSimulator | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

type Obj = Record<string, unknown>;
const pid = (n: number) => n.toString(16).padStart(24, "a");

async function published(overrides: Obj = {}) {
  const clock = new ManualClock();
  sim = await startProlificSimulator({ clock, balance: 1_000_000, currency: "GBP" });
  const api = httpClient(sim);
  const study = (await api("POST", "studies/", draftBody(overrides))).json as { id: string };
  expect((await api("POST", `studies/${study.id}/transition/`, { action: "PUBLISH" })).status).toBe(200);
  return { sim, clock, api, studyId: study.id };
}

describe("submissions", () => {
  it("answers the list and detail formats with their documented fields", async () => {
    const { sim, clock, api, studyId } = await published();
    const sub = sim.service.startSubmission(pid(1), studyId);
    clock.advance(600);
    sim.service.completeSubmission(sub.id, "DONE1234");
    const list = (await api("GET", `studies/${studyId}/submissions/`)).json as { results: Obj[]; meta: { count: number }; _links: Obj };
    expect(list.meta.count).toBe(1);
    expect(list._links).toHaveProperty("next");
    const item = list.results[0]!;
    expect(item).toMatchObject({ id: sub.id, participant_id: pid(1), status: "AWAITING REVIEW", is_complete: true, time_taken: 600, reward: 300, study_code: "DONE1234", entered_code: "DONE1234", return_requested: null, bonus_payments: [], has_siblings: false, star_awarded: false, strata: {} });
    expect(item).toHaveProperty("ip");
    expect(item).not.toHaveProperty("participant");
    const detail = (await api("GET", `submissions/${sub.id}/`)).json as Obj;
    expect(detail).toEqual({ id: sub.id, study_id: studyId, participant: pid(1), status: "AWAITING REVIEW", started_at: sub.started_at, completed_at: sub.completed_at, entered_code: "DONE1234", parent_study_id: null, bonus_payments: [], return_requested: null });
    const study = (await api("GET", `studies/${studyId}/`)).json as Obj;
    expect(study).toMatchObject({ average_time_taken: 600, average_reward_per_hour: 1800, is_underpaying: false });
  });

  it("filters GET /submissions/ by status spellings, boolean flags and ordering", async () => {
    const { sim, clock, api, studyId } = await published({ total_available_places: 5, maximum_allowed_time: 30 });
    const [a, b, c, d] = [1, 2, 3, 4].map((n) => {
      clock.advance(1);
      return sim.service.startSubmission(pid(n), studyId);
    });
    sim.service.completeSubmission(a!.id, "DONE1234");
    sim.service.completeSubmission(b!.id, "DONE1234");
    await api("POST", `submissions/${b!.id}/transition/`, { action: "APPROVE" });
    sim.service.returnSubmission(c!.id);
    clock.advance(31 * 60); // d times out
    const ids = async (query: string) => (((await api("GET", `submissions/?study=${studyId}&${query}`)).json as { results: Obj[] }).results.map((s) => s.id));
    expect(await ids("status=TIMED-OUT")).toEqual([d!.id]);
    expect(await ids("status=timed_out")).toEqual([d!.id]);
    expect(await ids("returned=1")).toEqual([c!.id]);
    expect(await ids("awaiting_review=true")).toEqual([a!.id]);
    expect(await ids("approved=yes")).toEqual([b!.id]);
    expect(await ids("timeout=t")).toEqual([d!.id]);
    expect((await ids("completed=0&ordering=started_at")).sort()).toEqual([c!.id, d!.id].sort());
    expect(await ids("completed=f&returned=false")).toEqual([d!.id]);
    expect(await ids("active=1")).toEqual([]);
    expect(await ids("ordering=-started_at")).toEqual([d!.id, c!.id, b!.id, a!.id]);
    expect(await ids("ordering=started_at")).toEqual([a!.id, b!.id, c!.id, d!.id]);
    const bad = await api("GET", "submissions/?completed=maybe");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain("completed");
  });

  it("bulk-approves by study and participant ids, answering the documented string", async () => {
    const { sim, api, studyId } = await published();
    const subs = [1, 2, 3].map((n) => sim.service.startSubmission(pid(n), studyId));
    for (const s of subs) sim.service.completeSubmission(s.id, "DONE1234");
    const r = await api("POST", "submissions/bulk-approve/", { study_id: studyId, participant_ids: [pid(1), pid(3)] });
    expect(r.status).toBe(200);
    expect(r.json).toBe("The request to bulk approve has been made successfully.");
    const counts = (await api("GET", `studies/${studyId}/submissions/counts/`)).json as Obj;
    expect(counts).toMatchObject({ APPROVED: 2, "AWAITING REVIEW": 1, TOTAL: 3 });
    expect((await api("POST", "submissions/bulk-approve/", { participant_ids: [pid(2)] })).status).toBe(400);
  });

  it("carries out REQUEST_RETURN and DYNAMIC_PAYMENT completion-code actions", async () => {
    const codes = [
      { code: "DONE1234", code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] },
      { code: "NOCONSENT", code_type: "NO_CONSENT", actions: [{ action: "REQUEST_RETURN", return_reason: "Withdrew consent" }] },
      { code: "PARTIAL", code_type: "COMPLETED", actor: "researcher", actions: [{ action: "DYNAMIC_PAYMENT" }] },
    ];
    const { sim, api, studyId } = await published({ completion_codes: codes });
    const a = sim.service.startSubmission(pid(1), studyId);
    sim.service.completeSubmission(a.id, "NOCONSENT");
    expect((await api("GET", `submissions/${a.id}/`)).json).toMatchObject({ return_requested: expect.any(String) });
    const b = sim.service.startSubmission(pid(2), studyId);
    expect((await api("POST", `submissions/${b.id}/transition/`, { action: "COMPLETE", completion_code: "PARTIAL", completion_code_data: { percentage_of_reward: 200 } })).status).toBe(400);
    const before = sim.state.workspace.balance;
    const done = await api("POST", `submissions/${b.id}/transition/`, { action: "COMPLETE", completion_code: "PARTIAL", completion_code_data: { percentage_of_reward: 50, message_to_participant: "Thanks" } });
    expect(done.json).toMatchObject({ id: b.id, status: "PARTIALLY APPROVED" });
    const rewardDebit = sim.state.debits.find((x) => x.ref === b.id && x.kind === "reward");
    expect(rewardDebit?.amount).toBe(150);
    expect(before - sim.state.workspace.balance).toBeGreaterThan(150);
    expect((await api("GET", `studies/${studyId}/submissions/counts/`)).json).toMatchObject({ "PARTIALLY APPROVED": 1 });
  });

  it("auto-rejects an exceptionally fast submission when the study asks for it, reopening its place", async () => {
    const { sim, clock, api, studyId } = await published({ total_available_places: 12, submissions_config: { auto_rejection_categories: ["EXCEPTIONALLY_FAST"] } });
    for (let n = 1; n <= 10; n++) {
      const s = sim.service.startSubmission(pid(n), studyId);
      clock.advance(600 + n * 6);
      sim.service.completeSubmission(s.id, "DONE1234");
    }
    const fast = sim.service.startSubmission(pid(11), studyId);
    clock.advance(30);
    sim.service.completeSubmission(fast.id, "DONE1234");
    const normal = sim.service.startSubmission(pid(12), studyId);
    clock.advance(630);
    sim.service.completeSubmission(normal.id, "DONE1234");
    expect(((await api("GET", `submissions/${fast.id}/`)).json as Obj).status).toBe("REJECTED");
    expect(((await api("GET", `submissions/${normal.id}/`)).json as Obj).status).toBe("AWAITING REVIEW");
    expect(((await api("GET", `studies/${studyId}/`)).json as Obj).places_taken).toBe(11);
  });
});

describe("participant groups and messages", () => {
  it("answers groups with their documented fields, feeder studies included, and filters them by workspace", async () => {
    const clock = new ManualClock();
    sim = await startProlificSimulator({ clock, balance: 100_000 });
    const api = httpClient(sim);
    const ws = sim.state.workspace.id;
    const group = (await api("POST", "participant-groups/", { name: "Passed", workspace_id: ws, description: "Passed the screening" })).json as Obj;
    expect(group).toMatchObject({ name: "Passed", description: "Passed the screening", workspace_id: ws, organisation_id: null, project_id: null, participant_count: 0, feeder_studies: [], is_deleted: false });
    const feeder = (await api("POST", "studies/", draftBody({ internal_name: "screening", completion_codes: [{ code: "PASS", code_type: "COMPLETED", actions: [{ action: "AUTOMATICALLY_APPROVE" }, { action: "ADD_TO_PARTICIPANT_GROUP", participant_group: group.id }] }] }))).json as Obj;
    const read = (await api("GET", `participant-groups/${group.id}/`)).json as { feeder_studies: Obj[] };
    expect(read.feeder_studies).toEqual([{ id: feeder.id, name: "Label tweets", internal_name: "screening", status: "UNPUBLISHED", completion_codes: [expect.objectContaining({ code: "PASS" })] }]);
    const other = (await api("POST", "workspaces/", { title: "Other" })).json as Obj;
    await api("POST", "participant-groups/", { name: "Elsewhere", workspace_id: other.id });
    const names = async (q: string) => (((await api("GET", `participant-groups/${q}`)).json as { results: Obj[] }).results.map((g) => g.name));
    expect(await names(`?workspace_id=${ws}`)).toEqual(["Passed"]);
    expect(await names(`?workspace_id=${other.id}`)).toEqual(["Elsewhere"]);
    expect((await names("")).sort()).toEqual(["Elsewhere", "Passed"]);
  });

  it("lists messages by user or date only, in the documented item shape", async () => {
    const { sim, clock, api, studyId } = await published();
    sim.service.startSubmission(pid(1), studyId);
    sim.service.startSubmission(pid(2), studyId);
    const sentAt = new Date(clock.now()).toISOString();
    expect((await api("POST", "messages/", { recipient_id: pid(1), study_id: studyId, body: "Hello" })).status).toBe(201);
    clock.advance(60);
    expect((await api("POST", "messages/", { recipient_id: pid(2), study_id: studyId, body: "Later" })).status).toBe(201);
    const missing = await api("GET", "messages/");
    expect(missing.status).toBe(400);
    const mine = ((await api("GET", `messages/?user_id=${pid(1)}`)).json as { results: Obj[] }).results;
    expect(mine).toEqual([{ id: expect.any(String), sender_id: sim.state.user.id, recipient_id: pid(1), body: "Hello", sent_at: sentAt, datetime_created: sentAt, channel_id: expect.any(String), type: "message", data: { study_id: studyId, category: "other" } }]);
    const after = ((await api("GET", `messages/?created_after=${encodeURIComponent(new Date(clock.now() - 30_000).toISOString())}`)).json as { results: Obj[] }).results;
    expect(after.map((m) => m.body)).toEqual(["Later"]);
    expect(((await api("GET", `messages/?user_id=${pid(1)}&created_after=${encodeURIComponent(new Date(clock.now() - 30_000).toISOString())}`)).json as { results: Obj[] }).results).toEqual([]);
    expect((await api("GET", "messages/?created_after=yesterday")).status).toBe(400);
  });
});

// Facts copied from the reference (the Prolific API reference used in development), so the test does not read it.
const REF = {
  // §3 "Submission status machine" [2+]: SCREENED OUT with a space ("SCREENED-OUT" is wrong).
  screenedOut: "SCREENED OUT",
  // §3 "Endpoints" [1 Potato]: POST /studies/{id}/screen-out-submissions/ {submission_ids, increase_places}, ACTIVE only.
  screenOutPath: (study: string) => `studies/${study}/screen-out-submissions/`,
  // §2 completion-code actions [1]: FIXED_SCREEN_OUT_PAYMENT with fixed_screen_out_reward (minor units).
  fixedScreenOut: { action: "FIXED_SCREEN_OUT_PAYMENT", fixed_screen_out_reward: 50 },
  // §3 GET /submissions/ status filter [2+]: case-insensitive, "_" for the space (SCREENED_OUT).
  screenedOutQuery: "SCREENED_OUT",
  // §5 "Participant groups" [2+]: GET /participant-groups/ takes workspace_id (or project_id) and is_active.
  groupListParams: ["workspace_id", "project_id", "is_active"],
};

describe("screen-out and group listing", () => {
  it("screens out ACTIVE submissions as SCREENED OUT, pays the fixed reward and adds places when asked", async () => {
    const codes = [
      { code: "DONE1234", code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] },
      { code: "SCREEN01", code_type: "FIXED_SCREENOUT", actions: [REF.fixedScreenOut] },
    ];
    const { sim, api, studyId } = await published({ completion_codes: codes, total_available_places: 3 });
    const [a, b, c] = [1, 2, 3].map((n) => sim.service.startSubmission(pid(n), studyId));
    sim.service.completeSubmission(c!.id, "DONE1234");
    const refused = await api("POST", REF.screenOutPath(studyId), { submission_ids: [a!.id, c!.id] });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json)).toContain(c!.id);
    const done = await api("POST", REF.screenOutPath(studyId), { submission_ids: [a!.id], increase_places: true });
    expect(done.status).toBe(200);
    expect((done.json as { results: Obj[] }).results).toEqual([expect.objectContaining({ id: a!.id, status: REF.screenedOut })]);
    expect((await api("GET", `submissions/${a!.id}/`)).json).toMatchObject({ status: REF.screenedOut });
    expect(sim.state.debits.filter((d) => d.ref === a!.id && d.kind === "reward").map((d) => d.amount)).toEqual([REF.fixedScreenOut.fixed_screen_out_reward]);
    const study = (await api("GET", `studies/${studyId}/`)).json as Obj;
    expect(study).toMatchObject({ total_available_places: 4, places_taken: 3 });
    const listed = ((await api("GET", `submissions/?study=${studyId}&status=${REF.screenedOutQuery}`)).json as { results: Obj[] }).results;
    expect(listed.map((s) => s.id)).toEqual([a!.id]);
    expect((await api("GET", `studies/${studyId}/submissions/counts/`)).json).toMatchObject({ "SCREENED OUT": 1, ACTIVE: 1, "AWAITING REVIEW": 1, TOTAL: 3 });
    expect(b!.status).toBe("ACTIVE");
  });

  it("lists participant groups by is_active: deleted groups only when asked for", async () => {
    sim = await startProlificSimulator({ clock: new ManualClock(), balance: 100_000 });
    const api = httpClient(sim);
    expect(REF.groupListParams).toContain("is_active");
    const ws = sim.state.workspace.id;
    const keep = (await api("POST", "participant-groups/", { name: "Keep", workspace_id: ws })).json as Obj;
    const gone = (await api("POST", "participant-groups/", { name: "Gone", workspace_id: ws })).json as Obj;
    expect((await api("DELETE", `participant-groups/${gone.id}/`)).status).toBe(204);
    const names = async (q: string) => (((await api("GET", `participant-groups/?workspace_id=${ws}${q}`)).json as { results: Obj[] }).results.map((g) => [g.name, g.is_deleted]));
    expect(await names("")).toEqual([["Keep", false]]);
    expect(await names("&is_active=true")).toEqual([["Keep", false]]);
    expect(await names("&is_active=false")).toEqual([["Gone", true]]);
    expect((await api("GET", "participant-groups/?is_active=sometimes")).status).toBe(400);
    expect(keep.is_deleted).toBe(false);
  });
});

describe("submissions_config", () => {
  // §2 "Create body" [2+]: submissions_config {max_submissions_per_participant: 1 (default) | N | -1 unlimited,
  // max_concurrent_submissions: -1 unlimited | N}.
  const CONFIG = { max_submissions_per_participant: -1, max_concurrent_submissions: 1 };

  it("lets a participant take a study several times, one submission open at a time", async () => {
    const { sim, api, studyId } = await published({ total_available_places: 5, submissions_config: CONFIG });
    const first = sim.service.startSubmission(pid(1), studyId);
    expect(() => sim.service.startSubmission(pid(1), studyId)).toThrow(/open/);
    sim.service.completeSubmission(first.id, "DONE1234");
    const second = sim.service.startSubmission(pid(1), studyId);
    expect(second.id).not.toBe(first.id);
    expect(((await api("GET", `studies/${studyId}/`)).json as Obj).submissions_config).toMatchObject(CONFIG);
  });

  it("refuses a second try by default (one submission per participant)", async () => {
    const { sim, studyId } = await published();
    const s = sim.service.startSubmission(pid(2), studyId);
    sim.service.completeSubmission(s.id, "DONE1234");
    expect(() => sim.service.startSubmission(pid(2), studyId)).toThrow(/already taken part/);
  });
});
