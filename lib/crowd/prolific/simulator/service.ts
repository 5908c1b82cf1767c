import type { SimClock } from "@/lib/crowd/simulator/clock";
import { MIN_REJECTION_MESSAGE_LENGTH, REJECTION_CATEGORIES, type StudyStatus, type SubmissionStatus } from "../api-types";
import { parseBonusAmount } from "../bonus-csv";
import { simFee, simStudyCost, simVat, SIM_MIN_REWARD_PER_HOUR } from "./money";
import { badRequest, notFound } from "./sim-error";
import { nextId, type ProlificSimState, type SimDecision, type SimStudy, type SimSubmission } from "./state";
import { type CostKind } from "@/lib/db/enums";
import { demographics, type EventType } from "./catalogue";
import { projectWorkspace, timeTaken } from "./views";

/** Prolific approves what is still awaiting review 21 days after completion. */
export const AUTO_APPROVE_MS = 21 * 24 * 3600 * 1000;
/** Statuses that hold a place (a return, a time-out or a rejection frees it). */
const HOLDS_PLACE: ReadonlySet<SubmissionStatus> = new Set(["RESERVED", "ACTIVE", "AWAITING REVIEW", "APPROVED", "PARTIALLY APPROVED", "PROCESSING", "SCREENED OUT"]);
const OPEN: ReadonlySet<SubmissionStatus> = new Set(["RESERVED", "ACTIVE"]);

/** An event to announce; `workspace_id` is the workspace whose subscriptions hear it. */
export type SimEvent = { event_type: EventType; resource_id: string; workspace_id: string; status?: string; participant_id?: string };

/** study.has_high_return_rate: Prolific names no threshold ([?]); the simulator announces it once per study, when at least this many submissions exist and this share of them was returned. */
export const HIGH_RETURN_RATE = { minSubmissions: 5, share: 0.3 };
/** auto_rejection_categories EXCEPTIONALLY_FAST: 3 standard deviations below the mean time, once this many other completions give the figure a meaning (the simulator's choice). */
/** `completion_code_data.percentage_of_reward` of a DYNAMIC_PAYMENT code ([1] the CLI). */
export const DYNAMIC_PAYMENT_RANGE = { min: 8, max: 99 };
export const EXCEPTIONALLY_FAST = { minCompletions: 10, sd: 3 };

/**
 * The state rules of the local Prolific simulator: studies, places, submissions, money, participant groups.
 * Every change that Prolific would announce by webhook is reported through `onEvent`; `onChange` saves the state.
 */
export class ProlificSimService {
  constructor(
    readonly state: ProlificSimState,
    readonly clock: SimClock,
    private readonly hooks: { onEvent?: (e: SimEvent) => void; onChange?: () => void } = {},
  ) {}

  nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  study(id: string): SimStudy {
    const study = this.state.studies[id];
    if (!study) throw notFound("Study");
    return study;
  }

  submission(id: string): SimSubmission {
    const sub = this.state.submissions[id];
    if (!sub) throw notFound("Submission");
    return sub;
  }

  submissionsOf(studyId: string): SimSubmission[] {
    return Object.values(this.state.submissions).filter((s) => s.study_id === studyId);
  }

  placesTaken(study: SimStudy): number {
    return this.submissionsOf(study.id).filter((s) => HOLDS_PLACE.has(s.status)).length;
  }

  availableBalance(): number {
    return this.state.workspace.balance - Object.values(this.state.studies).reduce((sum, s) => sum + s.reserved, 0);
  }

  /** What one place costs the wallet: reward, fee and VAT. */
  placeCost(study: SimStudy): number {
    return simStudyCost(study.reward, 1);
  }

  publish(study: SimStudy): void {
    if (study.status !== "UNPUBLISHED") throw badRequest(`A study in status ${study.status} cannot be published.`);
    const minimum = SIM_MIN_REWARD_PER_HOUR[this.state.workspace.currency_code] ?? 0;
    const perHour = Math.floor((study.reward * 60) / study.estimated_completion_time);
    if (perHour < minimum) throw badRequest({ reward: [`The reward per hour (${perHour}) is below the minimum of ${minimum} ${this.state.workspace.currency_code} minor units per hour.`] });
    const cost = simStudyCost(study.reward, study.total_available_places);
    // A workspace created through the API has an empty wallet of its own.
    if (projectWorkspace(this.state, study.project) !== this.state.workspace.id) throw badRequest(`Insufficient balance: publishing needs ${cost} and the study's workspace has 0 available.`);
    if (cost > this.availableBalance()) throw badRequest(`Insufficient balance: publishing needs ${cost} and the workspace has ${this.availableBalance()} available.`);
    study.reserved = cost;
    // With publish_at in the future the study waits as SCHEDULED; tick() opens it.
    if (study.publish_at && Date.parse(study.publish_at) > this.clock.now()) return this.setStudyStatus(study, "SCHEDULED");
    study.published_at = this.nowIso();
    this.setStudyStatus(study, "ACTIVE");
  }

