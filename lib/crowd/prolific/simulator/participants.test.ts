import { createServer, type Server } from "node:http";
import { truthFromMap } from "@/lib/crowd/simulator/truth";
import { llmSimulatorLabel } from "@/lib/crowd/simulator/workers-llm-echo";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { ThrottleGate } from "@/lib/crowd/throttle-gate";
import { ProlificClient } from "../api-client";
import { startProlificSimulator, type RunningProlificSimulator } from "./server";

/**
 * A minimal task server that keeps the participant contract of Accord's Prolific page (README "Simulated
 * participants"): GET the entry URL → a form of radio groups (tweet id on data-tweet-id, ids in hidden inputs);
 * POST → 303 to <completion base>/submissions/complete?cc=CODE. It hands out `items` tweets per session while
 * `capacity` lasts, then answers a page without a form (no work: return the study).
 */
function taskServer(opts: { completionBase: () => string; code: string; capacity: number; items: number }) {
  const posts: Array<{ pid: string; study: string; session: string; answers: Record<string, string> }> = [];
  let given = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "GET" && url.pathname === "/prolific/task") {
      const [pid, study, session] = ["PROLIFIC_PID", "STUDY_ID", "SESSION_ID"].map((k) => url.searchParams.get(k) ?? "");
      if (given >= opts.capacity) {
        res.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><p>No work is left: please return the study.</p>");
        return;
      }
      given++;
      const fieldsets = Array.from({ length: opts.items }, (_, i) => {
        const radios = ["rescue", "damage", "other"].map((v) => `<label><input type="radio" name="item-${i + 1}-it${i}" value="${v}" required> ${v}</label>`).join("");
        return `<fieldset data-position="${i + 1}" data-item-id="it${i}" data-tweet-id="t${i}">${radios}</fieldset>`;
      }).join("");
      const hidden = `<input type="hidden" name="PROLIFIC_PID" value="${pid}"><input type="hidden" name="STUDY_ID" value="${study}"><input type="hidden" name="SESSION_ID" value="${session}">`;
      res.writeHead(200, { "content-type": "text/html" }).end(`<!DOCTYPE html><form method="post" action="/prolific/task/submit">${hidden}${fieldsets}<button>Submit</button></form>`);
      return;
    }
    if (req.method === "POST" && url.pathname === "/prolific/task/submit") {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
        const answers = Object.fromEntries([...form].filter(([k]) => k.startsWith("item-")));
        posts.push({ pid: form.get("PROLIFIC_PID") ?? "", study: form.get("STUDY_ID") ?? "", session: form.get("SESSION_ID") ?? "", answers });
        res.writeHead(303, { location: `${opts.completionBase()}/submissions/complete?cc=${opts.code}` }).end();
      });
      return;
    }
    res.writeHead(404).end();
  });
  return { server, posts };
}

let sim: RunningProlificSimulator | null = null;
let servers: Server[] = [];
afterEach(async () => {
  await sim?.stop();
  sim = null;
  for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
  servers = [];
});

async function setUp(
  taskOpts: { capacity: number; items: number; code?: string; completionBase?: "simulator" | "prolific" },
  participants: Record<string, number>,
  io: { fetch?: typeof fetch; pageTimeout?: (ms: number) => AbortSignal } = {},
) {
  const clock = new ManualClock();
  let base = "";
  const task = taskServer({ completionBase: () => (taskOpts.completionBase === "prolific" ? "https://app.prolific.com" : base), code: taskOpts.code ?? "DONE1234", capacity: taskOpts.capacity, items: taskOpts.items });
  await new Promise<void>((r) => task.server.listen(0, "127.0.0.1", () => r()));
  servers.push(task.server);
  const truth = Object.fromEntries(Array.from({ length: taskOpts.items }, (_, i) => [`t${i}`, "damage"]));
  sim = await startProlificSimulator({ clock, balance: 1_000_000, participants, truth, participantTickMs: 0, seed: 3, fetch: io.fetch, participantPageTimeout: io.pageTimeout });
  base = sim.url;
  const client = new ProlificClient({ token: sim.token, baseUrl: sim.apiUrl, gate: new ThrottleGate({ baseMs: 1, capMs: 4 }), faultBackoffMs: 1 });
  const taskUrl = `http://127.0.0.1:${(task.server.address() as AddressInfo).port}/prolific/task?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`;
  return { sim, clock, client, task, taskUrl };
}

