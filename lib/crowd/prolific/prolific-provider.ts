import { PROVIDER_KIND } from "@/lib/db/enums";
import type {
  Balance,
  CreateQualificationTypeInput,
  CreateQualificationTypeResult,
  CrowdAssignment,
  CrowdHit,
  CrowdProvider,
  FeeRules,
  HitAnswer,
  ListSubmittedAssignmentsInput,
  NotifyWorkersResult,
  PublishHitInput,
  PublishHitResult,
  ScreeningAnswer,
} from "../provider";
import { buildQuestionFormAnswers } from "../mturk/answers";
import type { ProlificClient } from "./api-client";
import { balanceOf, notifyParticipants, sendBonus } from "./provider/bonuses-messages";
import type { ProlificContext, ProlificMode, ProlificProviderOptions } from "./provider/context";
import { feeRules } from "./provider/fees";
import { blockParticipant, unblockParticipant } from "./provider/participant-groups";
import { checkReward, completionCode, minimumReward, publishHit, studyUrl } from "./provider/publish";
import { createQualificationType, gradeScreening, qualificationOf, type ScreeningAttempt, screeningTaken, setQualified } from "./provider/qualification";
import { claimHit } from "./provider/queue";
import { addPlaces, disposeStudy, expireStudy, extendStudy, getHit } from "./provider/study-state";
import { approveSubmission, listSubmitted, rejectSubmission, saveAnswers } from "./provider/submissions";


/** How long the Publish form's pay floor is reused before Prolific is asked again (its hourly minimum rarely changes). */
const FLOOR_CACHE_MS = 5 * 60_000;
export type { ProlificMode, ProlificProviderOptions } from "./provider/context";
export { learnFeeBasisPoints } from "./provider/fees";
export { estimatedMinutes } from "./provider/publish";

/**
 * CrowdProvider over Prolific's researcher API: an Accord batch is one study whose places are its HITs'
 * assignments, a submission is an assignment, a participant is a worker. The participant opens Accord's page
 * (`taskUrl` with {{%PROLIFIC_PID%}}, {{%STUDY_ID%}} and {{%SESSION_ID%}}), is given one HIT from the batch's queue
 * (`hitForSession`), and the page stores the answers here (`saveAnswers`) and sends the participant back with the
 * study's completion code.
 * Prolific has no idempotency key: every create or payment first records its intent in the store and looks the
 * result up on a retry (a study by its `internal_name`, places by the study's total, a bonus by its set-up id).
 * Each part lives in ./provider/ (publish, study state, submissions and decisions, qualification, participant
 * groups, bonuses and messages); this class gives them one CrowdProvider surface.
 */
export class ProlificProvider implements CrowdProvider {
  readonly kind = PROVIDER_KIND.prolific;
  readonly mode: ProlificMode;
  readonly fees: FeeRules;
  readonly client: ProlificClient;
  private readonly ctx: ProlificContext;

  constructor(options: ProlificProviderOptions) {
    this.ctx = { ...options, now: options.now ?? (() => new Date()), locks: new Map(), views: new Map() };
    this.client = options.client;
    this.mode = options.mode;
    this.fees = feeRules(options.feeBasisPoints);
  }

  /** A batch study's external URL: Accord's page with Prolific's three placeholders. */
  studyUrl(): string {
    return studyUrl(this.ctx);
  }

  /** The code Accord's page sends a participant back with, for the study of this batch (random, from Accord's records). */
  completionCode(batchKey: string): Promise<string> {
    return completionCode(this.ctx, batchKey);
  }

  /**
   * The HIT Accord's page gives this session of a batch study: the one given before, else the next HIT of the
   * batch's queue with a free place (null: none has one). The caller checked the session with Prolific first.
   */
  hitForSession(input: { studyId: string; sessionId: string; participantId: string }): Promise<string | null> {
    return claimHit(this.ctx, input);
  }

  /** Where Accord's page sends a participant back: Prolific's completion URL (the simulator's own in simulator mode). */
  completionUrl(code: string): string {
    const base = this.mode === "simulator" ? new URL(this.client.baseUrl).origin : "https://app.prolific.com";
    return `${base}/submissions/complete?cc=${encodeURIComponent(code)}`;
  }

  /** Accord's task page calls this when the participant submits (write-once: a resubmission keeps the first). */
  saveAnswers({ answers, ...input }: { submissionId: string; studyId: string; accordHitId: string; answers: HitAnswer[] }): Promise<{ completionCode: string }> {
    return saveAnswers(this.ctx, { ...input, answerXml: buildQuestionFormAnswers(answers.map((a) => ({ questionId: a.field, freeText: a.label }))) });
  }

  // ───────── qualification: a screening study whose passers join a participant group ─────────

  createQualificationType(input: CreateQualificationTypeInput): Promise<CreateQualificationTypeResult> {
    return createQualificationType(this.ctx, input);
  }

  /** The screening test of a qualification (its QuestionForm) and the study it is taken in. */
  async screeningTest(qualificationTypeId: string): Promise<{ testXml: string; studyId: string }> {
    const q = await qualificationOf(this.ctx, qualificationTypeId);
    return { testXml: q.testXml, studyId: q.screeningStudyId };
  }