  /** PATCH on a published study: internal_name, places (only up) and submissions_config ([2+] CLI). */
  updatePublished(study: SimStudy, patch: Record<string, unknown>): void {
    const allowed = new Set(["internal_name", "total_available_places", "submissions_config"]);
    const frozen = Object.keys(patch).filter((k) => !allowed.has(k));
    if (frozen.length) throw badRequest({ [frozen[0]!]: ["This field cannot be changed after the study is published."] });
    if (typeof patch.internal_name === "string") study.internal_name = patch.internal_name;
    if (patch.submissions_config && typeof patch.submissions_config === "object") study.submissions_config = patch.submissions_config as Record<string, unknown>;
    if (patch.total_available_places !== undefined) {
      const places = patch.total_available_places;
      if (!Number.isSafeInteger(places) || (places as number) < study.total_available_places) {
        throw badRequest({ total_available_places: [`Places can only be increased (now ${study.total_available_places}).`] });
      }
      const extra = ((places as number) - study.total_available_places) * this.placeCost(study);
      if (extra > this.availableBalance()) throw badRequest(`Insufficient balance: ${extra} more is needed and the workspace has ${this.availableBalance()} available.`);
      study.reserved += extra;
      study.total_available_places = places as number;
      // [?] Mephisto: a study waiting for review or completed takes places again (it is then started with START).
      if (study.status === "COMPLETED") this.setStudyStatus(study, "AWAITING REVIEW");
    }
    this.changed();
  }

  transitionStudy(study: SimStudy, action: string): void {
    if (action === "PUBLISH") return this.publish(study);
    if (action === "PAUSE" && study.status === "ACTIVE") return this.setStudyStatus(study, "PAUSED");
    if (action === "START" && (study.status === "PAUSED" || study.status === "AWAITING REVIEW")) return this.setStudyStatus(study, "ACTIVE");
    if (action === "STOP" && (study.status === "ACTIVE" || study.status === "PAUSED" || study.status === "AWAITING REVIEW" || study.status === "SCHEDULED")) {
      const open = this.submissionsOf(study.id).filter((s) => OPEN.has(s.status) || s.status === "AWAITING REVIEW");
      this.releaseUnfilled(study);
      return this.setStudyStatus(study, open.length ? "AWAITING REVIEW" : "COMPLETED");
    }
    throw badRequest(`The action ${action} is not allowed for a study in status ${study.status}.`);
  }

  /** Filters AND together, the values inside one filter OR ([1] the CLI's examples). */
  isEligible(participantId: string, filters: SimStudy["filters"]): boolean {
    return filters.every(({ filter_id, selected_values = [], selected_range }) => {
      const inGroup = () => selected_values.some((g) => this.state.groups[g]?.members[participantId] !== undefined);
      if (filter_id === "participant_group_allowlist") return inGroup();
      if (filter_id === "participant_group_blocklist") return !inGroup();
      if (filter_id === "custom_allowlist") return selected_values.includes(participantId);
      if (filter_id === "custom_blocklist") return !selected_values.includes(participantId);
      if (filter_id === "previous_studies_blocklist") return !Object.values(this.state.submissions).some((s) => s.participant_id === participantId && selected_values.includes(s.study_id));
      const person = demographics(participantId);
      if (filter_id === "age") return person.age >= (selected_range?.lower ?? -Infinity) && person.age <= (selected_range?.upper ?? Infinity);
      if (filter_id === "handedness") return selected_values.includes(person.handedness);
      return true;
    });
  }

  /** Eligible by the filters, and for a test study only the workspace's test participant. */
  canTake(participantId: string, study: SimStudy): boolean {
    if (study.test_of && this.state.testParticipants?.participant?.id !== participantId) return false;
    return this.isEligible(participantId, study.filters);
  }

  eligibleCount(filters: SimStudy["filters"]): number {
    return this.state.participants.filter((p) => this.isEligible(p, filters)).length;
  }