const study = (url: string, places: number, over: Record<string, unknown> = {}) => ({
  name: "Label tweets",
  internal_name: "accord:b1",
  description: "Choose the category of each tweet.",
  external_study_url: url,
  prolific_id_option: "url_parameters",
  completion_codes: [{ code: "DONE1234", code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] }],
  total_available_places: places,
  estimated_completion_time: 15,
  maximum_allowed_time: 45,
  reward: 300,
  filters: [],
  ...over,
});

const abortedBy = (signal: AbortSignal | null | undefined) =>
  new Promise<never>((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason as Error), { once: true }));

/**
 * The participants' fetch, telling in order when each participant's page answered ("page:<pid>") and its answers
 * were posted ("post:<pid>"). The first study page asked for waits for `hold` (or for its signal to fire).
 */
function watchedFetch(hold: Promise<void>) {
  const events: string[] = [];
  let pages = 0;
  const fetchFn: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const kind = url.pathname === "/prolific/task" ? "page" : url.pathname === "/prolific/task/submit" ? "post" : "complete";
    const pid = url.searchParams.get("PROLIFIC_PID") ?? new URLSearchParams(typeof init?.body === "string" ? init.body : "").get("PROLIFIC_PID");
    if (kind === "page" && pages++ === 0) await Promise.race([hold, abortedBy(init?.signal)]);
    const res = await fetch(input, init);
    if (pid && kind !== "complete") events.push(`${kind}:${pid}`);
    return res;
  };
  return { fetchFn, events };
}

/** Page waits that end only when the test says so: controllers by signal. */
function manualTimeouts() {
  const controllers = new Map<AbortSignal, AbortController>();
  return {
    pageTimeout: () => {
      const c = new AbortController();
      controllers.set(c.signal, c);
      return c.signal;
    },
    fire: () => {
      for (const c of controllers.values()) if (!c.signal.aborted) c.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
    },
  };
}

/**
 * One tick of the live timer, by hand: 20 simulated seconds, then everything due starts; the clock moves again only
 * once the work started has ended (but `held`'s), so no session runs out because the machine is slow.
 */
async function tickBy(s: RunningProlificSimulator, clock: ManualClock, held: string[]) {
  clock.advance(20);
  s.participants!.start(4);
  await s.participants!.idle(held);
}

/** Steps the participants and the clock until nothing is open (bounded). */
async function runUntilSettled(s: RunningProlificSimulator, clock: ManualClock) {
  for (let k = 0; k < 200; k++) {
    await s.participants!.step();
    const open = Object.values(s.state.submissions).some((x) => x.status === "ACTIVE");
    if (!open && k > 0) return;
    clock.advance(60);
  }
}

