import { PROVIDER_KIND } from "@/lib/db/enums";
import { createHash } from "node:crypto";
import { CrowdError, isCrowdError } from "../errors";
import { gradeAnswerKey, parseAnswerKey } from "../mturk/answer-key";
import { parseQuestionFormAnswers } from "../mturk/answers";
import type {
  Balance,
  CreateQualificationTypeInput,
  CreateQualificationTypeResult,
  CrowdAssignment,
  CrowdHit,
  CrowdProvider,
  FeeRules,
  ListSubmittedAssignmentsInput,
  NotifyWorkersResult,
  PublishHitInput,
  PublishHitResult,
} from "../provider";
import type { ProlificClient } from "./api-client";
import type { Study, SubmissionListItem } from "./api-types";
import { PROLIFIC_SCOPES as S, type ProlificProviderStore } from "./provider-store";
import { rejectionMessage } from "./rejection";

/** Prolific approves what is still awaiting review 21 days after completion (docs; the simulator does the same). */
const AUTO_APPROVE_MS = 21 * 24 * 3600 * 1000;
const OPEN = new Set(["RESERVED", "ACTIVE"]);
const DECIDED: Record<string, CrowdAssignment["status"] | undefined> = { "AWAITING REVIEW": "Submitted", APPROVED: "Approved", REJECTED: "Rejected" };

export type ProlificMode = "simulator" | "production";

export type ProlificProviderOptions = {
  client: ProlificClient;
  mode: ProlificMode;
  workspaceId: string;
  projectId: string;
  /** Accord's participant page for a HIT (absolute URL); the provider appends the HIT and Prolific's placeholders. */
  taskUrl: string;
  /** Accord's participant page for a screening (qualification) study. */
  screeningUrl: string;
  store: ProlificProviderStore;
  /**
   * The fee Prolific charges on a reward or a bonus, as a share in basis points (fee and VAT together). Learned from
   * Prolific's cost calculator by `learnFeeBasisPoints`, so the ledger books what the workspace is debited.
   */
  feeBasisPoints: number;
  /** A screening study's reward, places and length (the qualification test is paid work on Prolific). */
  screening?: { rewardMinor: number; places: number; estimatedMinutes: number };
  now?: () => Date;
};

/** The fee share (basis points) Prolific's cost calculator quotes for one place: fee + VAT over the reward. */
export async function learnFeeBasisPoints(client: ProlificClient): Promise<number> {
  const reward = 10_000;
  return (await client.calculateCost(reward, 1)) - reward;
}

/** round(amount × basisPoints / 10,000) half-up, in integers. */
function share(amount: number, basisPoints: number): number {
  return Math.floor((amount * basisPoints * 2 + 10_000) / 20_000);
}

/** The study's estimated completion time: a third of the time allowed for the HIT (at least a minute). */
export function estimatedMinutes(assignmentDurationSeconds: number): number {
  return Math.max(1, Math.round(assignmentDurationSeconds / 60 / 3));
}