  /** A participant takes a place: ACTIVE at once (RESERVED → ACTIVE is not simulated). */
  startSubmission(participantId: string, studyId: string): SimSubmission {
    const study = this.study(studyId);
    if (study.status !== "ACTIVE") throw badRequest(`The study is ${study.status}, not taking participants.`);
    if (!this.canTake(participantId, study)) throw badRequest("This participant is not eligible for the study.");
    if (this.placesTaken(study) >= study.total_available_places) throw badRequest("The study has no free place.");
    const previous = this.submissionsOf(studyId).filter((s) => s.participant_id === participantId && s.status !== "RETURNED");
    const max = Number((study.submissions_config.max_submissions_per_participant as number | undefined) ?? 1);
    if (max !== -1 && previous.length >= max) throw badRequest("This participant has already taken part in the study.");
    // submissions_config.max_concurrent_submissions ([2+]): -1 unlimited, else how many may be open at once.
    const concurrent = Number((study.submissions_config.max_concurrent_submissions as number | undefined) ?? -1);
    if (concurrent !== -1 && previous.filter((s) => OPEN.has(s.status)).length >= concurrent) throw badRequest("This participant already has as many submissions open in the study as it allows.");
    if (!this.state.participants.includes(participantId)) this.state.participants.push(participantId);
    const now = this.clock.now();
    const sub: SimSubmission = {
      id: nextId(this.state),
      study_id: studyId,
      participant_id: participantId,
      status: "ACTIVE",
      started_at: new Date(now).toISOString(),
      completed_at: null,
      study_code: null,
      reward: study.reward,
      bonus_payments: [],
      dueAt: now + study.maximum_allowed_time * 60_000,
    };
    this.state.submissions[sub.id] = sub;
    this.emitSubmission(sub);
    this.changed();
    return sub;
  }

  /** The participant comes back through Prolific's completion URL with `code` (or none: "NOCODE"). */
  completeSubmission(submissionId: string, code: string | null, percentageOfReward?: number): SimSubmission {
    const sub = this.submission(submissionId);
    if (sub.status !== "ACTIVE" && sub.status !== "RESERVED") throw badRequest(`A submission in status ${sub.status} cannot be completed.`);
    const study = this.study(sub.study_id);
    const now = this.clock.now();
    sub.completed_at = new Date(now).toISOString();
    sub.study_code = code ?? "NOCODE";
    const match = study.completion_codes.find((c) => c.code === code);
    const actions = match?.actions ?? [];
    for (const a of actions) {
      const group = a.participant_group ? this.state.groups[a.participant_group] : undefined;
      if (group && a.action === "ADD_TO_PARTICIPANT_GROUP") group.members[sub.participant_id] ??= new Date(now).toISOString();
      if (group && a.action === "REMOVE_FROM_PARTICIPANT_GROUP") delete group.members[sub.participant_id];
    }
    const returnAsked = actions.find((a) => a.action === "REQUEST_RETURN");
    if (returnAsked) {
      sub.return_requested = new Date(now).toISOString();
      sub.return_reasons = typeof returnAsked.return_reason === "string" ? [returnAsked.return_reason] : [];
    }
    if (this.exceptionallyFast(study, sub)) this.setSubmissionStatus(sub, "REJECTED", null);
    else if (percentageOfReward !== undefined && actions.some((a) => a.action === "DYNAMIC_PAYMENT")) {
      // A dynamic payment pays the given share of the reward at once.
      sub.reward = Math.round((sub.reward * percentageOfReward) / 100);
      this.approve(sub, "PARTIALLY APPROVED");
    } else if (actions.some((a) => a.action === "AUTOMATICALLY_APPROVE")) this.approve(sub);
    else this.setSubmissionStatus(sub, "AWAITING REVIEW", now + AUTO_APPROVE_MS);
    this.settleStudy(study);
    return sub;
  }

  /** With `auto_rejection_categories: ["EXCEPTIONALLY_FAST"]`: far faster than the study's other completions. */
  private exceptionallyFast(study: SimStudy, sub: SimSubmission): boolean {
    const categories = study.submissions_config.auto_rejection_categories;
    if (!Array.isArray(categories) || !categories.includes("EXCEPTIONALLY_FAST")) return false;
    const others = this.submissionsOf(study.id).filter((s) => s.id !== sub.id && s.completed_at !== null && s.status !== "REJECTED").map((s) => timeTaken(s)!);
    if (others.length < EXCEPTIONALLY_FAST.minCompletions) return false;
    const mean = others.reduce((a, b) => a + b, 0) / others.length;
    const sd = Math.sqrt(others.reduce((a, b) => a + (b - mean) ** 2, 0) / others.length);
    return timeTaken(sub)! < mean - EXCEPTIONALLY_FAST.sd * sd;
  }

