import "server-only";
import { ThrottleGate } from "@/lib/crowd/throttle-gate";
import { ProlificClient } from "@/lib/crowd/prolific/api-client";
import { learnFeeBasisPoints, ProlificProvider } from "@/lib/crowd/prolific/prolific-provider";
import { startProlificSimulator, type RunningProlificSimulator } from "@/lib/crowd/prolific/simulator/server";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { addTextKeys } from "@/lib/crowd/simulator/truth";
import { PROVIDER_KIND } from "@/lib/db/enums";
import type { DbFlavor } from "@/lib/db/url";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { submitProlificScreening } from "@/lib/task/prolific-screening";
import { submitProlificTask } from "@/lib/task/prolific-work";
import { dbProlificStore } from "@/lib/crowd/prolific/db-store";
import { type CampaignFixture, hitAnswerFields, type ItemView, setupCampaign, testAnswers } from "./test-fixture";

/**
 * The campaign fixture on Prolific: the same database and event as the MTurk campaign tests (setupCampaign), with
 * the event's provider set to "prolific", the local Prolific simulator in-process on a manual clock and the real
 * ProlificProvider (its records in Accord's database) pointed at it. Participants act only when the test says.
 */
export type ProlificCampaign = Omit<CampaignFixture, "provider"> & { provider: ProlificProvider; prolific: RunningProlificSimulator; pclock: ManualClock };

export async function setupProlificCampaign(
  options: { unknown?: number; balance?: number; persistFile?: string; participants?: Record<string, number>; taskUrl?: string; flavor?: DbFlavor; simulatorFetch?: typeof fetch; testMode?: boolean } = {},
): Promise<ProlificCampaign> {
  const base = await setupCampaign({ unknown: options.unknown ?? 40, workerIds: [], flavor: options.flavor });
  await base.db.event.update({ where: { id: base.eventId }, data: { provider: PROVIDER_KIND.prolific } });
  const pclock = new ManualClock();
  // Simulated participants answer by the truth of each tweet as the page shows it (its text: no id is shown).
  const tweets = await base.db.tweet.findMany({ select: { id: true, externalId: true, text: true } });
  const truth = addTextKeys(new Map(tweets.map((t) => [t.externalId, base.truth.get(t.id) as string])), tweets);
  const prolific = await startProlificSimulator({
    clock: pclock,
    balance: options.balance ?? 1_000_000,
    currency: "GBP",
    persistFile: options.persistFile,
    fetch: options.simulatorFetch,
    testParticipants: options.testMode,
    ...(options.participants ? { participants: options.participants, truth, participantTickMs: 0 } : {}),
  });
  const provider = await prolificProviderFor(base.db, prolific, options.taskUrl, options.testMode);
  return {
    ...base,
    provider,
    jobs: accordJobs({ provider }),
    prolific,
    pclock,
    async close() {
      await prolific.stop();
      await base.close();
    },
  };
}

/** A ProlificProvider over Accord's database and this simulator (a fresh one = Accord after a restart). */
export async function prolificProviderFor(db: CampaignFixture["db"], sim: RunningProlificSimulator, taskUrl = "http://127.0.0.1:3000/prolific/task", testMode = false): Promise<ProlificProvider> {
  const client = new ProlificClient({ token: sim.token, baseUrl: sim.apiUrl, gate: new ThrottleGate({ baseMs: 1, capMs: 4 }), faultBackoffMs: 1 });
  return new ProlificProvider({
    client,
    mode: "simulator",
    workspaceId: sim.state.workspace.id,
    projectId: sim.state.project.id,
    taskUrl,
    screeningUrl: new URL("/prolific/screening", taskUrl).toString(),
    store: dbProlificStore(db),
    feeBasisPoints: await learnFeeBasisPoints(client),
    screening: { rewardMinor: 100, places: 20, estimatedMinutes: 5 },
    testMode,
  });
}

/**
 * A participant takes the screening study and answers `correct` of its gold tweets right through what Accord's
 * screening page does (lib/task/prolific-screening.ts: the session checked with Prolific, the answers graded and
 * recorded in Accord's tables), then comes back with the code of the completion URL it was sent to.
 */
export async function takeScreening(f: ProlificCampaign, participantId: string, correct: number) {
  const { test, answers } = await testAnswers(f, correct);
  const qualification = test.providerQualTypeId as string;
  const { studyId } = await f.provider.screeningTest(qualification);
  const sub = f.prolific.service.startSubmission(participantId, studyId);
  const params = { qualification, PROLIFIC_PID: participantId, STUDY_ID: studyId, SESSION_ID: sub.id };
  const { redirectUrl, passed, message } = await submitProlificScreening(f.db, f.provider, params, answers);
  // A participant who failed is asked to return (no code): they do, as the page and Prolific's message ask.
  const completionCode = redirectUrl ? new URL(redirectUrl).searchParams.get("cc") : null;
  if (completionCode) f.prolific.service.completeSubmission(sub.id, completionCode);
  else f.prolific.service.returnSubmission(sub.id);
  return { passed, studyId, completionCode, submissionId: sub.id, message };
}

/** The batch study a published HIT is queued in (its providerHitId is `<study id>:<hit id>`). */
export const studyOfHit = (providerHitId: string | null) => (providerHitId ?? "").split(":")[0] as string;

/**
 * A participant takes a place in the batch's study, is given a HIT by Accord's queue (the test says which HIT it
 * expects: the queue gives the first with a free place), answers through what Accord's participant page does
 * (lib/task/prolific-work.ts: the session checked with Prolific, the answers stored) and comes back with the code
 * of the completion URL it was sent to. Every tweet needs a label (the page refuses less), and every attention check
 * an answer when the event has them on (`extra`).
 */
export async function workOnProlific(f: ProlificCampaign, participantId: string, hitId: string, answer: (item: ItemView) => string | null, seconds = 120, extra: Record<string, string> = {}) {
  const { providerHitId, fields: tweets } = await hitAnswerFields(f, hitId, answer);
  const fields = { ...tweets, ...extra }; // `extra`: the page's other fields (its attention checks)
  const studyId = studyOfHit(providerHitId);
  const sub = f.prolific.service.startSubmission(participantId, studyId);
  const given = await f.provider.hitForSession({ studyId, sessionId: sub.id, participantId });
  if (given !== hitId) throw new Error(`Accord's queue gave ${participantId} HIT ${given}, not ${hitId}`);
  f.pclock.advance(seconds);
  const params = { PROLIFIC_PID: participantId, STUDY_ID: studyId, SESSION_ID: sub.id };
  const { redirectUrl } = await submitProlificTask(f.db, f.provider, params, fields);
  f.prolific.service.completeSubmission(sub.id, new URL(redirectUrl).searchParams.get("cc"));
  return sub.id;
}