describe("simulated Prolific participants on the study's own page", () => {
  it("open the task URL, answer by profile, post the form and come back with the code: AWAITING REVIEW", async () => {
    const { sim, clock, client, task, taskUrl } = await setUp({ capacity: 100, items: 30 }, { careful: 3, "spammer-constant": 1 });
    const s = await client.createStudy(study(taskUrl, 4));
    await client.transitionStudy(s.id, "PUBLISH");
    await runUntilSettled(sim, clock);
    const subs = await client.listSubmissions(s.id);
    const done = subs.filter((x) => x.status === "AWAITING REVIEW");
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(done.every((x) => x.study_code === "DONE1234")).toBe(true);
    const pool = sim.state.pool!;
    expect(pool.map((p) => p.participantId).every((id) => /^[0-9a-f]{24}$/.test(id))).toBe(true);
    // The page saw the ids Prolific fills in, and each post carried the session the simulator created.
    for (const post of task.posts) {
      const sub = sim.state.submissions[post.session];
      expect(sub).toMatchObject({ participant_id: post.pid, study_id: s.id });
      expect(Object.keys(post.answers)).toHaveLength(30);
    }
    // Careful participants mostly give the truth; the constant spammer always the same option.
    const careful = new Set(pool.filter((p) => p.profile === "careful").map((p) => p.participantId));
    const carefulAnswers = task.posts.filter((p) => careful.has(p.pid)).flatMap((p) => Object.values(p.answers));
    expect(carefulAnswers.filter((a) => a === "damage").length / carefulAnswers.length).toBeGreaterThan(0.7);
    const spammer = task.posts.find((p) => !careful.has(p.pid));
    expect(new Set(Object.values(spammer!.answers)).size).toBe(1);
    expect(sim.participants!.stats.errors).toEqual([]);
    expect(sim.participants!.stats.completed).toBe(task.posts.length);
  });

  it("an llm-echo participant answers the LLM simulator's label of each tweet most of the time", async () => {
    const { sim, clock, client, task, taskUrl } = await setUp({ capacity: 100, items: 60 }, { "llm-echo": 2 });
    const s = await client.createStudy(study(taskUrl, 2));
    await client.transitionStudy(s.id, "PUBLISH");
    await runUntilSettled(sim, clock);
    expect(task.posts.length).toBeGreaterThanOrEqual(1);
    const truth = truthFromMap(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`t${i}`, "damage"])));
    let same = 0;
    let total = 0;
    let llmWrong = 0;
    let copiedWrong = 0;
    for (const post of task.posts) {
      for (const [name, answer] of Object.entries(post.answers)) {
        const tweet = name.replace(/^item-\d+-it/, "t");
        const llm = llmSimulatorLabel(tweet, ["rescue", "damage", "other"], truth);
        total++;
        if (answer === llm) same++;
        if (llm !== "damage") {
          llmWrong++;
          if (answer === llm) copiedWrong++;
        }
      }
    }
    // 80% copy the LLM; the rest answer as an average worker (who may give the same label by chance). Where the
    // LLM is wrong, an honest worker would rarely give its label: the echo does.
    expect(same / total).toBeGreaterThan(0.75);
    expect(llmWrong).toBeGreaterThan(5);
    expect(copiedWrong / llmWrong).toBeGreaterThan(0.7);
    expect(sim.state.pool!.every((p) => p.profile === "llm-echo")).toBe(true);
  });

  it("accept app.prolific.com as the completion base; return the study when the page has no work", async () => {
    const { sim, clock, client, task, taskUrl } = await setUp({ capacity: 1, items: 3, completionBase: "prolific" }, { careful: 4 });
    const s = await client.createStudy(study(taskUrl, 3));
    await client.transitionStudy(s.id, "PUBLISH");
    await sim.participants!.step();
    // Within the study's 45 minutes: the one participant given work sends it back through app.prolific.com's URL.
    clock.advance(600);
    await sim.participants!.step();
    const statuses = Object.values(sim.state.submissions).map((x) => x.status);
    expect(task.posts).toHaveLength(1);
    expect(statuses.filter((x) => x === "AWAITING REVIEW")).toHaveLength(1);
    expect(statuses.filter((x) => x === "RETURNED").length).toBeGreaterThanOrEqual(2);
    expect(sim.participants!.stats.errors).toEqual([]);
  });

  it("a page slow to open holds back only its own participant: the others' sessions end on time", async () => {
    let release!: () => void;
    const watched = watchedFetch(new Promise<void>((r) => (release = r)));
    const never = manualTimeouts();
    const { sim, clock, client, task, taskUrl } = await setUp({ capacity: 100, items: 3 }, { careful: 3 }, { fetch: watched.fetchFn, pageTimeout: never.pageTimeout });
    const s = await client.createStudy(study(taskUrl, 3));
    await client.transitionStudy(s.id, "PUBLISH");
    const participants = sim.participants!;
    try {
      // At most one page opening at a time: the first participant's hangs, so nobody else joins yet.
      participants.start(1);
      participants.start(1);
      expect(participants.stats.joined).toBe(1);
      const slow = participants.running;
      expect(slow).toHaveLength(1);
      // The timer ticks on (by hand, within the study's 45 minutes) until the other two have sent their answers.
      for (let k = 0; k < 135 && task.posts.length < 2; k++) await tickBy(sim, clock, slow);
      const others = task.posts.map((p) => p.pid);
      expect(others).toHaveLength(2);
      expect(others).not.toContain(slow[0]);
      expect(Object.values(sim.state.submissions).map((x) => x.status).sort()).toEqual(["ACTIVE", "AWAITING REVIEW", "AWAITING REVIEW"]);
      // All the while the first page had not answered: it is still the one thing running.
      expect(participants.running).toEqual(slow);
      expect(watched.events).not.toContain(`page:${slow[0]}`);

      // Its page opens at last: it works and submits too, on time.
      release();
      for (let k = 0; k < 135 && task.posts.length < 3; k++) await tickBy(sim, clock, []);
      await participants.idle();
      expect(participants.stats).toMatchObject({ joined: 3, completed: 3, late: 0, errors: [] });
      expect(Object.values(sim.state.submissions).every((x) => x.status === "AWAITING REVIEW")).toBe(true);
      // In order: the others' pages and answers, then the slow page, then its answers.
      const at = (e: string) => watched.events.indexOf(e);
      for (const o of others) expect(at(`page:${o}`)).toBeLessThan(at(`post:${o}`));
      expect(Math.max(...others.map((o) => at(`post:${o}`)))).toBeLessThan(at(`page:${slow[0]}`));
      expect(at(`page:${slow[0]}`)).toBeLessThan(at(`post:${slow[0]}`));
    } finally {
      release();
    }
  });

  it("a page that never answers: at its timeout the participant gives up and returns the study; the others are not held", async () => {
    const watched = watchedFetch(new Promise<void>(() => undefined));
    const timeouts = manualTimeouts();
    const { sim, clock, client, task, taskUrl } = await setUp({ capacity: 100, items: 3 }, { careful: 3 }, { fetch: watched.fetchFn, pageTimeout: timeouts.pageTimeout });
    const s = await client.createStudy(study(taskUrl, 3));
    await client.transitionStudy(s.id, "PUBLISH");
    const participants = sim.participants!;
    participants.start(1);
    const slow = participants.running;
    try {
      for (let k = 0; k < 135 && task.posts.length < 2; k++) await tickBy(sim, clock, slow);
      expect(task.posts).toHaveLength(2);
      expect(participants.running).toEqual(slow);
    } finally {
      // The participant's minute is up (fired by hand, for every page still waiting).
      timeouts.fire();
    }
    await participants.idle();
    const slowSub = Object.values(sim.state.submissions).find((x) => x.participant_id === slow[0])!;
    expect(slowSub.status).toBe("RETURNED");
    expect(participants.stats).toMatchObject({ joined: 3, completed: 2, returned: 1, late: 0 });
    expect(participants.stats.errors).toHaveLength(1);
    expect(participants.stats.errors[0]).toMatch(new RegExp(`^${slowSub.participant_id}: .*/prolific/task\\?.*timeout`, "i"));
  });

  it("only eligible participants join, and a participant asked to return does", async () => {
    const { sim, clock, client, taskUrl } = await setUp({ capacity: 100, items: 2 }, { careful: 3 });
    const group = await client.createParticipantGroup(sim.state.workspace.id, "qualified");
    const chosen = sim.state.pool![1]!.participantId;
    await client.addToParticipantGroup(group.id, [chosen]);
    const s = await client.createStudy(study(taskUrl, 3, { filters: [{ filter_id: "participant_group_allowlist", selected_values: [group.id] }], maximum_allowed_time: 600 }));
    await client.transitionStudy(s.id, "PUBLISH");
    await sim.participants!.step();
    const subs = Object.values(sim.state.submissions);
    expect(subs.map((x) => x.participant_id)).toEqual([chosen]);
    expect(subs[0]!.status).toBe("ACTIVE");
    {
      const res = await fetch(`${sim.apiUrl}submissions/${subs[0]!.id}/request-return/`, { method: "POST", headers: { authorization: `Token ${sim.token}`, "content-type": "application/json" }, body: JSON.stringify({ request_return_reasons: ["Encountered technical problems"] }) });
      expect(await res.json()).toMatchObject({ id: subs[0]!.id, status: "ACTIVE", participant: chosen, return_requested: expect.any(String) as string });
      clock.advance(1);
      await sim.participants!.step();
      expect(sim.state.submissions[subs[0]!.id]!.status).toBe("RETURNED");
    }
  });
});