  returnSubmission(submissionId: string): SimSubmission {
    const sub = this.submission(submissionId);
    if (!OPEN.has(sub.status) && sub.status !== "AWAITING REVIEW") throw badRequest(`A submission in status ${sub.status} cannot be returned.`);
    this.setSubmissionStatus(sub, "RETURNED", null);
    this.afterPlaceFreed(this.study(sub.study_id));
    return sub;
  }

  /** The researcher asks the participant to return the submission; the participant decides (simulated ones comply). */
  requestReturn(sub: SimSubmission, reasons: string[]): SimSubmission {
    if (!OPEN.has(sub.status) && sub.status !== "AWAITING REVIEW") throw badRequest(`A submission in status ${sub.status} cannot be asked to return.`);
    sub.return_requested = this.nowIso();
    sub.return_reasons = reasons;
    this.changed();
    return sub;
  }

  /** APPROVE / REJECT / COMPLETE (with a researcher-actor code); repeating the same action is ignored (Prolific documents the call as idempotent). */
  transitionSubmission(sub: SimSubmission, body: { action?: unknown; rejection_category?: unknown; message?: unknown; completion_code?: unknown; completion_code_data?: unknown }): SimSubmission {
    if (body.action === "COMPLETE") {
      const study = this.study(sub.study_id);
      const code = study.completion_codes.find((c) => c.code === body.completion_code);
      if (!code || code.actor !== "researcher") throw badRequest({ completion_code: ["Must be one of the study's completion codes whose actor is researcher."] });
      let percentage: number | undefined;
      if (code.actions.some((a) => a.action === "DYNAMIC_PAYMENT")) {
        percentage = (body.completion_code_data as { percentage_of_reward?: unknown } | undefined)?.percentage_of_reward as number | undefined;
        // [1] the CLI: 8–99 per cent of the reward.
        if (!Number.isInteger(percentage) || percentage! < DYNAMIC_PAYMENT_RANGE.min || percentage! > DYNAMIC_PAYMENT_RANGE.max) {
          throw badRequest({ "completion_code_data.percentage_of_reward": [`A DYNAMIC_PAYMENT code needs a whole percentage from ${DYNAMIC_PAYMENT_RANGE.min} to ${DYNAMIC_PAYMENT_RANGE.max}.`] });
        }
      }
      return this.completeSubmission(sub.id, code.code, percentage);
    }
    if (body.action === "APPROVE") {
      if (sub.status === "APPROVED") return this.logDecision(sub, "APPROVE", "repeat");
      if (sub.status !== "AWAITING REVIEW") {
        this.logDecision(sub, "APPROVE", "refused");
        throw badRequest(`A submission in status ${sub.status} cannot be approved.`);
      }
      this.logDecision(sub, "APPROVE", "applied");
      this.approve(sub);
      this.settleStudy(this.study(sub.study_id));
      return sub;
    }
    if (body.action === "REJECT") {
      if (sub.status === "REJECTED") return this.logDecision(sub, "REJECT", "repeat");
      if (sub.status !== "AWAITING REVIEW") {
        this.logDecision(sub, "REJECT", "refused");
        throw badRequest(`A submission in status ${sub.status} cannot be rejected.`);
      }
      if (!REJECTION_CATEGORIES.includes(body.rejection_category as (typeof REJECTION_CATEGORIES)[number])) throw badRequest({ rejection_category: [`Must be one of ${REJECTION_CATEGORIES.join(", ")}.`] });
      if (typeof body.message !== "string" || body.message.length < MIN_REJECTION_MESSAGE_LENGTH) throw badRequest({ message: [`Ensure this field has at least ${MIN_REJECTION_MESSAGE_LENGTH} characters.`] });
      this.logDecision(sub, "REJECT", "applied");
      this.setSubmissionStatus(sub, "REJECTED", null);
      const study = this.study(sub.study_id);
      // A rejection in a study waiting for review pauses it; in an active study the place reopens.
      if (study.status === "AWAITING REVIEW") this.setStudyStatus(study, "PAUSED");
      this.settleStudy(study);
      return sub;
    }
    throw badRequest({ action: ["Must be APPROVE, REJECT or COMPLETE."] });
  }

