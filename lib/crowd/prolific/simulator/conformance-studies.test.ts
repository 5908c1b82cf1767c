import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { draftBody, httpClient } from "./http-test-client";
import { KNOWN_PATHS } from "./routes-extra";
import { startProlificSimulator, type RunningProlificSimulator } from "./server";

// The reference's [2+] facts on accounts, workspaces, projects, studies and filters, checked over HTTP.

let sim: RunningProlificSimulator | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

async function start() {
  const clock = new ManualClock();
  sim = await startProlificSimulator({ clock, balance: 100_000, currency: "GBP" });
  return { sim, clock, api: httpClient(sim) };
}

type Obj = Record<string, unknown>;
type Paged = { results: Obj[]; _links: Record<string, { href: string | null }>; meta: { count: number } };

describe("accounts, workspaces and projects", () => {
  it("answers users/me with the documented fields and refuses a bad token with the error shape", async () => {
    const { sim, api } = await start();
    const me = (await api("GET", "users/me/")).json as Obj;
    for (const field of ["id", "email", "name", "first_name", "last_name", "username", "user_type", "currency_code"]) expect(typeof me[field], field).toBe("string");
    expect(me).toMatchObject({ currency_code: "GBP", balance: 100_000, available_balance: 100_000 });
    const bad = await httpClient(sim, "nope")("GET", "users/me/");
    expect(bad.status).toBe(401);
    expect(bad.json).toMatchObject({ error: { status: 401, title: expect.any(String) } });
  });

  it("creates, reads and patches workspaces and projects; lists page with _links and meta; balances break down", async () => {
    const { sim, api } = await start();
    const list = (await api("GET", "workspaces/?limit=1")).json as Paged;
    expect(list.meta.count).toBe(1);
    expect(Object.keys(list._links).sort()).toEqual(["last", "next", "previous", "self"]);
    expect(list.results[0]).toMatchObject({ id: sim.state.workspace.id, owner: sim.state.user.id, projects: [{ id: sim.state.project.id }], naivety_distribution_rate: null });
    expect(list.results[0]).toHaveProperty("wallet");

    const created = await api("POST", "workspaces/", { title: "Second lab", description: "Pilot studies" });
    expect(created.status).toBe(201);
    const ws = created.json as Obj;
    expect(ws).toMatchObject({ title: "Second lab", description: "Pilot studies", users: [expect.objectContaining({ id: sim.state.user.id })], projects: [] });
    expect((await api("PATCH", `workspaces/${ws.id}/`, { title: "Renamed lab", naivety_distribution_rate: 0.5 })).json).toMatchObject({ title: "Renamed lab", naivety_distribution_rate: 0.5 });
    expect((await api("GET", `workspaces/${ws.id}/`)).json).toMatchObject({ title: "Renamed lab" });
    const two = (await api("GET", "workspaces/?limit=1")).json as Paged;
    expect(two.meta.count).toBe(2);
    expect(two._links.next!.href).toContain("offset=1");
    expect((await api("GET", "workspaces/aaaaaaaaaaaaaaaaaaaaaaaa/")).status).toBe(404);

    const project = await api("POST", `workspaces/${ws.id}/projects/`, { title: "Floods" });
    expect(project.status).toBe(201);
    const p = project.json as Obj;
    expect(p).toMatchObject({ title: "Floods", workspace: ws.id, owner: sim.state.user.id, naivety_distribution_rate: null });
    expect((await api("GET", `projects/${p.id}/`)).json).toMatchObject({ id: p.id, workspace: ws.id });
    expect(((await api("GET", `workspaces/${ws.id}/projects/`)).json as Paged).results.map((x) => x.id)).toEqual([p.id]);
    expect(((await api("GET", `workspaces/${ws.id}/`)).json as Obj).projects).toEqual([{ id: p.id }]);

    // Studies list per project; a new workspace has an empty wallet.
    const inNew = (await api("POST", "studies/", draftBody({ project: p.id }))).json as Obj;
    const inMain = (await api("POST", "studies/", draftBody())).json as Obj;
    expect(inNew.workspace).toBe(ws.id);
    expect(((await api("GET", `projects/${p.id}/studies/`)).json as Paged).results.map((x) => x.id)).toEqual([inNew.id]);
    expect(((await api("GET", `projects/${sim.state.project.id}/studies/`)).json as Paged).results.map((x) => x.id)).toEqual([inMain.id]);
    expect((await api("POST", `studies/${inNew.id}/transition/`, { action: "PUBLISH" })).status).toBe(400);
    expect((await api("POST", "studies/", draftBody({ project: "bbbbbbbbbbbbbbbbbbbbbbbb" }))).status).toBe(400);

    const balance = (await api("GET", `workspaces/${sim.state.workspace.id}/balance/`)).json as { total_balance: number; balance_breakdown: Obj; available_balance: number; available_balance_breakdown: Obj };
    const sum = (b: Obj) => (b.rewards as number) + (b.fees as number) + (b.vat as number);
    expect(sum(balance.balance_breakdown)).toBe(balance.total_balance);
    expect(sum(balance.available_balance_breakdown)).toBe(balance.available_balance);
    expect((await api("GET", `workspaces/${ws.id}/balance/`)).json).toMatchObject({ currency_code: "GBP", total_balance: 0, available_balance: 0 });
  });
});

