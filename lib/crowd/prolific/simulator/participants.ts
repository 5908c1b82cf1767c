import { instructedOption, parseHitForm, type FormGroup } from "@/lib/crowd/simulator/html-form";
import { truthAmong, type TruthOracle } from "@/lib/crowd/simulator/truth";
import { chooseAnswer, createWorkerPool, decisionRng, WORKER_PROFILES, workSeconds, type WorkerMix } from "@/lib/crowd/simulator/workers";
import { llmSimulatorLabel } from "@/lib/crowd/simulator/workers-llm-echo";
import { createRng, seedFrom } from "@/lib/util/random";
import type { ProlificSimService } from "./service";
import type { SimParticipant } from "./state";

/**
 * Simulated Prolific participants: the MTurk simulator's worker profiles with Prolific ids, working on the study's
 * own page over HTTP as a browser would. The contract with that page (README "Simulated participants"):
 *   1. entry: GET the study's external_study_url with {{%PROLIFIC_PID%}}, {{%STUDY_ID%}}, {{%SESSION_ID%}} filled in
 *      (redirects followed); a page without a <form> means "no work for you": the participant returns the study;
 *   2. task page: one radio group (or select) per item, the tweet id on data-tweet-id; hidden inputs kept; an item
 *      whose text is "Attention check: … choose “<option's label>”" is answered by that instruction (answerCheck);
 *   3. submit: POST the form (x-www-form-urlencoded) to its action, one answer per group, chosen by the profile;
 *   4. completion: the answer redirects to `<prolific>/submissions/complete?cc=CODE`; the participant opens it on the
 *      simulator (its session cookie names the submission), which completes the submission with that code.
 */

/** Where the participant is in a study, between steps. */
type Session = {
  submissionId: string;
  studyId: string;
  participantId: string;
  plan: "submit" | "return" | "abandon";
  dueAt: number;
  pageUrl: string;
  action: string;
  hidden: Array<[string, string]>;
  groups: FormGroup[];
};

/** `late`: sessions that timed out while the participant meant to submit (the simulator's host fell behind its clock). */
export type ParticipantStats = { joined: number; submitted: number; completed: number; returned: number; abandoned: number; late: number; errors: string[] };

const PROLIFIC_APP = "https://app.prolific.com";
const MAX_ERRORS_KEPT = 100;
/** A participant gives up on a page (or a form post) that has not answered in a minute, as a person would. */
const PAGE_TIMEOUT_MS = 60_000;
export const SESSION_COOKIE = "prolific_session";

function participantId(seed: number, workerId: string): string {
  const rng = createRng(seedFrom(seed, "prolific-participant", workerId));
  let id = "";
  while (id.length < 24) id += Math.floor(rng() * 16).toString(16);
  return id;
}

/** The pool, created once from the profiles' mix (same seed and mix → same participants). */
export function ensurePool(service: ProlificSimService, mix: WorkerMix): SimParticipant[] {
  const state = service.state;
  if (!state.pool) {
    state.pool = createWorkerPool({ seed: state.seed, mix }).map((w) => ({ ...w, participantId: participantId(state.seed, w.workerId) }));
    for (const p of state.pool) if (!state.participants.includes(p.participantId)) state.participants.push(p.participantId);
    service.changed();
  }
  return state.pool;
}

