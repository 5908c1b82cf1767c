import { CrowdError } from "../../errors";
import type { SubmissionListItem } from "../api-types";
import { PROLIFIC_SCOPES as S } from "../provider-store";
import { providerHitIdOf, serialized, type ProlificContext } from "./context";
import { forgetStudyView, studyView } from "./study-view";

// Accord's queue inside a batch's study: each HIT holds a number of the study's places, and a participant who opens
// Accord's page is given one HIT with a place free. Records live in Accord's store; Prolific only sees the places.

export type QueuedHit = { hitId: string; batchKey: string; position: number; places: number; expiresAt: Date; disposed: boolean };
/** `released`: the claim never stood (its session had one already); `givenBack`: Prolific reopened the place (recorded once seen). */
type Claim = { key: string; hitId: string; sessionId: string; participantId: string; released: boolean; givenBack: boolean };

/**
 * Statuses whose place goes back to the HIT. A rejected submission keeps its HIT's place, as a rejected assignment
 * does on MTurk: the procedure counts it among the HIT's assignments and adds places itself when it extends the HIT
 * (Prolific reopens the place in the study; whoever takes it finds no HIT and is asked to return).
 */
const RELEASED = new Set(["RETURNED", "TIMED-OUT", "SCREENED OUT"]);

/** Records a HIT in its batch's study (write-once: a retry keeps the first record; false then). */
export function queueHit(ctx: ProlificContext, studyId: string, entry: { hitId: string; batchKey: string; position: number; places: number; expiresAt: Date }): Promise<boolean> {
  return ctx.store.insert(S.hit, `${studyId}|${entry.hitId}`, { batchKey: entry.batchKey, position: entry.position, places: entry.places, expiresAt: entry.expiresAt.toISOString() });
}

/** The study's HITs in queue order, each with its places (first round plus every extension) and state. */
export async function queuedHits(ctx: ProlificContext, studyId: string): Promise<QueuedHit[]> {
  const [entries, added, disposed] = await Promise.all([ctx.store.list(S.hit, `${studyId}|`), ctx.store.list(S.places, `${studyId}|`), ctx.store.list(S.disposed, `${studyId}:`)]);
  const gone = new Set(disposed.map((d) => d.key));
  return entries
    .map(({ key, data }) => {
      const hitId = key.slice(studyId.length + 1);
      return queued(studyId, hitId, data, added.filter((a) => a.key.startsWith(`${key}|`)), gone.has(providerHitIdOf(studyId, hitId)));
    })
    .sort((a, b) => a.position - b.position || (a.hitId < b.hitId ? -1 : 1));
}

/** One HIT of the study, read by its own keys (the sync loop asks for each HIT of a batch in turn). */
export async function queuedHit(ctx: ProlificContext, studyId: string, hitId: string): Promise<QueuedHit> {
  const key = `${studyId}|${hitId}`;
  const [entry, added, disposed] = await Promise.all([ctx.store.get(S.hit, key), ctx.store.list(S.places, `${key}|`), ctx.store.get(S.disposed, providerHitIdOf(studyId, hitId))]);
  if (!entry) throw new CrowdError(`HIT ${hitId} is not queued in Prolific study ${studyId}.`, "not_found");
  return queued(studyId, hitId, entry, added, disposed !== null);
}

function queued(studyId: string, hitId: string, data: Record<string, unknown>, added: Array<{ data: Record<string, unknown> }>, disposed: boolean): QueuedHit {
  return {
    hitId,
    batchKey: String(data.batchKey),
    position: Number(data.position),
    places: Number(data.places) + added.reduce((n, a) => n + Number(a.data.count), 0),
    expiresAt: new Date(String(data.expiresAt)),
    disposed,
  };
}

/**
 * Places only grow: the study gets as many as its HITs hold together (one PATCH per change, serialized per study);
 * `publish` then publishes a draft, in the same turn, so publish lanes read the study once per HIT.
 */
export async function ensurePlaces(ctx: ProlificContext, studyId: string, { publish = false }: { publish?: boolean } = {}): Promise<void> {
  await serialized(ctx, `study:${studyId}`, async () => {
    const target = (await queuedHits(ctx, studyId)).reduce((n, h) => n + h.places, 0);
    const study = await ctx.client.getStudy(studyId);
    if (study.total_available_places < target) await ctx.client.updateStudy(studyId, { total_available_places: target });
    if (publish && study.status === "UNPUBLISHED") await ctx.client.transitionStudy(studyId, "PUBLISH");
    forgetStudyView(ctx, studyId);
  });
}

/** Every claim on the study's places (or on one HIT's). */
async function claimsOf(ctx: ProlificContext, studyId: string, hitId?: string): Promise<Claim[]> {
  const rows = await ctx.store.list(S.claim, hitId ? `${studyId}|${hitId}|` : `${studyId}|`);
  return rows.map(({ key, data }) => ({ key, hitId: key.split("|")[1] as string, sessionId: String(data.sessionId), participantId: String(data.participantId), released: data.released === true, givenBack: data.givenBack === true }));
}