describe("methods", () => {
  it("answers 405 for another method on a known path and 404 for an unknown path", async () => {
    const { api } = await start();
    const id = ((await api("POST", "studies/", draftBody())).json as Obj).id as string;
    const wrong = await api("GET", `studies/${id}/transition/`);
    expect(wrong.status).toBe(405);
    expect(wrong.json).toMatchObject({ error: { status: 405 } });
    expect((await api("PUT", "users/me/")).status).toBe(405);
    expect((await api("GET", "no-such-thing/")).status).toBe(404);
  });

  it("knows every path the route files handle (the 405 list is kept in step)", () => {
    const routed = new Set<string>();
    for (const file of ["routes.ts", "routes-extra.ts", "routes-workspaces.ts"]) {
      for (const m of readFileSync(path.join(__dirname, file), "utf8").matchAll(/case "(?:GET|POST|PATCH|PUT|DELETE) ([^"]+)"/g)) routed.add(m[1]!);
    }
    expect([...KNOWN_PATHS].sort()).toEqual([...routed].sort());
  });
});

describe("studies", () => {
  it("keeps the documented create fields and answers with the study object's fields", async () => {
    const { api } = await start();
    const created = await api(
      "POST",
      "studies/",
      draftBody({ device_compatibility: ["desktop", "tablet"], peripheral_requirements: ["audio"], naivety_distribution_rate: 0, study_labels: ["annotation"], submissions_config: { max_submissions_per_participant: 1, max_concurrent_submissions: -1 } }),
    );
    expect(created.status).toBe(201);
    const s = created.json as Obj;
    expect(s).toMatchObject({ status: "UNPUBLISHED", device_compatibility: ["desktop", "tablet"], peripheral_requirements: ["audio"], naivety_distribution_rate: 0, study_labels: ["annotation"], study_type: "SINGLE", is_pilot: false, publish_at: null, places_taken: 0, number_of_submissions: 0, currency_code: "GBP", presentment_currency_code: "GBP" });
    expect(s.submissions_config).toMatchObject({ max_submissions_per_participant: 1, max_concurrent_submissions: -1, auto_rejection_categories: [] });
    for (const field of ["total_cost", "fees_percentage", "service_margin_percentage", "vat_percentage", "fees_per_submission", "estimated_reward_per_hour", "average_reward_per_hour", "minimum_reward_per_hour", "average_time_taken"]) expect(typeof s[field], field).toBe("number");
    expect(s.estimated_reward_per_hour).toBe(1200);
    expect(s.is_underpaying).toBe(false);
    const quote = (await api("POST", "study-cost-calculator/", { reward: 300, total_available_places: 3 })).json as Obj;
    expect(s.total_cost).toBe(quote.total_cost);
    expect(s).not.toHaveProperty("reserved");
  });

  it("refuses what the reference says Prolific refuses: unknown code types and actions, filter sets with filters, bad ranges, unknown filters", async () => {
    const { api } = await start();
    const refused = async (over: Obj, field: string) => {
      const r = await api("POST", "studies/", draftBody(over));
      expect(r.status, field).toBe(400);
      expect(JSON.stringify((r.json as { error: { detail: unknown } }).error.detail), field).toContain(field);
    };
    await refused({ completion_codes: [{ code: "X", code_type: "FINISHED", actions: [] }] }, "code_type");
    await refused({ completion_codes: [{ code: "X", code_type: "COMPLETED", actions: [{ action: "PAY_DOUBLE" }] }] }, "action");
    await refused({ completion_codes: [{ code: "X", code_type: "COMPLETED", actions: [{ action: "ADD_TO_PARTICIPANT_GROUP" }] }] }, "participant_group");
    await refused({ filter_set_id: "cccccccccccccccccccccccc", filters: [{ filter_id: "age", selected_range: { lower: 18, upper: 30 } }] }, "filter_set_id");
    await refused({ filters: [{ filter_id: "age", selected_range: { lower: 60, upper: 20 } }] }, "filters");
    await refused({ filters: [{ filter_id: "shoe_size", selected_values: ["1"] }] }, "filter_id");
    await refused({ device_compatibility: ["watch"] }, "device_compatibility");
    await refused({ naivety_distribution_rate: 2 }, "naivety_distribution_rate");
    // Every documented code type and action is taken.
    const codes = ["COMPLETED", "FAILED_ATTENTION_CHECK", "FOLLOW_UP_STUDY", "GIVE_BONUS", "INCOMPATIBLE_DEVICE", "NO_CONSENT", "OTHER", "FIXED_SCREENOUT"].map((code_type, i) => ({ code: `C${i}`, code_type, actions: [{ action: "MANUALLY_REVIEW" }] }));
    codes.push({ code: "R1", code_type: "NO_CONSENT", actions: [{ action: "REQUEST_RETURN", return_reason: "No consent" } as never] });
    codes.push({ code: "D1", code_type: "COMPLETED", actions: [{ action: "DYNAMIC_PAYMENT" }] });
    expect((await api("POST", "studies/", draftBody({ completion_codes: codes }))).status).toBe(201);
  });

  it("moves through the documented status machine", async () => {
    const { sim, api } = await start();
    const id = ((await api("POST", "studies/", draftBody({ total_available_places: 1 }))).json as Obj).id as string;
    const act = async (action: string) => (await api("POST", `studies/${id}/transition/`, { action })).json as Obj;
    expect((await act("PUBLISH")).status).toBe("ACTIVE");
    expect((await act("PAUSE")).status).toBe("PAUSED");
    expect((await act("START")).status).toBe("ACTIVE");
    const sub = sim.service.startSubmission("aaaaaaaaaaaaaaaaaaaaaaa1", id);
    sim.service.completeSubmission(sub.id, "DONE1234");
    expect(((await api("GET", `studies/${id}/`)).json as Obj).status).toBe("AWAITING REVIEW");
    await api("POST", `submissions/${sub.id}/transition/`, { action: "APPROVE" });
    expect(((await api("GET", `studies/${id}/`)).json as Obj).status).toBe("COMPLETED");
    const other = ((await api("POST", "studies/", draftBody())).json as Obj).id as string;
    await api("POST", `studies/${other}/transition/`, { action: "PUBLISH" });
    expect(((await api("POST", `studies/${other}/transition/`, { action: "STOP" })).json as Obj).status).toBe("COMPLETED");
    expect((await api("POST", `studies/${other}/transition/`, { action: "START" })).status).toBe(400);
  });
});