  /**
   * Grades a screening test taken on Accord's page: the code to send the participant back with (pass joins the
   * group). Each participant and each session is graded once: another attempt is CrowdError "already_exists".
   */
  gradeScreening({ answers, ...input }: ScreeningAttempt & { answers: ScreeningAnswer[]; passingScore: number }) {
    return gradeScreening(this.ctx, { ...input, answerXml: buildQuestionFormAnswers(answers.map((a) => ({ questionId: a.questionId, selectionIds: [a.choice] }))) });
  }

  /** Whether this participant, or this session, has taken the screening already (its result is not told). */
  screeningTaken(input: ScreeningAttempt): Promise<boolean> {
    return screeningTaken(this.ctx, input);
  }

  /** Asks the participant of a session to return it, with the reason (Prolific's way for a screening failure: never a rejection). */
  requestReturn(input: { submissionId: string; reason: string }): Promise<void> {
    return this.client.requestReturn(input.submissionId, [input.reason]);
  }

  grantQualification(input: { qualificationTypeId: string; workerId: string }): Promise<void> {
    return setQualified(this.ctx, input, true);
  }

  revokeQualification(input: { qualificationTypeId: string; workerId: string }): Promise<void> {
    return setQualified(this.ctx, input, false);
  }

  // ───────── HITs as shares of their batch's study ─────────

  publishHit(input: PublishHitInput): Promise<PublishHitResult> {
    return publishHit(this.ctx, input);
  }

  /** Prolific's minimum reward per hour for the workspace's currency, checked against the study's estimated time. */
  checkReward(input: { rewardCents: number; assignmentDurationSeconds: number }): Promise<void> {
    return checkReward(this.ctx, input);
  }

  /**
   * The smallest reward the hourly floor allows for a time per assignment: the Publish form's default. Kept for
   * FLOOR_CACHE_MS per time, since the Overview renders the form on every live refresh (two API calls each otherwise).
   */
  async minimumRewardCents(input: { assignmentDurationSeconds: number }): Promise<number> {
    const hit = this.floors.get(input.assignmentDurationSeconds);
    if (hit && Date.now() - hit.at < FLOOR_CACHE_MS) return hit.cents;
    const cents = (await minimumReward(this.ctx, input)).rewardCents;
    this.floors.set(input.assignmentDurationSeconds, { at: Date.now(), cents });
    return cents;
  }

  private readonly floors = new Map<number, { at: number; cents: number }>();

  getHit({ providerHitId }: { providerHitId: string }): Promise<CrowdHit> {
    return getHit(this.ctx, providerHitId);
  }

  listSubmittedAssignments(input: ListSubmittedAssignmentsInput): AsyncIterable<CrowdAssignment> {
    return listSubmitted(this.ctx, input);
  }

  approveAssignment({ assignmentId }: { assignmentId: string; feedback?: string; overrideRejection?: boolean }): Promise<void> {
    return approveSubmission(this.ctx, assignmentId);
  }

  /** Rejected for one of Prolific's valid reasons (the crowd policy's category; FAILED_CHECK by default) with a message of ≥ 100 characters. */
  rejectAssignment({ assignmentId, feedback, category }: { assignmentId: string; feedback: string; category?: string }): Promise<void> {
    return rejectSubmission(this.ctx, assignmentId, feedback, category);
  }

  /** Places only grow: the target (current + count) is recorded under the token first, so a retry adds nothing twice. */
  addAssignments(input: { providerHitId: string; count: number; uniqueToken: string }): Promise<{ duplicate: boolean }> {
    return addPlaces(this.ctx, input);
  }

  expireHit({ providerHitId }: { providerHitId: string }): Promise<void> {
    return expireStudy(this.ctx, providerHitId);
  }

  extendHit(input: { providerHitId: string; expiresAt: Date }): Promise<void> {
    return extendStudy(this.ctx, input);
  }

  /** Prolific keeps studies; Accord stops it and marks it disposed once every submission is decided. */
  deleteHit({ providerHitId }: { providerHitId: string }): Promise<void> {
    return disposeStudy(this.ctx, providerHitId);
  }

  getBalance(): Promise<Balance> {
    return balanceOf(this.ctx);
  }

  // ───────── workers ─────────

  blockWorker({ workerId }: { workerId: string; reason: string }): Promise<void> {
    return blockParticipant(this.ctx, workerId);
  }

  unblockWorker({ workerId }: { workerId: string; reason?: string }): Promise<void> {
    return unblockParticipant(this.ctx, workerId);
  }

  /** Prolific messages go one participant at a time, about a study: the one the participant last worked on. */
  notifyWorkers(input: { workerIds: string[]; subject: string; message: string }): Promise<NotifyWorkersResult> {
    return notifyParticipants(this.ctx, input);
  }

  /** The two-step bonus (set up, record, pay); a retry with the token pays an unpaid set-up and never sets up a second. */
  sendBonus(input: { workerId: string; assignmentId: string; amountCents: number; reason: string; uniqueToken: string }): Promise<{ duplicate: boolean; feeCents?: number }> {
    return sendBonus(this.ctx, input);
  }
}