/** A claim holds its place unless Prolific gave the place back (a session not listed yet holds it). */
const holds = (c: Claim, status: Map<string, string>) => !c.released && !c.givenBack && !RELEASED.has(status.get(c.sessionId) ?? "ACTIVE");

/** Views whose strays were given a HIT already (one look per read of the study, not one per HIT). */
const straysSeen = new WeakSet<readonly SubmissionListItem[]>();

/**
 * The HIT's submissions (the sessions given this HIT, as Prolific lists them) and how many of its places are held
 * (in progress, awaiting review, approved or rejected, or given to a session Prolific does not list yet: `unlisted`). A submission awaiting review whose
 * session was never given a HIT (the participant came back without opening Accord's page) is given one first, so
 * Accord reviews it (no answers: it fails the gold check) instead of Prolific approving it unreviewed.
 */
export async function submissionsOfHit(ctx: ProlificContext, studyId: string, hitId: string, subs?: SubmissionListItem[]) {
  const all = subs ?? (await studyView(ctx, studyId)).submissions;
  if (!straysSeen.has(all)) {
    straysSeen.add(all);
    const given = new Set((await claimsOf(ctx, studyId)).map((c) => c.sessionId));
    for (const stray of all.filter((s) => s.status === "AWAITING REVIEW" && !given.has(s.id))) {
      await claimHit(ctx, { studyId, sessionId: stray.id, participantId: stray.participant_id, completed: true });
    }
  }
  const own = await claimsOf(ctx, studyId, hitId);
  const sessions = new Set(own.filter((c) => !c.released).map((c) => c.sessionId));
  const status = new Map(all.map((s) => [s.id, s.status]));
  const holding = own.filter((c) => holds(c, status));
  // Sessions given this HIT after the study was last read: at work, as far as Accord can tell.
  return { submissions: all.filter((s) => sessions.has(s.id)), held: holding.length, unlisted: holding.filter((c) => !status.has(c.sessionId)).length };
}

/**
 * The HIT of a participant's session in a batch study: the one given before (a reload), else the first HIT in queue
 * order that is open, not yet worked on by this participant and has a free place. The n-th claim of a HIT is an
 * insert of key n, so two sessions racing for a HIT's last place cannot both get it. null: no HIT has a place;
 * not_found: the study is not a batch of Accord's. `completed`: a session that came back without opening the page.
 */
export async function claimHit(ctx: ProlificContext, { studyId, sessionId, participantId, completed = false }: { studyId: string; sessionId: string; participantId: string; completed?: boolean }): Promise<string | null> {
  const given = await ctx.store.get(S.session, sessionId);
  if (given) return String(given.hitId);
  const queued = await queuedHits(ctx, studyId);
  if (queued.length === 0) throw new CrowdError(`Study ${studyId} is not one of Accord's batches.`, "not_found");
  // A session that already came back holds its place whether or not its HIT has expired since.
  const hits = queued.filter((h) => !h.disposed && (completed || h.expiresAt.getTime() > ctx.now().getTime()));
  if (hits.length === 0) return null;
  // First without asking Prolific: a place whose claim is not known to be given back counts as held, so this never
  // gives out too many. Only when that finds none, Prolific's statuses are read, the places given back are recorded
  // as such (for the next sessions), and the queue is looked at again.
  let status: Map<string, string> | null = null;
  for (let attempt = 0; attempt < 20; attempt++) {
    const claims = await claimsOf(ctx, studyId);
    const holding = (c: Claim) => (status ? holds(c, status) : !c.released && !c.givenBack);
    const hit = hits.find((h) => {
      const own = claims.filter((c) => c.hitId === h.hitId);
      return !own.some((c) => c.participantId === participantId) && own.filter(holding).length < h.places;
    });
    if (!hit && status) return null;
    if (!hit) {
      forgetStudyView(ctx, studyId);
      status = new Map((await studyView(ctx, studyId)).submissions.map((s) => [s.id, s.status]));
      for (const c of claims) if (!c.released && !c.givenBack && !holds(c, status)) await ctx.store.put(S.claim, c.key, { sessionId: c.sessionId, participantId: c.participantId, givenBack: true });
      continue;
    }
    const key = `${studyId}|${hit.hitId}|${String(claims.filter((c) => c.hitId === hit.hitId).length).padStart(4, "0")}`;
    if (!(await ctx.store.insert(S.claim, key, { sessionId, participantId }))) continue; // another session took that place first
    if (await ctx.store.insert(S.session, sessionId, { hitId: hit.hitId, claim: key })) return hit.hitId;
    // The same session opened the page twice at once: the other request's HIT stands, this place goes back.
    await ctx.store.put(S.claim, key, { sessionId, participantId, released: true });
    return String((await ctx.store.get(S.session, sessionId))?.hitId);
  }
  throw new CrowdError(`Too many participants are being given work in study ${studyId} at once; open the study again.`, "throttled");
}

/** The HIT a session was given, if any. */
export async function hitOfSession(ctx: ProlificContext, sessionId: string): Promise<string | null> {
  const given = await ctx.store.get(S.session, sessionId);
  return given ? String(given.hitId) : null;
}