describe("filters and eligibility", () => {
  it("lists the filter catalogue with types, choices and ranges, and counts eligible participants by them", async () => {
    const { sim, api } = await start();
    const ids = Array.from({ length: 30 }, (_, i) => i.toString(16).padStart(24, "a"));
    sim.state.participants.push(...ids);
    const group = (await api("POST", "participant-groups/", { name: "Qualified", workspace_id: sim.state.workspace.id, participant_ids: ids.slice(0, 4) })).json as Obj;
    const catalogue = ((await api("GET", "filters/")).json as { results: Array<Obj & { choices?: Record<string, string> }> }).results;
    for (const f of catalogue) {
      expect(typeof f.filter_id).toBe("string");
      expect(typeof f.title).toBe("string");
      expect(["select", "range"]).toContain(f.type);
    }
    expect(catalogue.find((f) => f.filter_id === "participant_group_allowlist")!.choices).toEqual({ [group.id as string]: "Qualified" });
    expect(catalogue.find((f) => f.filter_id === "age")).toMatchObject({ type: "range", min: 18, max: 100 });
    const handedness = catalogue.find((f) => f.filter_id === "handedness")!;
    const count = async (filters: unknown[]) => ((await api("POST", "eligibility-count/", { filters })).json as { count: number }).count;
    expect(await count([])).toBe(30);
    expect(await count([{ filter_id: "participant_group_allowlist", selected_values: [group.id] }])).toBe(4);
    // The choices of a select filter partition the pool; a range filter's halves add up to the whole.
    let bySelect = 0;
    for (const choice of Object.keys(handedness.choices!)) bySelect += await count([{ filter_id: "handedness", selected_values: [choice] }]);
    expect(bySelect).toBe(30);
    const young = await count([{ filter_id: "age", selected_range: { lower: 18, upper: 40 } }]);
    const old = await count([{ filter_id: "age", selected_range: { lower: 41, upper: 100 } }]);
    expect(young + old).toBe(30);
    expect(young).toBeGreaterThan(0);
    expect(old).toBeGreaterThan(0);
    // Filters AND together.
    const youngIn = await count([{ filter_id: "age", selected_range: { lower: 18, upper: 40 } }, { filter_id: "participant_group_allowlist", selected_values: [group.id] }]);
    expect(await count([{ filter_id: "age", selected_range: { lower: 18, upper: 40 } }, { filter_id: "participant_group_blocklist", selected_values: [group.id] }])).toBe(young - youngIn);
  });
});