  /**
   * Paid screen-out of ACTIVE submissions ([1] Potato, feature-gated on Prolific): each becomes SCREENED OUT and keeps
   * its place; it is paid the `fixed_screen_out_reward` of the study's FIXED_SCREEN_OUT_PAYMENT action ([1]), else
   * nothing; `increase_places` adds as many places as were screened out.
   */
  screenOut(study: SimStudy, submissionIds: string[], increasePlaces: boolean): SimSubmission[] {
    const subs = submissionIds.map((id) => this.state.submissions[id]);
    const bad = submissionIds.filter((id, i) => subs[i]?.study_id !== study.id || subs[i]?.status !== "ACTIVE");
    if (bad.length) throw badRequest({ submission_ids: [`Not ACTIVE submissions of this study: ${bad.join(", ")}`] });
    if (increasePlaces) this.updatePublished(study, { total_available_places: study.total_available_places + subs.length });
    const action = study.completion_codes.flatMap((c) => c.actions).find((a) => a.action === "FIXED_SCREEN_OUT_PAYMENT");
    const pay = Number((action as { fixed_screen_out_reward?: unknown } | undefined)?.fixed_screen_out_reward ?? 0) || 0;
    const now = this.nowIso();
    for (const sub of subs as SimSubmission[]) {
      sub.completed_at = now;
      sub.reward = pay;
      const fee = simFee(pay);
      this.debit("reward", pay, study.id, sub.id);
      this.debit("fee", fee + simVat(fee), study.id, sub.id);
      study.reserved = Math.max(0, study.reserved - this.placeCost(study));
      this.setSubmissionStatus(sub, "SCREENED OUT", null);
    }
    this.settleStudy(study);
    return subs as SimSubmission[];
  }

  /** Keeps the researcher's decision request in `state.decisions` (the reliability tests count them per submission). */
  private logDecision(sub: SimSubmission, action: SimDecision["action"], outcome: SimDecision["outcome"]): SimSubmission {
    (this.state.decisions ??= []).push({ at: this.nowIso(), submission_id: sub.id, action, outcome });
    this.changed();
    return sub;
  }

  setUpBonus(studyId: string, csv: unknown) {
    const study = this.study(studyId);
    if (typeof csv !== "string" || !csv.trim()) throw badRequest({ csv_bonuses: ["This field is required."] });
    const subs = this.submissionsOf(study.id);
    const lines: Array<{ id: string; cents: number }> = [];
    const bad: string[] = [];
    for (const row of csv.split(/\r?\n/).filter((r) => r.trim())) {
      const [id = "", amount = ""] = row.split(",").map((x) => x.trim());
      const cents = parseBonusAmount(amount);
      if (!subs.some((s) => s.participant_id === id || s.id === id) || cents === null || cents <= 0) bad.push(id || row);
      else lines.push({ id, cents });
    }
    if (bad.length) throw badRequest({ csv_bonuses: [`Invalid participant or submission ids or amounts: ${bad.join(", ")}`] });
    const amount = lines.reduce((s, l) => s + l.cents, 0);
    const fees = simFee(amount);
    const vat = simVat(fees);
    const record = { id: nextId(this.state), study: study.id, lines, amount, fees, vat, total_amount: amount + fees + vat, paid: false };
    this.state.bulkBonuses[record.id] = record;
    this.changed();
    return record;
  }

  payBonus(bulkId: string): void {
    const record = this.state.bulkBonuses[bulkId];
    if (!record) throw notFound("Bulk bonus payment");
    if (record.paid) throw badRequest("These bonuses have already been paid.");
    if (record.total_amount > this.availableBalance()) throw badRequest(`Insufficient balance: the bonuses need ${record.total_amount}.`);
    record.paid = true;
    for (const line of record.lines) {
      const sub = this.submissionsOf(record.study).find((s) => s.id === line.id || s.participant_id === line.id);
      sub?.bonus_payments.push(line.cents);
    }
    this.debit("bonus", record.amount, record.study, record.id);
    this.debit("bonus_fee", record.fees + record.vat, record.study, record.id);
    this.changed();
  }

