import "server-only";
import { ThrottleGate } from "@/lib/crowd/mturk/throttle-gate";
import { hitFieldName } from "@/lib/crowd/mturk/hit-question";
import { buildQuestionFormAnswers } from "@/lib/crowd/mturk/answers";
import { goldQuestionId } from "@/lib/crowd/mturk/qualification-xml";
import { ProlificClient } from "@/lib/crowd/prolific/api-client";
import { learnFeeBasisPoints, ProlificProvider } from "@/lib/crowd/prolific/prolific-provider";
import { startProlificSimulator, type RunningProlificSimulator } from "@/lib/crowd/prolific/simulator/server";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { PROVIDER_KIND, QUALIFICATION_STATUS } from "@/lib/db/enums";
import type { DbFlavor } from "@/lib/db/url";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { submitProlificTask } from "@/lib/task/prolific-work";
import { dbProlificStore } from "./prolific-store";
import { type CampaignFixture, type ItemView, setupCampaign } from "./test-fixture";

/**
 * The campaign fixture on Prolific: the same database and event as the MTurk campaign tests (setupCampaign), with
 * the event's provider set to "prolific", the local Prolific simulator in-process on a manual clock and the real
 * ProlificProvider (its records in Accord's database) pointed at it. Participants act only when the test says.
 */
export type ProlificCampaign = Omit<CampaignFixture, "provider"> & { provider: ProlificProvider; prolific: RunningProlificSimulator; pclock: ManualClock };

export async function setupProlificCampaign(
  options: { unknown?: number; balance?: number; persistFile?: string; participants?: Record<string, number>; taskUrl?: string; flavor?: DbFlavor; simulatorFetch?: typeof fetch } = {},
): Promise<ProlificCampaign> {
  const base = await setupCampaign({ unknown: options.unknown ?? 40, workerIds: [], flavor: options.flavor });
  await base.db.event.update({ where: { id: base.eventId }, data: { provider: PROVIDER_KIND.prolific } });
  const pclock = new ManualClock();
  // Simulated participants answer by the truth of each tweet as the page shows it (its external id).
  const tweets = await base.db.tweet.findMany({ select: { id: true, externalId: true } });
  const truth = new Map(tweets.map((t) => [t.externalId, base.truth.get(t.id) as string]));
  const prolific = await startProlificSimulator({
    clock: pclock,
    balance: options.balance ?? 1_000_000,
    currency: "GBP",
    persistFile: options.persistFile,
    fetch: options.simulatorFetch,
    ...(options.participants ? { participants: options.participants, truth, participantTickMs: 0 } : {}),
  });
  const provider = await prolificProviderFor(base.db, prolific, options.taskUrl);
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
export async function prolificProviderFor(db: CampaignFixture["db"], sim: RunningProlificSimulator, taskUrl = "http://127.0.0.1:3000/prolific/task"): Promise<ProlificProvider> {
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
  });
}

/** A participant takes the screening study and answers `correct` of its gold tweets right, as the screening page would. */
export async function takeScreening(f: ProlificCampaign, participantId: string, correct: number) {
  const test = await f.db.qualificationTest.findFirstOrThrow({ where: { eventId: f.eventId, status: QUALIFICATION_STATUS.active } });
  const ids = test.goldTweetIds as string[];
  const answers = ids.map((id, i) => {
    const right = f.truth.get(id) as string;
    return { questionId: goldQuestionId(i + 1), selectionIds: [i < correct ? right : otherOf(right)] };
  });
  const graded = await f.provider.gradeScreening({ qualificationTypeId: test.providerQualTypeId as string, answerXml: buildQuestionFormAnswers(answers), passingScore: test.passPercent });
  const sub = f.prolific.service.startSubmission(participantId, graded.studyId);
  f.prolific.service.completeSubmission(sub.id, graded.completionCode);
  return graded;
}

function otherOf(label: string): string {
  return label === "caution_and_advice" ? "other_relevant_information" : "caution_and_advice";
}

/**
 * A participant takes a place in the HIT's study, answers through what Accord's participant page does
 * (lib/task/prolific-work.ts: the session checked with Prolific, the answers stored) and comes back with the code
 * of the completion URL it was sent to. Every tweet needs a label (the page refuses less).
 */
export async function workOnProlific(f: ProlificCampaign, participantId: string, hitId: string, answer: (item: ItemView) => string | null) {
  const hit = await f.db.hit.findUniqueOrThrow({ where: { id: hitId }, select: { providerHitId: true, items: { orderBy: { position: "asc" }, select: { id: true, tweetId: true, position: true, isGold: true } } } });
  let u = 0;
  let g = 0;
  const fields: Record<string, string> = {};
  for (const it of hit.items) {
    const view: ItemView = { itemId: it.id, tweetId: it.tweetId, position: it.position, isGold: it.isGold, truth: f.truth.get(it.tweetId) as string, index: it.isGold ? g++ : u++ };
    fields[hitFieldName(it.position + 1, it.id)] = answer(view) ?? "";
  }
  const sub = f.prolific.service.startSubmission(participantId, hit.providerHitId as string);
  f.pclock.advance(120);
  const params = { hit: hitId, PROLIFIC_PID: participantId, STUDY_ID: hit.providerHitId as string, SESSION_ID: sub.id };
  const { redirectUrl } = await submitProlificTask(f.db, f.provider, params, fields);
  f.prolific.service.completeSubmission(sub.id, new URL(redirectUrl).searchParams.get("cc"));
  return sub.id;
}
