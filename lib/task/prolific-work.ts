import "server-only";
import { z } from "zod";
import { loadEventContext } from "@/lib/campaign/context";
import { attentionChecksFor } from "@/lib/crowd/attention-checks";
import { hitFieldName } from "@/lib/crowd/mturk/hit-question";
import { isCrowdError } from "@/lib/crowd/errors";
import type { ProlificProvider } from "@/lib/crowd/prolific/prolific-provider";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { displayText } from "@/lib/text/display-text";
import { collectHitAnswers, type HitContent, missingAnswersMessage } from "./hit-content";

/**
 * What Accord's Prolific participant page does (app/prolific/task): it is opened with Prolific's three placeholders
 * filled, checks with Prolific that the session is this participant's open place in a batch study of Accord's,
 * gives the session one HIT of the batch's queue (the same one on every visit), shows its tweets, and on submit
 * stores the answers through the provider and sends the participant back to Prolific with the study's completion
 * code. Participants are not Accord users: the Prolific session is their credential.
 */
export const prolificId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "a Prolific id");
export const prolificTaskSchema = z.object({ PROLIFIC_PID: prolificId, STUDY_ID: prolificId, SESSION_ID: prolificId });
export type ProlificTaskParams = z.infer<typeof prolificTaskSchema>;

/** The HIT this session was given, after checking that the session is the participant's open place in the study. */
async function verifiedHit(db: Db, provider: ProlificProvider, raw: unknown) {
  const parsed = prolificTaskSchema.safeParse(raw);
  if (!parsed.success) throw new UserError("This link is incomplete: open the study again from Prolific.", "invalid_link");
  const p = parsed.data;
  await checkProlificSession(provider, p);
  const hitId = await provider.hitForSession({ studyId: p.STUDY_ID, sessionId: p.SESSION_ID, participantId: p.PROLIFIC_PID }).catch((err: unknown) => {
    if (isCrowdError(err, "not_found")) throw new UserError("This study is not one of Accord's.", "not_found");
    throw err;
  });
  if (!hitId) throw new UserError("Every task of this study is taken or closed: there is nothing left for you to do here.", "no_work");
  const hit = await db.hit.findUnique({
    where: { id: hitId },
    select: { id: true, eventId: true, provider: true, batch: { select: { title: true, description: true } }, items: { orderBy: { position: "asc" }, select: { id: true, position: true, tweet: { select: { text: true } } } } },
  });
  if (!hit || hit.provider !== provider.kind) throw new UserError("This study is not one of Accord's.", "not_found");
  return { p, hit };
}

/** Checks with Prolific that the session is this participant's open place in this study. */
export async function checkProlificSession(provider: ProlificProvider, p: { PROLIFIC_PID: string; STUDY_ID: string; SESSION_ID: string }): Promise<void> {
  checkSessionOpen(await ownProlificSession(provider, p));
}

/** The participant's session in this study, as Prolific has it (refused when it is not theirs, or not in the study). */
export async function ownProlificSession(provider: ProlificProvider, p: { PROLIFIC_PID: string; STUDY_ID: string; SESSION_ID: string }) {
  const sub = await provider.client.getSubmission(p.SESSION_ID).catch((err: unknown) => {
    if (isCrowdError(err, "not_found")) return null;
    throw err;
  });
  if (!sub || sub.participant !== p.PROLIFIC_PID || (sub.study_id !== undefined && sub.study_id !== p.STUDY_ID)) throw new UserError("This Prolific session is not yours.", "not_found");
  return sub;
}

/** Only a session still in progress takes answers. */
export function checkSessionOpen(sub: { status: string }): void {
  if (sub.status !== "ACTIVE" && sub.status !== "RESERVED") throw new UserError(`This Prolific session is ${sub.status.toLowerCase()}: it takes no more answers.`, "closed");
}

/** The HIT as the page shows it: the tweets in order, each with its form field, and the event's labels. */
export async function openProlificTask(db: Db, provider: ProlificProvider, raw: unknown): Promise<HitContent> {
  return (await loadTask(db, provider, raw)).content;
}

async function loadTask(db: Db, provider: ProlificProvider, raw: unknown): Promise<{ p: ProlificTaskParams; hit: { id: string }; content: HitContent }> {
  const { p, hit } = await verifiedHit(db, provider, raw);
  const { labels, crowdPolicy } = await loadEventContext(db, hit.eventId);
  const content = {
    title: hit.batch?.title ?? "Categorise tweets",
    instructions: hit.batch?.description ?? "",
    labels,
    // The item's own id (one per HIT and tweet) names its field: nothing on the page is the tweet's id.
    items: hit.items.map((it) => ({ position: it.position + 1, itemId: it.id, fieldName: hitFieldName(it.position + 1, it.id), text: displayText(it.tweet.text) })),
    // The same checks the sync loop grades (lib/campaign/sync/crowd-policy.ts loadAttention): from the HIT's id.
    ...(crowdPolicy?.attentionChecks ? { checks: attentionChecksFor(hit.id, labels, hit.items.length) } : {}),
  };
  return { p, hit, content };
}

/** Stores the answers (one valid label per tweet) and returns where to send the participant: Prolific, with the code. */
export async function submitProlificTask(db: Db, provider: ProlificProvider, raw: unknown, posted: Record<string, unknown>): Promise<{ redirectUrl: string }> {
  const { p, hit, content } = await loadTask(db, provider, raw);
  const answers = collectHitAnswers(content, posted);
  if (!answers.ok) throw new UserError(missingAnswersMessage(answers), "incomplete");
  const labelled = Object.entries(answers.fields).map(([field, label]) => ({ field, label }));
  const { completionCode } = await provider.saveAnswers({ submissionId: p.SESSION_ID, studyId: p.STUDY_ID, accordHitId: hit.id, answers: labelled });
  return { redirectUrl: provider.completionUrl(completionCode) };
}