// Facts copied from the reference (the Prolific API reference used in development), so the test does not read it.
const REF = {
  // §1 Basics, "URL style" [2+]: element /api/v1/<things>/<id>/ for GET, PATCH, PUT, DELETE.
  elementMethods: ["GET", "PATCH", "PUT", "DELETE"],
  // §2 Studies, "Study status machine" [2+]: the statuses, SCHEDULED when publish_at is set.
  studyStatuses: ["UNPUBLISHED", "PUBLISHING", "SCHEDULED", "ACTIVE", "PAUSED", "AWAITING REVIEW", "COMPLETED"],
  // §2 "Create body": external_study_url, or access_details:[{external_url,total_allocation}] for taskflow studies [2+].
  accessDetails: [{ external_url: "https://example.org/flow?pid={{%PROLIFIC_PID%}}", total_allocation: 3 }],
  // §2 "Create body", rarely needed fields [1–2]: kept as sent.
  rareFields: { metadata: { batch: "b1" }, content_warnings: [], credential_pool_id: "cred-pool-1", study_type: "QUOTA", is_external_study_url_secure: true, data_collection_method: "EXTERNAL", data_collection_id: "dc-1" },
  // §2 "Endpoints": reward-recommendations takes currency GBP | USD [2+].
  currencies: ["GBP", "USD"],
};