/** Hidden inputs of a form, in document order (their values go back with the answers). */
function hiddenInputs(html: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const m of html.matchAll(/<input\b([^>]*)>/gi)) {
    const attrs = m[1];
    if (!/type\s*=\s*["']?hidden/i.test(attrs)) continue;
    const name = /name\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
    const value = /value\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
    const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    if (name) out.push([decode(name[1] ?? name[2] ?? name[3] ?? ""), decode(value ? (value[1] ?? value[2] ?? value[3] ?? "") : "")]);
  }
  return out;
}

/**
 * A participant's answer to an attention check: the instructed option taken as the true answer, so a careful, average
 * or sloppy participant follows it with their accuracy (else a wrong option) and spammers answer as on tweets. Its own
 * random stream (per submission and check), so the tweets' answers are drawn exactly as on a page without checks.
 */
function answerCheck(seed: number, p: SimParticipant, submissionId: string, g: FormGroup, instructed: string): string {
  return chooseAnswer({ worker: p, options: g.options, truth: instructed, rng: createRng(seedFrom(seed, p.participantId, "attention-check", submissionId, g.name)) });
}

export function fillStudyUrl(template: string, ids: { participantId: string; studyId: string; sessionId: string }): string {
  return template.replaceAll("{{%PROLIFIC_PID%}}", ids.participantId).replaceAll("{{%STUDY_ID%}}", ids.studyId).replaceAll("{{%SESSION_ID%}}", ids.sessionId);
}

export class ProlificParticipants {
  readonly stats: ParticipantStats = { joined: 0, submitted: 0, completed: 0, returned: 0, abandoned: 0, late: 0, errors: [] };
  private readonly sessions = new Map<string, Session>();
  /** A participant's page being opened ("join") or its answers being sent ("finish"): one at a time per participant. */
  private readonly inFlight = new Map<string, { kind: "join" | "finish"; done: Promise<void> }>();
  /** participant id → simulated time before which it does not look for a study. */
  private readonly restUntil = new Map<string, number>();
  private readonly fetchFn: typeof fetch;

  constructor(
    private readonly service: ProlificSimService,
    private readonly options: {
      simulatorUrl: () => string;
      mix: WorkerMix;
      truth?: TruthOracle;
      fetch?: typeof fetch;
      log?: (message: string) => void;
      /** The signal that ends a page wait (wall time by default; tests fire it by hand). */
      pageTimeout?: (ms: number) => AbortSignal;
    },
  ) {
    this.fetchFn = options.fetch ?? fetch;
    ensurePool(service, options.mix);
  }

  setTruth(truth: TruthOracle | undefined): void {
    this.options.truth = truth;
  }

  private get pool(): SimParticipant[] {
    return this.service.state.pool ?? [];
  }

  /** One pass, awaited (tests): returns asked for are made, due sessions act, idle participants take free places. */
  async step(): Promise<number> {
    const acted = this.start(Infinity);
    await this.idle();
    return acted;
  }

  /**
   * Starts what is due and returns at once (the live timer calls it every tick). Each participant's pages are
   * fetched on their own, so a slow or hanging page holds back only its own participant (one after another, it held
   * back every participant, and their sessions could time out). At most `maxJoins` participants are opening a
   * study's page at any time.
   */
  start(maxJoins: number): number {
    this.service.tick();
    let acted = this.honourReturnRequests();
    const now = this.service.clock.now();
    for (const session of [...this.sessions.values()]) {
      if (session.dueAt > now) continue;
      this.sessions.delete(session.submissionId);
      this.run(session.participantId, "finish", () => this.finish(session));
      acted++;
    }
    for (const study of Object.values(this.service.state.studies)) {
      if (study.status !== "ACTIVE") continue;
      for (const p of this.pool) {
        if (this.joining >= maxJoins) return acted;
        if (this.service.placesTaken(study) >= study.total_available_places) break;
        if ((this.restUntil.get(p.participantId) ?? 0) > now || this.busy(p.participantId)) continue;
        if (!this.service.canTake(p.participantId, study)) continue;
        // Once in a study; a participant the researcher asked to return does not come back to it.
        if (this.service.submissionsOf(study.id).some((s) => s.participant_id === p.participantId && (s.status !== "RETURNED" || s.return_requested))) continue;
        // The place is taken now (synchronously), so the next participant sees it gone.
        let sub: { id: string };
        try {
          sub = this.service.startSubmission(p.participantId, study.id);
        } catch (err) {
          this.error(p.participantId, err instanceof Error ? err.message : String(err));
          continue;
        }
        this.stats.joined++;
        this.run(p.participantId, "join", () => this.join(p, study.id, sub.id));
        acted++;
      }
    }
    return acted;
  }

  /**
   * Resolves once nothing started is still running, leaving out the participants in `except` (a test holding one
   * participant's page drives the others' ticks by hand and waits for their work before moving the clock).
   */
  async idle(except: Iterable<string> = []): Promise<void> {
    const skip = new Set(except);
    for (;;) {
      const pending = [...this.inFlight].filter(([id]) => !skip.has(id)).map(([, w]) => w.done);
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }

  /** The participants whose page or answers are in flight now. */
  get running(): string[] {
    return [...this.inFlight.keys()];
  }

  private pageSignal(): AbortSignal {
    return this.options.pageTimeout ? this.options.pageTimeout(PAGE_TIMEOUT_MS) : AbortSignal.timeout(PAGE_TIMEOUT_MS);
  }

  private get joining(): number {
    let n = 0;
    for (const w of this.inFlight.values()) if (w.kind === "join") n++;
    return n;
  }

  private run(participantId: string, kind: "join" | "finish", work: () => Promise<void>): void {
    const done = work()
      .catch((err: unknown) => this.error(participantId, err instanceof Error ? err.message : String(err)))
      .finally(() => this.inFlight.delete(participantId));
    this.inFlight.set(participantId, { kind, done });
  }

  /** Kept for stats (the last MAX_ERRORS_KEPT) and told to the log, named by the participant. */
  private error(participantId: string, what: string): void {
    const message = `${participantId}: ${what}`;
    this.stats.errors.push(message);
    if (this.stats.errors.length > MAX_ERRORS_KEPT) this.stats.errors.splice(0, this.stats.errors.length - MAX_ERRORS_KEPT);
    this.options.log?.(message);
  }

  private busy(participantId: string): boolean {
    if (this.inFlight.has(participantId)) return true;
    for (const s of this.sessions.values()) if (s.participantId === participantId) return true;
    return false;
  }

  private honourReturnRequests(): number {
    let n = 0;
    const ids = new Set(this.pool.map((p) => p.participantId));
    for (const sub of Object.values(this.service.state.submissions)) {
      if (!sub.return_requested || !ids.has(sub.participant_id)) continue;
      if (sub.status !== "ACTIVE" && sub.status !== "RESERVED" && sub.status !== "AWAITING REVIEW") continue;
      this.sessions.delete(sub.id);
      this.service.returnSubmission(sub.id);
      this.stats.returned++;
      n++;
    }
    return n;
  }

  private rest(p: SimParticipant, min: number, max: number): void {
    const rng = decisionRng(this.service.state.seed, p, "rest");
    this.restUntil.set(p.participantId, this.service.clock.now() + Math.round((min + rng() * (max - min)) * 1000));
  }

  /** The participant, holding a place, opens the study's page and decides, by profile, what it will do. */
  private async join(p: SimParticipant, studyId: string, submissionId: string): Promise<void> {
    const study = this.service.study(studyId);
    const entry = fillStudyUrl(study.external_study_url, { participantId: p.participantId, studyId, sessionId: submissionId });
    let page: { url: string; html: string };
    try {
      page = await this.get(entry);
    } catch (err) {
      return this.giveBack(p, submissionId, `${entry}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const form = parseHitForm(page.html);
    if (!/<form\b/i.test(page.html) || form.groups.length === 0) return this.giveBack(p, submissionId, null);
    const rng = decisionRng(this.service.state.seed, p, "accept");
    const profile = WORKER_PROFILES[p.profile];
    const r = rng();
    const now = this.service.clock.now();
    const plan = r < profile.returnRate ? "return" : r < profile.returnRate + profile.abandonRate ? "abandon" : "submit";
    const seconds = plan === "return" ? 10 + rng() * 110 : workSeconds(p, form.groups.length, rng);
    // A participant watches Prolific's countdown: the work is sent a margin before the session would time out.
    const deadline = this.service.state.submissions[submissionId]?.dueAt ?? now + study.maximum_allowed_time * 60_000;
    const margin = Math.max(5_000, study.maximum_allowed_time * 6_000);
    if (plan === "abandon") {
      this.stats.abandoned++;
      this.rest(p, study.maximum_allowed_time * 60, study.maximum_allowed_time * 60 + 600);
      return;
    }
    this.sessions.set(submissionId, {
      submissionId,
      studyId,
      participantId: p.participantId,
      plan,
      dueAt: Math.max(now, Math.min(now + Math.round(seconds * 1000), deadline - margin)),
      pageUrl: page.url,
      action: new URL(form.action ?? page.url, page.url).toString(),
      hidden: hiddenInputs(page.html),
      groups: form.groups,
    });
  }

  /** No work, or the page failed: the participant returns the study (unpaid, no penalty) and rests. */
  private giveBack(p: SimParticipant, submissionId: string, error: string | null): void {
    if (error) this.error(p.participantId, error);
    // Accord may have asked for the return already (a failed screening), which the participant has honoured.
    const status = this.service.state.submissions[submissionId]?.status;
    if (status !== "RETURNED") {
      this.service.returnSubmission(submissionId);
      this.stats.returned++;
    }
    this.rest(p, 300, 1800);
  }

  private async finish(session: Session): Promise<void> {
    const p = this.pool.find((x) => x.participantId === session.participantId)!;
    const sub = this.service.state.submissions[session.submissionId];
    if (sub?.status === "TIMED-OUT" && session.plan === "submit") {
      this.stats.late++;
      this.error(p.participantId, `session ${sub.id} timed out before its answers were sent; the host is too slow for the simulated clock`);
    }
    if (!sub || (sub.status !== "ACTIVE" && sub.status !== "RESERVED")) return this.rest(p, 20, 120);
    if (session.plan === "return") return this.giveBack(p, sub.id, null);
    const rng = decisionRng(this.service.state.seed, p, "answer");
    const fields = new URLSearchParams(session.hidden);
    for (const g of session.groups) {
      if (g.kind === "text" || g.kind === "textarea") {
        if (g.required) fields.set(g.name, "n/a");
        continue;
      }
      if (g.options.length === 0) continue;
      const instructed = instructedOption(g);
      if (instructed !== undefined) fields.set(g.name, answerCheck(this.service.state.seed, p, session.submissionId, g, instructed));
      else fields.set(g.name, chooseAnswer({ worker: p, options: g.options, truth: truthAmong(this.options.truth, this.service.state.seed, g.tweetId ?? g.name, g.options), rng, llmLabel: () => llmSimulatorLabel(g.tweetId ?? g.name, g.options, this.options.truth) }));
    }
    try {
      const res = await this.fetchFn(session.action, { signal: this.pageSignal(), method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", referer: session.pageUrl }, body: fields.toString() });
      const location = res.headers.get("location");
      // A page without a form instead of the completion redirect asks the participant to return the study: they do.
      if (res.status === 200 && !location && !/<form\b/i.test(await res.text())) return this.giveBack(p, sub.id, null);
      await res.body?.cancel().catch(() => undefined);
      if (res.status < 300 || res.status >= 400 || !location) throw new Error(`the answers were answered ${String(res.status)}, not a redirect to the completion URL`);
      this.stats.submitted++;
      await this.complete(new URL(location, session.action), sub.id);
      this.stats.completed++;
      this.rest(p, 10, 120);
    } catch (err) {
      this.giveBack(p, sub.id, `${session.action}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Follows the completion redirect to the simulator (app.prolific.com stands for it), with the session cookie. */
  private async complete(target: URL, submissionId: string): Promise<void> {
    if (target.pathname !== "/submissions/complete") throw new Error(`the answers redirected to ${target.toString()}, not to /submissions/complete?cc=CODE`);
    const sim = new URL(this.options.simulatorUrl());
    if (target.origin !== sim.origin && target.origin !== PROLIFIC_APP) throw new Error(`the completion URL ${target.toString()} is neither Prolific's nor the simulator's`);
    const url = new URL(`${target.pathname}${target.search}`, sim);
    const res = await this.fetchFn(url, { signal: this.pageSignal(), headers: { cookie: `${SESSION_COOKIE}=${submissionId}` } });
    const text = await res.text();
    if (!res.ok) throw new Error(`completing gave ${String(res.status)}: ${text.slice(0, 200)}`);
  }

  /** GET with redirects followed (at most 5), as a browser would. */
  private async get(start: string): Promise<{ url: string; html: string }> {
    let url = start;
    for (let hop = 0; hop < 6; hop++) {
      const res = await this.fetchFn(url, { signal: this.pageSignal(), redirect: "manual", headers: { accept: "text/html" } });
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        url = new URL(location, url).toString();
        continue;
      }
      const html = await res.text();
      if (!res.ok) throw new Error(`the page answered ${String(res.status)}`);
      return { url, html };
    }
    throw new Error("too many redirects");
  }
}