  /** Scheduled studies opening, time-outs and the 21-day auto-approval, as the clock reaches them. */
  tick(): void {
    const now = this.clock.now();
    for (const study of Object.values(this.state.studies)) {
      if (study.status !== "SCHEDULED" || !study.publish_at || Date.parse(study.publish_at) > now) continue;
      study.published_at = new Date(Date.parse(study.publish_at)).toISOString();
      this.setStudyStatus(study, "ACTIVE");
    }
    for (const sub of Object.values(this.state.submissions)) {
      if (sub.dueAt === null || sub.dueAt > now) continue;
      const study = this.study(sub.study_id);
      if (sub.status === "ACTIVE" || sub.status === "RESERVED") {
        this.setSubmissionStatus(sub, "TIMED-OUT", null);
        this.afterPlaceFreed(study);
      } else if (sub.status === "AWAITING REVIEW") {
        this.approve(sub);
        this.settleStudy(study);
      }
    }
  }

  private approve(sub: SimSubmission, status: "APPROVED" | "PARTIALLY APPROVED" = "APPROVED"): void {
    const study = this.study(sub.study_id);
    const fee = simFee(sub.reward);
    this.debit("reward", sub.reward, study.id, sub.id);
    this.debit("fee", fee + simVat(fee), study.id, sub.id);
    study.reserved = Math.max(0, study.reserved - this.placeCost(study));
    this.setSubmissionStatus(sub, status, null);
  }

  private debit(kind: CostKind, amount: number, studyId: string, ref: string): void {
    if (amount === 0) return;
    this.state.workspace.balance -= amount;
    this.state.debits.push({ at: this.nowIso(), kind, amount, study_id: studyId, ref });
  }

  /** A full study with nothing open waits for review; with nothing to review it completes. */
  private settleStudy(study: SimStudy): void {
    const subs = this.submissionsOf(study.id);
    const open = subs.some((s) => OPEN.has(s.status));
    const awaiting = subs.some((s) => s.status === "AWAITING REVIEW");
    const full = this.placesTaken(study) >= study.total_available_places;
    if (study.status === "ACTIVE" && full && !open) this.setStudyStatus(study, awaiting ? "AWAITING REVIEW" : "COMPLETED");
    else if (study.status === "AWAITING REVIEW" && full && !open && !awaiting) this.setStudyStatus(study, "COMPLETED");
    if (study.status === "COMPLETED") this.releaseUnfilled(study);
    this.changed();
  }

  private afterPlaceFreed(study: SimStudy): void {
    if (study.status === "AWAITING REVIEW") this.setStudyStatus(study, "PAUSED");
    this.changed();
  }

  /** Unused reservations return to the wallet when a study stops taking places. */
  private releaseUnfilled(study: SimStudy): void {
    const unpaid = this.submissionsOf(study.id).filter((s) => OPEN.has(s.status) || s.status === "AWAITING REVIEW").length;
    study.reserved = Math.min(study.reserved, unpaid * this.placeCost(study));
  }

  private setStudyStatus(study: SimStudy, status: StudyStatus): void {
    if (study.status === status) return;
    study.status = status;
    this.hooks.onEvent?.({ event_type: "study.status.change", resource_id: study.id, workspace_id: projectWorkspace(this.state, study.project), status });
    this.changed();
  }

  private setSubmissionStatus(sub: SimSubmission, status: SubmissionStatus, dueAt: number | null): void {
    sub.status = status;
    sub.dueAt = dueAt;
    this.emitSubmission(sub);
  }

  /** A submission's new status, its study's progress, and (once) a high return rate. */
  private emitSubmission(sub: SimSubmission): void {
    const study = this.state.studies[sub.study_id];
    const workspace_id = study ? projectWorkspace(this.state, study.project) : this.state.workspace.id;
    this.hooks.onEvent?.({ event_type: "submission.status.change", resource_id: sub.id, workspace_id, status: sub.status, participant_id: sub.participant_id });
    this.hooks.onEvent?.({ event_type: "study.progress.change", resource_id: sub.study_id, workspace_id });
    const subs = this.submissionsOf(sub.study_id);
    const returned = subs.filter((s) => s.status === "RETURNED").length;
    if (study && !study.high_return_rate_sent && subs.length >= HIGH_RETURN_RATE.minSubmissions && returned / subs.length >= HIGH_RETURN_RATE.share) {
      study.high_return_rate_sent = true;
      this.hooks.onEvent?.({ event_type: "study.has_high_return_rate", resource_id: study.id, workspace_id });
    }
  }

  changed(): void {
    this.hooks.onChange?.();
  }
}