describe("the participant's side of the simulator over HTTP", () => {
  it("take-part sets the session cookie and redirects to the filled study URL; the completion URL needs that session", async () => {
    const { sim, client, taskUrl } = await setUp({ capacity: 1, items: 1 }, {});
    const s = await client.createStudy(study(taskUrl, 1));
    await client.transitionStudy(s.id, "PUBLISH");
    const pid = "0123456789abcdef01234567";
    const res = await fetch(`${sim.url}/participant/take-part?study=${s.id}&participant=${pid}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    const session = /prolific_session=([0-9a-f]{24})/.exec(res.headers.get("set-cookie") ?? "")![1]!;
    expect(res.headers.get("location")).toBe(taskUrl.replace("{{%PROLIFIC_PID%}}", pid).replace("{{%STUDY_ID%}}", s.id).replace("{{%SESSION_ID%}}", session));
    expect((await fetch(`${sim.url}/submissions/complete?cc=DONE1234`)).status).toBe(401);
    const done = await fetch(`${sim.url}/submissions/complete?cc=DONE1234`, { headers: { cookie: `prolific_session=${session}` } });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("AWAITING REVIEW");
    expect((await fetch(`${sim.url}/submissions/complete?cc=DONE1234`, { headers: { cookie: `prolific_session=${session}` } })).status).toBe(400);
  });
});