describe("studies: the rest of the reference's study facts", () => {
  it("takes PUT on an element like PATCH (§1 URL style) and keeps a published study's frozen fields frozen", async () => {
    const { api } = await start();
    expect(REF.elementMethods).toContain("PUT");
    const id = ((await api("POST", "studies/", draftBody())).json as Obj).id as string;
    const put = await api("PUT", `studies/${id}/`, { name: "Renamed", total_available_places: 4 });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ name: "Renamed", total_available_places: 4, reward: 300 });
    await api("POST", `studies/${id}/transition/`, { action: "PUBLISH" });
    expect((await api("PUT", `studies/${id}/`, { filters: [] })).status).toBe(400);
    expect(((await api("PUT", `studies/${id}/`, { internal_name: "app:1" })).json as Obj).internal_name).toBe("app:1");
  });

  it("filters GET /studies/ by published, active, completed and state (§2 Endpoints; [1] CLI / Potato)", async () => {
    const { sim, api } = await start();
    const draft = ((await api("POST", "studies/", draftBody())).json as Obj).id as string;
    const live = ((await api("POST", "studies/", draftBody())).json as Obj).id as string;
    const done = ((await api("POST", "studies/", draftBody())).json as Obj).id as string;
    await api("POST", `studies/${live}/transition/`, { action: "PUBLISH" });
    await api("POST", `studies/${done}/transition/`, { action: "PUBLISH" });
    await api("POST", `studies/${done}/transition/`, { action: "STOP" });
    const ids = async (q: string) => (((await api("GET", `studies/?${q}`)).json as Paged).results.map((s) => s.id as string)).sort();
    expect(await ids("published=0")).toEqual([draft]);
    expect(await ids("published=false")).toEqual([draft]);
    expect(await ids("published=1")).toEqual([live, done].sort());
    expect(await ids("active=1")).toEqual([live]);
    expect(await ids("completed=1")).toEqual([done]);
    expect(await ids("state=unpublished")).toEqual([draft]);
    expect(await ids("state=ACTIVE")).toEqual([live]);
    expect((await api("GET", "studies/?state=FINISHED")).status).toBe(400);
    expect((await api("GET", "studies/?active=maybe")).status).toBe(400);
    expect(sim.state.studies[draft]!.status).toBe("UNPUBLISHED");
  });

  it("takes a taskflow study's access_details instead of a URL, and keeps the rarely needed fields (§2 Create body)", async () => {
    const { api } = await start();
    const { external_study_url: _u, ...noUrl } = draftBody();
    const flow = await api("POST", "studies/", { ...noUrl, access_details: REF.accessDetails, ...REF.rareFields });
    expect(flow.status).toBe(201);
    expect(flow.json).toMatchObject({ access_details: REF.accessDetails, ...REF.rareFields });
    const neither = await api("POST", "studies/", noUrl);
    expect(neither.status).toBe(400);
    expect(JSON.stringify(neither.json)).toContain("external_study_url");
    expect((await api("POST", "studies/", draftBody({ study_type: "BATCH" }))).status).toBe(400);
  });

  it("schedules a study with publish_at: SCHEDULED until the time, then ACTIVE (§2 Study status machine)", async () => {
    const { sim, clock, api } = await start();
    expect(REF.studyStatuses).toContain("SCHEDULED");
    const at = new Date(clock.now() + 3600_000).toISOString();
    const id = ((await api("POST", "studies/", draftBody({ publish_at: at }))).json as Obj).id as string;
    const published = (await api("POST", `studies/${id}/transition/`, { action: "PUBLISH" })).json as Obj;
    expect(published).toMatchObject({ status: "SCHEDULED", publish_at: at, published_at: null });
    expect(() => sim.service.startSubmission("aaaaaaaaaaaaaaaaaaaaaaa1", id)).toThrow();
    clock.advance(3600);
    expect((await api("GET", `studies/${id}/`)).json).toMatchObject({ status: "ACTIVE", published_at: at });
    // A scheduled study can be stopped before it opens.
    const other = ((await api("POST", "studies/", draftBody({ publish_at: new Date(clock.now() + 60_000).toISOString() }))).json as Obj).id as string;
    await api("POST", `studies/${other}/transition/`, { action: "PUBLISH" });
    expect(((await api("POST", `studies/${other}/transition/`, { action: "STOP" })).json as Obj).status).toBe("COMPLETED");
    expect((await api("POST", "studies/", draftBody({ publish_at: "tomorrow" }))).status).toBe(400);
  });

  it("clones a study into a new draft ([1] CLI) and checks reward-recommendations' currency (§2 Endpoints)", async () => {
    const { api } = await start();
    const id = ((await api("POST", "studies/", draftBody({ internal_name: "src" }))).json as Obj).id as string;
    await api("POST", `studies/${id}/transition/`, { action: "PUBLISH" });
    const copy = await api("POST", `studies/${id}/clone/`);
    expect(copy.status).toBe(200);
    expect(copy.json).toMatchObject({ status: "UNPUBLISHED", internal_name: "src", reward: 300, published_at: null, places_taken: 0 });
    expect((copy.json as Obj).id).not.toBe(id);
    for (const currency of REF.currencies) {
      const rec = (await api("GET", `reward-recommendations/?currency=${currency}`)).json as Obj[];
      expect(rec[0]).toMatchObject({ currency, min_reward_per_hour: expect.any(Number), recommended_reward_per_hour: expect.any(Number) });
    }
    expect((await api("GET", "reward-recommendations/?currency=EUR")).status).toBe(400);
  });
});