/** Minor units as "£3.00" / "$3.00" (other currencies by their code). */
function money(minor: number, currency: string): string {
  const sign = currency === "GBP" ? "£" : currency === "USD" ? "$" : `${currency} `;
  return `${sign}${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
}

/** A completion code of 8 characters derived from what it completes (stable across retries). */
function codeFor(...parts: string[]): string {
  return createHash("sha256").update(parts.join("|")).digest("hex").slice(0, 8).toUpperCase();
}

/**
 * CrowdProvider over Prolific's researcher API: an Accord HIT is one study whose places are the HIT's assignments,
 * a submission is an assignment, a participant is a worker. The participant works on Accord's page
 * (`taskUrl` with {{%PROLIFIC_PID%}}, {{%STUDY_ID%}} and {{%SESSION_ID%}}), which stores the answers here
 * (`saveAnswers`) and sends the participant back with the study's completion code.
 * Prolific has no idempotency key: every create or payment first records its intent in the store and looks the
 * result up on a retry (a study by its `internal_name`, places by the study's total, a bonus by its set-up id).
 */
export class ProlificProvider implements CrowdProvider {
  readonly kind = PROVIDER_KIND.prolific;
  readonly mode: ProlificMode;
  readonly fees: FeeRules;
  readonly client: ProlificClient;
  private readonly o: ProlificProviderOptions;
  private readonly now: () => Date;

  constructor(options: ProlificProviderOptions) {
    this.o = options;
    this.client = options.client;
    this.mode = options.mode;
    this.now = options.now ?? (() => new Date());
    const bp = options.feeBasisPoints;
    this.fees = { assignmentFeeCents: ({ rewardCents }) => share(rewardCents, bp), bonusFeeCents: ({ bonusCents }) => share(bonusCents, bp) };
  }

  /** The study's external URL: Accord's page for this HIT with Prolific's three placeholders. */
  studyUrl(accordHitId: string): string {
    const url = new URL(this.o.taskUrl);
    url.searchParams.set("hit", accordHitId);
    return `${url.toString()}&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`;
  }

  /** The code Accord's page sends a participant back with, for the study of this HIT. */
  completionCode(accordHitId: string): string {
    return codeFor("hit", accordHitId);
  }

  /** Where Accord's page sends a participant back: Prolific's completion URL (the simulator's own in simulator mode). */
  completionUrl(code: string): string {
    const base = this.mode === "simulator" ? new URL(this.client.baseUrl).origin : "https://app.prolific.com";
    return `${base}/submissions/complete?cc=${encodeURIComponent(code)}`;
  }

  /** Accord's task page calls this when the participant submits (write-once: a resubmission keeps the first). */
  async saveAnswers({ submissionId, accordHitId, answerXml }: { submissionId: string; accordHitId: string; answerXml: string }): Promise<{ completionCode: string }> {
    await this.o.store.insert(S.answer, submissionId, { answerXml, hitId: accordHitId });
    return { completionCode: this.completionCode(accordHitId) };
  }

  // ───────── qualification: a screening study whose passers join a participant group ─────────

  async createQualificationType(input: CreateQualificationTypeInput): Promise<CreateQualificationTypeResult> {
    parseAnswerKey(input.answerKeyXml); // validates
    const internalName = `accord-qual:${input.name}`;
    const screening = this.o.screening ?? { rewardMinor: 100, places: 50, estimatedMinutes: 5 };
    const existing = await this.findStudy(internalName);
    if (existing) throw new CrowdError(`A qualification named "${input.name}" already exists on Prolific.`, "already_exists");
    const group = await this.client.createParticipantGroup(this.o.workspaceId, `Accord qualified: ${input.name}`.slice(0, 120), input.description.slice(0, 500));
    const passCode = codeFor("pass", group.id);
    const failCode = codeFor("fail", group.id);
    const url = new URL(this.o.screeningUrl);
    url.searchParams.set("qualification", group.id);
    const study = await this.client.createStudy({
      name: `Qualification: ${input.name}`.slice(0, 255),
      internal_name: internalName,
      description: input.description,
      external_study_url: `${url.toString()}&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`,
      prolific_id_option: "url_parameters",
      completion_codes: [
        { code: passCode, code_type: "COMPLETED", actions: [{ action: "AUTOMATICALLY_APPROVE" }, { action: "ADD_TO_PARTICIPANT_GROUP", participant_group: group.id }] },
        { code: failCode, code_type: "FAILED_ATTENTION_CHECK", actions: [{ action: "AUTOMATICALLY_APPROVE" }] },
      ],
      total_available_places: screening.places,
      estimated_completion_time: screening.estimatedMinutes,
      maximum_allowed_time: Math.max(screening.estimatedMinutes, Math.ceil(input.testDurationSeconds / 60)),
      reward: screening.rewardMinor,
      filters: await this.blockFilter(),
      project: this.o.projectId,
    });
    await this.o.store.put(S.qualification, group.id, { name: input.name, testXml: input.testXml, answerKeyXml: input.answerKeyXml, screeningStudyId: study.id, passCode, failCode });
    await this.client.transitionStudy(study.id, "PUBLISH");
    return { qualificationTypeId: group.id };
  }

  /** The screening test of a qualification (its QuestionForm) and the study it is taken in. */
  async screeningTest(qualificationTypeId: string): Promise<{ testXml: string; studyId: string }> {
    const q = await this.qualification(qualificationTypeId);
    return { testXml: q.testXml, studyId: q.screeningStudyId };
  }

  /** Grades a screening test taken on Accord's page: the code to send the participant back with (pass joins the group). */
  async gradeScreening({ qualificationTypeId, answerXml, passingScore }: { qualificationTypeId: string; answerXml: string; passingScore: number }) {
    const q = await this.qualification(qualificationTypeId);
    const { value } = gradeAnswerKey(parseAnswerKey(q.answerKeyXml), parseQuestionFormAnswers(answerXml));
    const passed = value >= passingScore;
    return { passed, score: value, completionCode: passed ? q.passCode : q.failCode, studyId: q.screeningStudyId };
  }

  async grantQualification({ qualificationTypeId, workerId }: { qualificationTypeId: string; workerId: string }): Promise<void> {
    await this.qualification(qualificationTypeId);
    await this.client.addToParticipantGroup(qualificationTypeId, [workerId]);
  }

  async revokeQualification({ qualificationTypeId, workerId }: { qualificationTypeId: string; workerId: string }): Promise<void> {
    await this.qualification(qualificationTypeId);
    await this.client.removeFromParticipantGroup(qualificationTypeId, [workerId]);
  }

  private async qualification(groupId: string) {
    const q = await this.o.store.get(S.qualification, groupId);
    if (!q) throw new CrowdError(`Qualification ${groupId} is not one Accord created on Prolific.`, "not_found");
    return q as { name: string; testXml: string; answerKeyXml: string; screeningStudyId: string; passCode: string; failCode: string };
  }

  // ───────── HITs as studies ─────────

  async publishHit(input: PublishHitInput): Promise<PublishHitResult> {
    const internalName = `accord:${input.accordHitId}`;
    const expiresAt = new Date(this.now().getTime() + input.lifetimeSeconds * 1000);
    // The intent first: a restart finds it and looks the study up by its internal name instead of creating another.
    const fresh = await this.o.store.insert(S.study, input.accordHitId, { internalName, expiresAt: expiresAt.toISOString() });
    const intent = (await this.o.store.get(S.study, input.accordHitId)) as { internalName: string; expiresAt: string };
    // A fresh intent means no earlier attempt can have created the study: only a retry lists the project's studies.
    let study = fresh ? null : await this.findStudy(intent.internalName);
    const duplicate = study !== null;
    if (!study) {
      const estimated = estimatedMinutes(input.assignmentDurationSeconds);
      study = await this.client.createStudy({
        name: input.title,
        internal_name: intent.internalName,
        description: input.description,
        external_study_url: this.studyUrl(input.accordHitId),
        prolific_id_option: "url_parameters",
        completion_codes: [{ code: this.completionCode(input.accordHitId), code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] }],
        total_available_places: input.maxAssignments,
        estimated_completion_time: estimated,
        maximum_allowed_time: Math.max(estimated, Math.ceil(input.assignmentDurationSeconds / 60)),
        reward: input.rewardCents,
        filters: [...(await this.allowFilters(input)), ...(await this.blockFilter())],
        project: this.o.projectId,
        submissions_config: { max_submissions_per_participant: 1 },
      });
    }
    if (study.status === "UNPUBLISHED") study = await this.client.transitionStudy(study.id, "PUBLISH");
    return { providerHitId: study.id, expiresAt: new Date(intent.expiresAt), duplicate };
  }

  /** Prolific's minimum reward per hour for the workspace's currency, checked against the study's estimated time. */
  async checkReward({ rewardCents, assignmentDurationSeconds }: { rewardCents: number; assignmentDurationSeconds: number }): Promise<void> {
    const { currency_code: currency } = await this.client.getBalance(this.o.workspaceId);
    const floor = (await this.client.getRewardRecommendations(this.o.workspaceId, currency)).find((r) => r.currency === currency)?.min_reward_per_hour ?? 0;
    const minutes = estimatedMinutes(assignmentDurationSeconds);
    const perHour = Math.floor((rewardCents * 60) / minutes);
    if (perHour >= floor) return;
    const needed = Math.ceil((floor * minutes) / 60);
    throw new CrowdError(
      `${money(rewardCents, currency)} for an estimated ${minutes} minutes is ${money(perHour, currency)} an hour, below Prolific's minimum of ${money(Math.round(floor), currency)} an hour: raise the reward to at least ${money(needed, currency)} or shorten the time allowed.`,
      "invalid_parameter",
    );
  }

  /** Qualification requirements name Accord's participant groups: they become the study's allow-list. */
  private async allowFilters(input: PublishHitInput) {
    const groups: string[] = [];
    for (const r of input.qualificationRequirements ?? []) {
      if (!(await this.o.store.get(S.qualification, r.qualificationTypeId))) {
        throw new CrowdError(`Prolific studies can require only Accord's own qualifications (participant groups); ${r.qualificationTypeId} is not one.`, "invalid_parameter");
      }
      groups.push(r.qualificationTypeId);
    }
    return groups.length ? [{ filter_id: "participant_group_allowlist", selected_values: groups }] : [];
  }

  private async findStudy(internalName: string): Promise<Study | null> {
    return (await this.client.listProjectStudies(this.o.projectId)).find((s) => s.internal_name === internalName) ?? null;
  }

  async getHit({ providerHitId }: { providerHitId: string }): Promise<CrowdHit> {
    const study = await this.client.getStudy(providerHitId);
    const subs = await this.client.listSubmissions(providerHitId);
    const meta = await this.studyMeta(study);
    const pending = subs.filter((s) => OPEN.has(s.status)).length;
    const completed = subs.filter((s) => s.status === "APPROVED" || s.status === "REJECTED").length;
    const holding = subs.filter((s) => OPEN.has(s.status) || s.status === "AWAITING REVIEW" || s.status === "APPROVED").length;
    const available = Math.max(0, study.total_available_places - holding);
    const expired = study.status === "COMPLETED" || meta.expiresAt.getTime() <= this.now().getTime();
    const status: CrowdHit["status"] = meta.disposed
      ? "Disposed"
      : study.status === "ACTIVE" && available > 0 && !expired
        ? "Assignable"
        : pending > 0 || study.status === "UNPUBLISHED" || study.status === "PUBLISHING" || study.status === "SCHEDULED"
          ? "Unassignable"
          : "Reviewable";
    return {
      providerHitId: study.id,
      title: study.name,
      status,
      maxAssignments: study.total_available_places,
      rewardCents: Math.round(study.reward),
      createdAt: meta.createdAt,
      expiresAt: meta.expiresAt,
      pendingCount: pending,
      availableCount: status === "Assignable" ? available : 0,
      completedCount: completed,
      requesterAnnotation: study.internal_name ?? undefined,
    };
  }

  private async studyMeta(study: Study) {
    const hitId = study.internal_name?.startsWith("accord:") ? study.internal_name.slice("accord:".length) : null;
    const intent = hitId ? ((await this.o.store.get(S.study, hitId)) as { expiresAt: string } | null) : null;
    const created = typeof study.date_created === "string" ? new Date(study.date_created) : new Date(0);
    return {
      createdAt: created,
      expiresAt: intent ? new Date(intent.expiresAt) : new Date(8.64e15),
      disposed: (await this.o.store.get(S.disposed, study.id)) !== null,
    };
  }

  async *listSubmittedAssignments({ providerHitId, statuses }: ListSubmittedAssignmentsInput): AsyncIterable<CrowdAssignment> {
    const wanted = new Set(statuses ?? ["Submitted", "Approved", "Rejected"]);
    for (const s of await this.client.listSubmissions(providerHitId)) {
      const status = DECIDED[s.status];
      if (!status || !wanted.has(status)) continue;
      yield await this.toAssignment(providerHitId, s, status);
    }
  }

  private async toAssignment(studyId: string, s: SubmissionListItem, status: CrowdAssignment["status"]): Promise<CrowdAssignment> {
    const answer = (await this.o.store.get(S.answer, s.id)) as { answerXml: string } | null;
    const completedAt = s.completed_at ? new Date(s.completed_at) : undefined;
    return {
      assignmentId: s.id,
      workerId: s.participant_id,
      providerHitId: studyId,
      status,
      acceptedAt: s.started_at ? new Date(s.started_at) : undefined,
      submittedAt: completedAt,
      autoApprovalAt: completedAt ? new Date(completedAt.getTime() + AUTO_APPROVE_MS) : undefined,
      // A participant who came back without posting answers on Accord's page has none (graded as such).
      answerXml: answer?.answerXml ?? "",
    };
  }

  /** Only a submission awaiting review can be decided; the same decision again is a no-op (Prolific's transitions are idempotent). */
  private async decidable(submissionId: string, target: "APPROVED" | "REJECTED"): Promise<boolean> {
    const sub = await this.client.getSubmission(submissionId).catch((err: unknown) => {
      if (isCrowdError(err, "not_found")) throw new CrowdError(`Submission ${submissionId} does not exist on Prolific.`, "not_found");
      throw err;
    });
    if (sub.status === target) return false;
    if (sub.status !== "AWAITING REVIEW") throw new CrowdError(`Submission ${submissionId} is ${sub.status} on Prolific and cannot become ${target}.`, "invalid_assignment_state");
    return true;
  }

  async approveAssignment({ assignmentId }: { assignmentId: string; feedback?: string; overrideRejection?: boolean }): Promise<void> {
    if (await this.decidable(assignmentId, "APPROVED")) await this.client.approveSubmission(assignmentId);
  }

  /** Rejected as FAILED_CHECK (the gold tweets are the attention checks) with a message of ≥ 100 characters. */
  async rejectAssignment({ assignmentId, feedback }: { assignmentId: string; feedback: string }): Promise<void> {
    if (await this.decidable(assignmentId, "REJECTED")) await this.client.rejectSubmission(assignmentId, "FAILED_CHECK", rejectionMessage(feedback));
  }

  /** Places only grow: the target (current + count) is recorded under the token first, so a retry adds nothing twice. */
  async addAssignments({ providerHitId, count, uniqueToken }: { providerHitId: string; count: number; uniqueToken: string }): Promise<{ duplicate: boolean }> {
    if (!Number.isSafeInteger(count) || count < 1) throw new CrowdError("Add at least one place.", "invalid_parameter");
    let study = await this.client.getStudy(providerHitId);
    const key = `${providerHitId}|${uniqueToken}`;
    const fresh = await this.o.store.insert(S.places, key, { places: study.total_available_places + count });
    const { places } = (await this.o.store.get(S.places, key)) as { places: number };
    if (study.total_available_places < places) study = await this.client.updateStudy(providerHitId, { total_available_places: places });
    // A study that was waiting for review, paused or completed takes participants again once started.
    if (study.status === "AWAITING REVIEW" || study.status === "PAUSED") await this.client.transitionStudy(providerHitId, "START");
    return { duplicate: !fresh };
  }

  async expireHit({ providerHitId }: { providerHitId: string }): Promise<void> {
    const study = await this.client.getStudy(providerHitId);
    await this.setExpiry(study, this.now());
    if (study.status === "ACTIVE" || study.status === "PAUSED") await this.client.transitionStudy(providerHitId, "PAUSE").catch(() => undefined);
  }

  async extendHit({ providerHitId, expiresAt }: { providerHitId: string; expiresAt: Date }): Promise<void> {
    const study = await this.client.getStudy(providerHitId);
    await this.setExpiry(study, expiresAt);
    if (expiresAt.getTime() > this.now().getTime() && study.status === "PAUSED") await this.client.transitionStudy(providerHitId, "START");
  }

  private async setExpiry(study: Study, expiresAt: Date): Promise<void> {
    const hitId = study.internal_name?.startsWith("accord:") ? study.internal_name.slice("accord:".length) : null;
    if (!hitId) throw new CrowdError(`Study ${study.id} was not published by Accord.`, "invalid_parameter");
    const intent = (await this.o.store.get(S.study, hitId)) ?? { internalName: study.internal_name };
    await this.o.store.put(S.study, hitId, { ...intent, expiresAt: expiresAt.toISOString() });
  }

  /** Prolific keeps studies; Accord stops it and marks it disposed once every submission is decided. */
  async deleteHit({ providerHitId }: { providerHitId: string }): Promise<void> {
    const subs = await this.client.listSubmissions(providerHitId);
    if (subs.some((s) => OPEN.has(s.status) || s.status === "AWAITING REVIEW")) {
      throw new CrowdError(`Study ${providerHitId} still has submissions in progress or awaiting review.`, "invalid_hit_state");
    }
    const study = await this.client.getStudy(providerHitId);
    if (study.status !== "COMPLETED" && study.status !== "UNPUBLISHED") await this.client.transitionStudy(providerHitId, "STOP");
    await this.o.store.put(S.disposed, providerHitId, { at: this.now().toISOString() });
  }

  async getBalance(): Promise<Balance> {
    const b = await this.client.getBalance(this.o.workspaceId);
    return { availableCents: Math.round(b.available_balance), onHoldCents: Math.round(b.total_balance - b.available_balance) };
  }

  // ───────── workers ─────────

  /** The workspace's block-list group, created once (its id is recorded before anything else uses it). */
  private async blockGroupId(): Promise<string> {
    const known = (await this.o.store.get(S.group, "blocklist")) as { groupId: string } | null;
    if (known) return known.groupId;
    const group = await this.client.createParticipantGroup(this.o.workspaceId, "Accord block list", "Participants Accord blocked from its studies.");
    if (!(await this.o.store.insert(S.group, "blocklist", { groupId: group.id }))) return ((await this.o.store.get(S.group, "blocklist")) as { groupId: string }).groupId;
    return group.id;
  }

  private async blockFilter() {
    return [{ filter_id: "participant_group_blocklist", selected_values: [await this.blockGroupId()] }];
  }

  async blockWorker({ workerId }: { workerId: string; reason: string }): Promise<void> {
    await this.client.addToParticipantGroup(await this.blockGroupId(), [workerId]);
  }

  async unblockWorker({ workerId }: { workerId: string; reason?: string }): Promise<void> {
    await this.client.removeFromParticipantGroup(await this.blockGroupId(), [workerId]);
  }

  /** Prolific messages go one participant at a time, about a study: the one the participant last worked on. */
  async notifyWorkers({ workerIds, subject, message }: { workerIds: string[]; subject: string; message: string }): Promise<NotifyWorkersResult> {
    const failures: NotifyWorkersResult["failures"] = [];
    for (const workerId of workerIds) {
      const studyId = await this.studyOfParticipant(workerId);
      if (!studyId) {
        failures.push({ workerId, kind: "hard", message: "This participant has taken part in none of Accord's studies." });
        continue;
      }
      try {
        await this.client.sendMessage(workerId, studyId, `${subject}\n\n${message}`);
      } catch (err) {
        failures.push({ workerId, kind: "soft", message: err instanceof Error ? err.message : String(err) });
      }
    }
    return { failures };
  }

  private async studyOfParticipant(participantId: string): Promise<string | null> {
    for (const study of await this.client.listProjectStudies(this.o.projectId)) {
      if ((await this.client.listSubmissions(study.id)).some((s) => s.participant_id === participantId)) return study.id;
    }
    return null;
  }

  /**
   * The two-step bonus: set up (Prolific reports amount, fees and VAT), record the set-up id under the token, pay.
   * A retry with the token pays a set-up that was not paid yet, and does nothing after it was.
   */
  async sendBonus({ workerId, assignmentId, amountCents, uniqueToken }: { workerId: string; assignmentId: string; amountCents: number; reason: string; uniqueToken: string }): Promise<{ duplicate: boolean; feeCents?: number }> {
    if (!Number.isSafeInteger(amountCents) || amountCents < 1) throw new CrowdError("A bonus must be at least one minor unit.", "invalid_parameter");
    const known = (await this.o.store.get(S.bonus, uniqueToken)) as { bulkId: string; fees: number; paid: boolean } | null;
    if (known?.paid) return { duplicate: true, feeCents: known.fees };
    let record = known;
    if (!record) {
      const sub = await this.client.getSubmission(assignmentId);
      if (sub.participant !== workerId) throw new CrowdError(`Submission ${assignmentId} is not participant ${workerId}'s.`, "not_found");
      const studyId = sub.study_id ?? (await this.studyOfParticipant(workerId));
      if (!studyId) throw new CrowdError(`Submission ${assignmentId} belongs to no study Accord knows.`, "not_found");
      const setUp = await this.client.setUpBonuses(studyId, [{ id: workerId, cents: amountCents }]);
      record = { bulkId: setUp.id, fees: Math.round(setUp.total_amount - setUp.amount), paid: false };
      await this.o.store.put(S.bonus, uniqueToken, record);
    }
    try {
      await this.client.payBonuses(record.bulkId);
    } catch (err) {
      // Paid earlier, its answer lost: Prolific refuses to pay the same set-up twice.
      if (!(known && isCrowdError(err, "invalid_parameter") && /already been paid/i.test(err.message))) throw err;
    }
    await this.o.store.put(S.bonus, uniqueToken, { ...record, paid: true });
    return { duplicate: known !== null, feeCents: record.fees };
  }
}
