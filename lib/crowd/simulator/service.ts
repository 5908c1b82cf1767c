import { XMLValidator } from "fast-xml-parser";
import { createRng, randomInt, seedFrom } from "@/lib/util/random";
import { type HitCounts, hitCounts, type HitState, hitState } from "../hit-state";
import { buildQuestionFormAnswers, type QuestionFormAnswer } from "../mturk/answers";
import { bestAnswers, gradeAnswerKey, parseAnswerKey, type AnswerKey } from "../mturk/answer-key";
import { assignmentFeeCents, bonusFeeCents, formatCentsAsDollars, parseDollarsToCents } from "../mturk/fees";
import { parseQuestionForm, questionRootName, type QuestionFormQuestion } from "../mturk/question-form";
import { MTURK_MAX_XML_BYTES, utf8ByteLength } from "../mturk/xml-text";
import { type SimClock, workedAcceptWire } from "./clock";
import { parameterValidationError, plainRequestError, requestError, SimError } from "./errors";
import { EventHeap } from "./heap";
import { htmlOfHtmlQuestion, parseHitForm, type ParsedHitForm } from "./html-form";
import { meetsRequirement, SYSTEM_QUALIFICATION_NAMES, systemQualValue, type QualValue, type WireRequirement } from "./requirements";
import { EXTRA_OPERATIONS } from "./ops";
import { checkReviewPolicies, recordReviewPolicies } from "./ops-review";
import { watchChanges } from "./ops-watch";
import { canRequestQualification, qualificationNameReserved, simulateQualificationRequest, uploadAnswerFile } from "./ops-qualifications";
import { checkQualificationTest } from "./qualification-rules";
import { parseOperationInput, parseWireInput, type OperationInput, type OperationName } from "./schemas";
import type { SimReviewPolicy } from "./ops-state";
import type { SimAssignment, SimEvent, SimHit, SimQualificationType, SimStateData } from "./state";
import { truthAmong, type TruthOracle } from "./truth";
import { chooseAnswer, decisionRng, WORKER_PROFILES, workSeconds, type SimWorker } from "./workers";
import { llmSimulatorLabel } from "./workers-llm-echo";
import { COST_KIND, PROVIDER_ASSIGNMENT_STATUS } from "@/lib/db/enums";

const TOKEN_TTL_MS = 24 * 3600 * 1000;
const OVERRIDE_WINDOW_MS = 30 * 24 * 3600 * 1000;
const MAX_EXTENSION_MS = 365 * 24 * 3600 * 1000;
const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

type Json = Record<string, unknown>;

export interface SimulatorServiceOptions {
  state: SimStateData;
  clock: SimClock;
  truth?: TruthOracle;
  /** Sandbox flavour: GetAccountBalance always answers 10000.00 and no money moves. */
  sandbox?: boolean;
  /** When true, operations naming a worker outside the pool answer ParameterValidationError (as the sandbox does for production ids). */
  rejectUnknownWorkers?: boolean;
  /** Called after every state change (persistence). */
  onChange?: () => void;
}


function encodeToken(offset: number, scope: string): string {
  return Buffer.from(JSON.stringify({ o: offset, s: scope })).toString("base64url");
}

/**
 * The MTurk requester service in memory: every operation with MTurk's state rules, plus the simulated workers.
 * Time-dependent changes (deadlines, auto-approval, worker actions) are events processed in time order up to the
 * clock's now before each request and whenever a manual clock advances.
 * The operations Accord does not call live in ops-*.ts and use the non-private helpers below (records, JSON views, paging).
 */
export class MturkSimulatorService {
  readonly state: SimStateData;
  readonly clock: SimClock;
  /** The address clients reach the simulator at (links such as GetFileUploadURL's point there). */
  publicUrl = "http://127.0.0.1";
  private truth?: TruthOracle;
  private readonly sandbox: boolean;
  private readonly rejectUnknownWorkers: boolean;
  private readonly onChange?: () => void;
  private readonly heap: EventHeap<SimEvent>;
  /** The time being processed (event time while replaying events, else the clock's now). */
  private t: number;
  private processing = false;
  private readonly workersById = new Map<string, SimWorker>();
  private readonly doneHits = new Map<string, Set<string>>();
  /** HITs that may have open slots (a superset; pruned lazily). */
  private readonly openHits = new Set<string>();
  private readonly formCache = new Map<string, ParsedHitForm | QuestionFormQuestion[] | null>();
  private readonly testCache = new Map<string, { questions: QuestionFormQuestion[]; key: AnswerKey } | null>();

  constructor(opts: SimulatorServiceOptions) {
    this.state = opts.state;
    this.clock = opts.clock;
    this.truth = opts.truth;
    this.sandbox = opts.sandbox ?? false;
    this.rejectUnknownWorkers = opts.rejectUnknownWorkers ?? false;
    this.onChange = opts.onChange;
    this.heap = new EventHeap(this.state.events.slice());
    this.t = this.clock.now();
    for (const w of this.state.workers) {
      this.workersById.set(w.workerId, w);
      this.doneHits.set(w.workerId, new Set(w.doneHitIds));
    }
    for (const id of this.state.hitOrder) {
      const hit = this.state.hits[id];
      if (!hit.disposed && hit.expiration > this.t) this.openHits.add(id);
    }
  }

  /** The simulated time being processed (epoch ms). */
  get time(): number {
    return this.t;
  }

  setTruth(truth: TruthOracle | undefined): void {
    this.truth = truth;
  }

  // ───────────────────────── time ─────────────────────────

  /** Simulated epoch ms → epoch seconds (JSON number) on the wall clock, as the wire protocol wants. */
  wire(ms: number | undefined): number | undefined {
    return ms === undefined ? undefined : this.clock.toWall(ms) / 1000;
  }

  /** Processes every event due up to the clock's now (idempotent; cheap when nothing is due). */
  advance(): void {
    if (this.processing) return;
    this.processing = true;
    try {
      const now = this.clock.now();
      let changed = false;
      for (let ev = this.heap.peek(); ev && ev.time <= now; ev = this.heap.peek()) {
        this.heap.pop();
        this.t = Math.max(this.t, ev.time);
        this.handleEvent(ev);
        changed = true;
      }
      this.t = Math.max(this.t, now);
      if (changed) this.changed();
    } finally {
      this.processing = false;
    }
  }

  /** Time of the next pending event (epoch ms), if any. */
  nextEventTime(): number | undefined {
    return this.heap.peek()?.time;
  }

  private schedule(ev: Omit<SimEvent, "seq">): void {
    this.heap.push({ ...ev, seq: ++this.state.eventSeq });
  }

  private changed(): void {
    watchChanges(this);
    this.onChange?.();
  }

  /** Copies the pending events into `state.events` (done before persisting; the heap is the live copy). */
  syncEvents(): void {
    this.state.events = this.heap.toArray();
  }

  newId(prefix = "3"): string {
    const rng = createRng(seedFrom(this.state.seed, "id", ++this.state.idCounter));
    let id = prefix;
    while (id.length < 30) id += ID_CHARS[randomInt(rng, ID_CHARS.length)];
    return id;
  }

  // ───────────────────────── dispatch ─────────────────────────

  /** Runs one operation from the wire. Throws SimError for error answers. */
  call(operation: string, body: unknown): Json {
    this.advance();
    const extra = Object.hasOwn(EXTRA_OPERATIONS, operation) ? EXTRA_OPERATIONS[operation] : undefined;
    if (extra) {
      const result = extra.run(this, parseWireInput(extra.schema, body, this.t));
      this.changed();
      return result;
    }
    const handler = Object.hasOwn(this.operations, operation)
      ? (this.operations as Record<string, ((input: never) => Json) | undefined>)[operation]
      : undefined;
    if (!handler) throw new SimError("UnknownOperationException", 400, `Unknown operation ${operation}`);
    const input = parseOperationInput(operation as OperationName, body, this.t);
    const result = handler(input as never);
    this.changed();
    return result;
  }

  private readonly operations: { [Op in OperationName]: (input: OperationInput<Op>) => Json } = {
    CreateHIT: (i) => this.createHit(i),
    CreateHITType: (i) => ({ HITTypeId: this.hitTypeFor(i).HITTypeId }),
    CreateHITWithHITType: (i) => this.createHitWithType(i),
    GetHIT: (i) => ({ HIT: this.hitJson(this.getHitRec(i.HITId)) }),
    ListHITs: (i) => this.listHits(i.NextToken, i.MaxResults, "all", () => true),
    ListReviewableHITs: (i) => {
      const status = i.Status ?? "Reviewable";
      return this.listHits(i.NextToken, i.MaxResults, `rev|${status}|${i.HITTypeId ?? ""}`, (h) => {
        return (!i.HITTypeId || h.HITTypeId === i.HITTypeId) && this.hitStatus(h) === status;
      });
    },
    ListAssignmentsForHIT: (i) => this.listAssignments(i),
    GetAssignment: (i) => {
      const a = this.getAssignmentRec(i.AssignmentId);
      return { Assignment: this.assignmentJson(a), HIT: this.hitJson(this.state.hits[a.HITId]) };
    },
    ApproveAssignment: (i) => {
      this.approve(i.AssignmentId, i.RequesterFeedback, i.OverrideRejection ?? false);
      return {};
    },
    RejectAssignment: (i) => {
      this.reject(i.AssignmentId, i.RequesterFeedback);
      return {};
    },
    CreateAdditionalAssignmentsForHIT: (i) => this.addAssignments(i),
    // ExpireAt comes on the wall clock (see SimClock.toWall); the service works in simulated time.
    UpdateExpirationForHIT: (i) => this.updateExpiration(i.HITId, this.clock.fromWall(i.ExpireAt * 1000) / 1000),
    UpdateHITReviewStatus: (i) => {
      const hit = this.getHitRec(i.HITId);
      const status = this.hitStatus(hit);
      if (i.Revert) {
        if (status !== "Reviewing") throw this.invalidHitState(hit, "Reviewing");
        hit.reviewing = false;
      } else {
        if (status !== "Reviewable") throw this.invalidHitState(hit, "Reviewable");
        hit.reviewing = true;
      }
      return {};
    },
    DeleteHIT: (i) => this.deleteHit(i.HITId),
    GetAccountBalance: () => {
      if (this.sandbox) return { AvailableBalance: "10000.00", OnHoldBalance: "0.00" };
      return { AvailableBalance: formatCentsAsDollars(this.state.balanceCents), OnHoldBalance: formatCentsAsDollars(this.state.onHoldCents) };
    },
    CreateQualificationType: (i) => this.createQualificationType(i),
    GetQualificationType: (i) => ({ QualificationType: this.qualificationTypeJson(i.QualificationTypeId) }),
    AssociateQualificationWithWorker: (i) => {
      this.ownedQualificationType(i.QualificationTypeId);
      this.checkWorker(i.WorkerId);
      this.grant(i.QualificationTypeId, i.WorkerId, i.IntegerValue ?? 1);
      return {};
    },
    DisassociateQualificationFromWorker: (i) => {
      this.ownedQualificationType(i.QualificationTypeId);
      this.checkWorker(i.WorkerId);
      const q = this.state.qualifications[`${i.QualificationTypeId}|${i.WorkerId}`];
      if (!q || q.Status !== "Granted") {
        throw requestError("QualificationDoesNotExist", `You requested a Qualification that does not exist.`, this.t);
      }
      q.Status = "Revoked";
      return {};
    },
    ListWorkersWithQualificationType: (i) => {
      this.ownedQualificationType(i.QualificationTypeId);
      const status = i.Status ?? "Granted";
      const all = Object.values(this.state.qualifications)
        .filter((q) => q.QualificationTypeId === i.QualificationTypeId && q.Status === status)
        .sort((a, b) => a.GrantTime - b.GrantTime || a.WorkerId.localeCompare(b.WorkerId));
      const page = this.paginate(all, i.NextToken, i.MaxResults, `quals|${i.QualificationTypeId}|${status}`);
      return this.pageJson(page, "Qualifications", (q) => this.qualificationJson(q));
    },
    GetQualificationScore: (i) => {
      this.checkWorker(i.WorkerId);
      const sys = SYSTEM_QUALIFICATION_NAMES[i.QualificationTypeId];
      if (!sys) this.ownedQualificationType(i.QualificationTypeId);
      const q = this.state.qualifications[`${i.QualificationTypeId}|${i.WorkerId}`];
      if (!q) throw requestError("QualificationDoesNotExist", `You requested a Qualification that does not exist.`, this.t);
      return { Qualification: this.qualificationJson(q) };
    },
    CreateWorkerBlock: (i) => {
      this.checkWorker(i.WorkerId);
      this.state.blocks[i.WorkerId] = { reason: i.Reason, time: this.t };
      return {};
    },
    DeleteWorkerBlock: (i) => {
      delete this.state.blocks[i.WorkerId];
      return {};
    },
    ListWorkerBlocks: (i) => {
      const all = Object.entries(this.state.blocks).sort((a, b) => a[1].time - b[1].time || a[0].localeCompare(b[0]));
      const page = this.paginate(all, i.NextToken, i.MaxResults, "blocks");
      return this.pageJson(page, "WorkerBlocks", ([WorkerId, b]) => ({ WorkerId, Reason: b.reason }));
    },
    NotifyWorkers: (i) => {
      const failures: Json[] = [];
      for (const workerId of i.WorkerIds) {
        if (!this.state.decidedWorkers[workerId]) {
          failures.push({
            NotifyWorkersFailureCode: "HardFailure",
            NotifyWorkersFailureMessage: `Cannot send a message to worker ${workerId}: you have not approved or rejected any of their work.`,
            WorkerId: workerId,
          });
        }
      }
      const sent = i.WorkerIds.filter((w) => this.state.decidedWorkers[w]);
      if (sent.length > 0) this.state.notifications.push({ time: this.t, subject: i.Subject, message: i.MessageText, workerIds: sent });
      return { NotifyWorkersFailureStatuses: failures };
    },
    SendBonus: (i) => this.sendBonus(i),
  };

  // ───────────────────────── HITs ─────────────────────────

  private hitTypeFor(i: OperationInput<"CreateHITType">) {
    const rewardCents = this.reward(i.Reward);
    const params = {
      AssignmentDurationInSeconds: i.AssignmentDurationInSeconds,
      Reward: formatCentsAsDollars(rewardCents),
      Title: i.Title,
      Description: i.Description,
      AutoApprovalDelayInSeconds: i.AutoApprovalDelayInSeconds ?? 2_592_000,
      Keywords: i.Keywords,
      QualificationRequirements: this.checkRequirements(i.QualificationRequirements ?? []),
    };
    const key = JSON.stringify(params);
    const existing = Object.values(this.state.hitTypes).find((t) => t.key === key);
    if (existing) return existing;
    const type = { HITTypeId: this.newId(), key, ...params };
    this.state.hitTypes[type.HITTypeId] = type;
    return type;
  }

  private reward(amount: string): number {
    try {
      return parseDollarsToCents(amount);
    } catch {
      throw parameterValidationError("Reward", amount, this.t);
    }
  }

  private checkRequirements(reqs: WireRequirement[]): WireRequirement[] {
    for (const r of reqs) {
      const isLocale = r.QualificationTypeId === "00000000000000000071";
      const c = r.Comparator;
      if ((c === "Exists" || c === "DoesNotExist") && (r.IntegerValues?.length || r.LocaleValues?.length)) {
        throw parameterValidationError("QualificationRequirement", `${c} takes no values`, this.t);
      }
      if (r.LocaleValues?.length && !isLocale) throw parameterValidationError("LocaleValues", r.QualificationTypeId, this.t);
      if (isLocale && c !== "Exists" && c !== "DoesNotExist") {
        if (!["EqualTo", "NotEqualTo", "In", "NotIn"].includes(c)) throw parameterValidationError("Comparator", c, this.t);
        if (!r.LocaleValues?.length) throw parameterValidationError("LocaleValues", [], this.t);
        if ((c === "EqualTo" || c === "NotEqualTo") && r.LocaleValues.length !== 1) {
          throw parameterValidationError("LocaleValues", r.LocaleValues, this.t);
        }
      } else if (!isLocale && c !== "Exists" && c !== "DoesNotExist") {
        const n = r.IntegerValues?.length ?? 0;
        if (n === 0 || ((c !== "In" && c !== "NotIn") && n !== 1)) throw parameterValidationError("IntegerValues", r.IntegerValues ?? [], this.t);
      }
      if (!SYSTEM_QUALIFICATION_NAMES[r.QualificationTypeId] && !this.state.qualificationTypes[r.QualificationTypeId]) {
        throw requestError("QualificationTypeDoesNotExist", `QualificationType ${r.QualificationTypeId} does not exist.`, this.t);
      }
    }
    return reqs.map((r) => ({ ...r }));
  }

  private checkQuestion(question: string | undefined, layoutId: string | undefined): string {
    if (question === undefined) {
      if (layoutId) throw requestError("HITLayoutDoesNotExist", `HITLayout ${layoutId} does not exist.`, this.t);
      throw plainRequestError("Either the Question parameter or the HITLayoutId parameter must be provided.", this.t);
    }
    const bytes = utf8ByteLength(question);
    const root = questionRootName(question);
    const valid = XMLValidator.validate(question);
    if (bytes > MTURK_MAX_XML_BYTES || valid !== true || !["QuestionForm", "HTMLQuestion", "ExternalQuestion"].includes(root ?? "")) {
      const details =
        bytes > MTURK_MAX_XML_BYTES
          ? `The question is ${bytes} bytes; the maximum is ${MTURK_MAX_XML_BYTES}.`
          : valid !== true
            ? valid.err.msg
            : `Unexpected root element ${root ?? "(none)"}.`;
      throw new SimError(
        "ParameterValidationError",
        400,
        `There was an error parsing the XML question or answer data in your request.  Please make sure the data is well-formed and validates against the appropriate schema. Details: ${details} (${this.t})`,
      );
    }
    return question;
  }

  private tokenHit(token: string | undefined): string | undefined {
    if (!token) return undefined;
    const rec = this.state.tokens[`hit|${token}`];
    if (rec && this.t - rec.time < TOKEN_TTL_MS) return rec.id;
    return undefined;
  }

  private insertHit(fields: {
    type: { HITTypeId: string; Reward: string; Title: string; Description: string; Keywords?: string; AutoApprovalDelayInSeconds: number; AssignmentDurationInSeconds: number; QualificationRequirements: WireRequirement[] };
    LifetimeInSeconds: number;
    MaxAssignments?: number;
    Question: string;
    RequesterAnnotation?: string;
    UniqueRequestToken?: string;
    HITLayoutId?: string;
    AssignmentReviewPolicy?: SimReviewPolicy;
    HITReviewPolicy?: SimReviewPolicy;
  }): Json {
    const existing = this.tokenHit(fields.UniqueRequestToken);
    if (existing) {
      throw requestError(
        "HitAlreadyExists",
        `There is already a HIT with the UniqueRequestToken "${fields.UniqueRequestToken}". HITId: ${existing}`,
        this.t,
      );
    }
    checkReviewPolicies(fields, this.t);
    const hit: SimHit = {
      HITId: this.newId(),
      HITTypeId: fields.type.HITTypeId,
      HITLayoutId: fields.HITLayoutId,
      creationTime: this.t,
      expiration: this.t + fields.LifetimeInSeconds * 1000,
      Title: fields.type.Title,
      Description: fields.type.Description,
      Keywords: fields.type.Keywords,
      Question: fields.Question,
      rewardCents: parseDollarsToCents(fields.type.Reward),
      MaxAssignments: fields.MaxAssignments ?? 1,
      AutoApprovalDelayInSeconds: fields.type.AutoApprovalDelayInSeconds,
      AssignmentDurationInSeconds: fields.type.AssignmentDurationInSeconds,
      LifetimeInSeconds: fields.LifetimeInSeconds,
      RequesterAnnotation: fields.RequesterAnnotation,
      QualificationRequirements: fields.type.QualificationRequirements,
      HITReviewStatus: "NotReviewed",
      reviewing: false,
      disposed: false,
      assignmentIds: [],
    };
    this.state.hits[hit.HITId] = hit;
    this.state.hitOrder.push(hit.HITId);
    if (fields.UniqueRequestToken) this.state.tokens[`hit|${fields.UniqueRequestToken}`] = { time: this.t, id: hit.HITId };
    recordReviewPolicies(this, hit.HITId, fields);
    this.openHits.add(hit.HITId);
    this.wakeSleepers();
    return { HIT: this.hitJson(hit) };
  }

  private createHit(i: OperationInput<"CreateHIT">): Json {
    const question = this.checkQuestion(i.Question, i.HITLayoutId);
    const type = this.hitTypeFor(i);
    return this.insertHit({ ...i, type, Question: question });
  }

  private createHitWithType(i: OperationInput<"CreateHITWithHITType">): Json {
    const type = this.state.hitTypes[i.HITTypeId];
    if (!type) throw requestError("HITTypeDoesNotExist", `HITType ${i.HITTypeId} does not exist.`, this.t);
    const question = this.checkQuestion(i.Question, i.HITLayoutId);
    return this.insertHit({ ...i, type, Question: question });
  }

  getHitRec(hitId: string): SimHit {
    const hit = this.state.hits[hitId];
    if (!hit) throw requestError("HITDoesNotExist", `Hit ${hitId} does not exist.`, this.t);
    return hit;
  }

  /** Counters and status by MTurk's rules (lib/crowd/hit-state.ts). */
  hitCounts(hit: SimHit): HitCounts {
    return hitCounts(
      hit.assignmentIds.map((id) => this.state.assignments[id]),
      hit.MaxAssignments,
      this.t,
    );
  }

  hitStatus(hit: SimHit): HitState {
    return hitState({ disposed: hit.disposed, reviewing: hit.reviewing, expired: this.t >= hit.expiration, counts: this.hitCounts(hit) });
  }

  hitJson(hit: SimHit): Json {
    const c = this.hitCounts(hit);
    return {
      HITId: hit.HITId,
      HITTypeId: hit.HITTypeId,
      HITGroupId: hit.HITTypeId,
      HITLayoutId: hit.HITLayoutId,
      CreationTime: this.wire(hit.creationTime),
      Title: hit.Title,
      Description: hit.Description,
      Question: hit.Question,
      Keywords: hit.Keywords,
      HITStatus: this.hitStatus(hit),
      MaxAssignments: hit.MaxAssignments,
      Reward: formatCentsAsDollars(hit.rewardCents),
      AutoApprovalDelayInSeconds: hit.AutoApprovalDelayInSeconds,
      Expiration: this.wire(hit.expiration),
      AssignmentDurationInSeconds: hit.AssignmentDurationInSeconds,
      RequesterAnnotation: hit.RequesterAnnotation,
      QualificationRequirements: hit.QualificationRequirements,
      HITReviewStatus: hit.HITReviewStatus,
      NumberOfAssignmentsPending: c.pending,
      NumberOfAssignmentsAvailable: c.available,
      NumberOfAssignmentsCompleted: c.completed,
    };
  }

  paginate<T>(all: T[], nextToken: string | undefined, maxResults: number | undefined, scope: string): { items: T[]; next?: string } {
    let offset = 0;
    if (nextToken !== undefined) {
      try {
        const parsed = JSON.parse(Buffer.from(nextToken, "base64url").toString("utf8")) as { o?: unknown; s?: unknown };
        if (typeof parsed.o !== "number" || parsed.s !== scope || parsed.o < 0) throw new Error("bad token");
        offset = parsed.o;
      } catch {
        throw parameterValidationError("NextToken", nextToken, this.t);
      }
    }
    const size = maxResults ?? 10;
    const items = all.slice(offset, offset + size);
    const end = offset + items.length;
    return { items, next: end < all.length ? encodeToken(end, scope) : undefined };
  }

  pageJson<T>(page: { items: T[]; next?: string }, key: string, map: (x: T) => Json): Json {
    const out: Json = { NumResults: page.items.length, [key]: page.items.map(map) };
    if (page.next) out.NextToken = page.next;
    return out;
  }

  private listHits(nextToken: string | undefined, maxResults: number | undefined, scope: string, filter: (h: SimHit) => boolean): Json {
    const all = this.state.hitOrder.map((id) => this.state.hits[id]).filter((h) => !h.disposed && filter(h));
    return this.pageJson(this.paginate(all, nextToken, maxResults, scope), "HITs", (h) => this.hitJson(h));
  }

  updateExpiration(hitId: string, expireAtSeconds: number): Json {
    const hit = this.getHitRec(hitId);
    if (hit.disposed) throw this.invalidHitState(hit, "Assignable, Unassignable, Reviewable");
    const at = Math.round(expireAtSeconds * 1000);
    if (at <= this.t) {
      hit.expiration = Math.min(hit.expiration, this.t);
      return {};
    }
    if (at - hit.creationTime > MAX_EXTENSION_MS) {
      throw requestError("HITTooOldForExtension", `HIT ${hitId} cannot be extended beyond 365 days after its creation.`, this.t);
    }
    hit.expiration = at;
    if (hit.reviewing) hit.reviewing = false;
    this.openHits.add(hit.HITId);
    this.wakeSleepers();
    return {};
  }

  addAssignments(i: OperationInput<"CreateAdditionalAssignmentsForHIT">): Json {
    const hit = this.getHitRec(i.HITId);
    if (i.UniqueRequestToken) {
      const rec = this.state.tokens[`assign|${i.UniqueRequestToken}`];
      if (rec && this.t - rec.time < TOKEN_TTL_MS) {
        throw plainRequestError(`The idempotency token "${i.UniqueRequestToken}" has already been processed.`, this.t);
      }
    }
    if (hit.disposed) throw this.invalidHitState(hit, "Assignable, Unassignable, Reviewable");
    const next = hit.MaxAssignments + i.NumberOfAdditionalAssignments;
    if (hit.MaxAssignments < 10 && next >= 10) {
      throw requestError(
        "InvalidMaximumAssignmentsIncrease",
        `This HIT has ${hit.MaxAssignments} assignments; a HIT created with fewer than 10 assignments cannot be extended to 10 or more.`,
        this.t,
      );
    }
    hit.MaxAssignments = next;
    if (hit.reviewing) hit.reviewing = false;
    if (i.UniqueRequestToken) this.state.tokens[`assign|${i.UniqueRequestToken}`] = { time: this.t, id: hit.HITId };
    this.openHits.add(hit.HITId);
    this.wakeSleepers();
    return {};
  }

  invalidHitState(hit: SimHit, allowed: string): SimError {
    return requestError(
      "InvalidHITState",
      `This HIT is currently in the state '${this.hitStatus(hit)}'.  This operation can be called with a status of: ${allowed}`,
      this.t,
    );
  }

  private deleteHit(hitId: string): Json {
    const hit = this.getHitRec(hitId);
    const status = this.hitStatus(hit);
    if (status !== "Reviewable" && status !== "Reviewing") throw this.invalidHitState(hit, "Reviewable, Reviewing");
    const undecided = hit.assignmentIds.some((id) => this.state.assignments[id].status === PROVIDER_ASSIGNMENT_STATUS.Submitted);
    if (undecided) {
      throw requestError(
        "InvalidHITState",
        `HIT ${hitId} has submitted assignments that are neither approved nor rejected; approve or reject them before deleting the HIT.`,
        this.t,
      );
    }
    hit.disposed = true;
    this.openHits.delete(hitId);
    return {};
  }

  // ───────────────────────── assignments ─────────────────────────

  getAssignmentRec(assignmentId: string): SimAssignment {
    const a = this.state.assignments[assignmentId];
    if (!a || a.status === "Accepted" || a.status === "Returned" || a.status === "Abandoned") {
      throw requestError("AssignmentDoesNotExist", `Assignment ${assignmentId} does not exist.`, this.t);
    }
    return a;
  }

  assignmentJson(a: SimAssignment): Json {
    return {
      AssignmentId: a.AssignmentId,
      WorkerId: a.WorkerId,
      HITId: a.HITId,
      AssignmentStatus: a.status,
      AutoApprovalTime: this.wire(a.autoApprovalTime),
      AcceptTime: workedAcceptWire(this.clock, a.acceptTime, a.submitTime),
      SubmitTime: this.wire(a.submitTime),
      ApprovalTime: this.wire(a.approvalTime),
      RejectionTime: this.wire(a.rejectionTime),
      Deadline: this.wire(a.deadline),
      Answer: a.Answer,
      RequesterFeedback: a.RequesterFeedback,
    };
  }

  private listAssignments(i: OperationInput<"ListAssignmentsForHIT">): Json {
    const hit = this.getHitRec(i.HITId);
    const statuses = new Set<string>(i.AssignmentStatuses?.length ? i.AssignmentStatuses : ["Submitted", "Approved", "Rejected"]);
    const all = hit.assignmentIds.map((id) => this.state.assignments[id]).filter((a) => statuses.has(a.status));
    const scope = `asg|${hit.HITId}|${[...statuses].sort().join(",")}`;
    return this.pageJson(this.paginate(all, i.NextToken, i.MaxResults, scope), "Assignments", (a) => this.assignmentJson(a));
  }

  private invalidAssignmentState(allowed: string): SimError {
    return requestError("InvalidAssignmentState", `This operation can be called with a status of: ${allowed}`, this.t);
  }

  private charge(a: SimAssignment, auto: boolean): void {
    if (this.sandbox) return;
    const hit = this.state.hits[a.HITId];
    const fee = assignmentFeeCents({ rewardCents: hit.rewardCents, maxAssignments: hit.MaxAssignments });
    const cost = hit.rewardCents + fee;
    if (!auto && cost > this.state.balanceCents) {
      throw requestError(
        "InsufficientFunds",
        `You do not have enough funds to approve this assignment: it costs $${formatCentsAsDollars(cost)} (reward plus fee) and your available balance is $${formatCentsAsDollars(this.state.balanceCents)}.`,
        this.t,
      );
    }
    this.state.balanceCents -= cost;
    this.state.ledger.push({ time: this.t, kind: "approval", amountCents: hit.rewardCents, feeCents: fee, ref: a.AssignmentId });
  }

  approve(assignmentId: string, feedback: string | undefined, override: boolean): void {
    const a = this.getAssignmentRec(assignmentId);
    if (a.status === PROVIDER_ASSIGNMENT_STATUS.Rejected && override) {
      const hit = this.state.hits[a.HITId];
      if (hit.disposed || this.t - (a.submitTime ?? 0) > OVERRIDE_WINDOW_MS) {
        throw this.invalidAssignmentState("Submitted (a rejection can only be overridden within 30 days of submission, while the HIT exists)");
      }
    } else if (a.status !== PROVIDER_ASSIGNMENT_STATUS.Submitted) {
      throw this.invalidAssignmentState("Submitted");
    }
    this.charge(a, false);
    a.status = PROVIDER_ASSIGNMENT_STATUS.Approved;
    a.approvalTime = this.t;
    a.rejectionTime = undefined;
    if (feedback !== undefined) a.RequesterFeedback = feedback;
    this.state.decidedWorkers[a.WorkerId] = true;
    this.creditWorker(a.WorkerId, true);
  }

  reject(assignmentId: string, feedback: string): void {
    const a = this.getAssignmentRec(assignmentId);
    if (a.status !== PROVIDER_ASSIGNMENT_STATUS.Submitted) throw this.invalidAssignmentState(PROVIDER_ASSIGNMENT_STATUS.Submitted);
    a.status = PROVIDER_ASSIGNMENT_STATUS.Rejected;
    a.rejectionTime = this.t;
    a.RequesterFeedback = feedback;
    this.state.decidedWorkers[a.WorkerId] = true;
    this.creditWorker(a.WorkerId, false);
  }

  private creditWorker(workerId: string, approved: boolean): void {
    const w = this.workersById.get(workerId);
    if (!w) return;
    const total = w.numberHitsApproved / Math.max(0.01, w.percentApproved / 100);
    if (approved) w.numberHitsApproved += 1;
    w.percentApproved = Math.round((w.numberHitsApproved / (total + 1)) * 100);
  }

  private sendBonus(i: OperationInput<"SendBonus">): Json {
    if (i.UniqueRequestToken) {
      const rec = this.state.tokens[`bonus|${i.UniqueRequestToken}`];
      if (rec && this.t - rec.time < TOKEN_TTL_MS) {
        throw plainRequestError(`The idempotency token "${i.UniqueRequestToken}" has already been processed.`, this.t);
      }
    }
    const a = this.getAssignmentRec(i.AssignmentId);
    if (a.WorkerId !== i.WorkerId) {
      throw plainRequestError(`Assignment ${i.AssignmentId} was not worked on by worker ${i.WorkerId}.`, this.t);
    }
    let amount: number;
    try {
      amount = parseDollarsToCents(i.BonusAmount);
    } catch {
      throw parameterValidationError("BonusAmount", i.BonusAmount, this.t);
    }
    if (amount < 1) throw parameterValidationError("BonusAmount", i.BonusAmount, this.t);
    const fee = bonusFeeCents({ bonusCents: amount });
    if (!this.sandbox) {
      if (amount + fee > this.state.balanceCents) {
        throw requestError(
          "InsufficientFunds",
          `You do not have enough funds to pay this bonus: it costs $${formatCentsAsDollars(amount + fee)} (bonus plus fee) and your available balance is $${formatCentsAsDollars(this.state.balanceCents)}.`,
          this.t,
        );
      }
      this.state.balanceCents -= amount + fee;
      this.state.ledger.push({ time: this.t, kind: COST_KIND.bonus, amountCents: amount, feeCents: fee, ref: a.AssignmentId });
    }
    this.state.bonuses.push({ time: this.t, workerId: i.WorkerId, assignmentId: a.AssignmentId, amountCents: amount, feeCents: fee, reason: i.Reason });
    if (i.UniqueRequestToken) this.state.tokens[`bonus|${i.UniqueRequestToken}`] = { time: this.t, id: a.AssignmentId };
    return {};
  }

  // ───────────────────────── qualifications ─────────────────────────

  private createQualificationType(i: OperationInput<"CreateQualificationType">): Json {
    if (Object.values(this.state.qualificationTypes).some((q) => q.Name === i.Name) || qualificationNameReserved(this, i.Name)) {
      throw requestError(
        "QualificationTypeAlreadyExists",
        `You have already created a QualificationType with this name. A QualificationType's name must be unique among all of the QualificationTypes created by the same user.`,
        this.t,
      );
    }
    checkQualificationTest(i, this.t);
    const q: SimQualificationType = {
      QualificationTypeId: this.newId(),
      CreationTime: this.t,
      Name: i.Name,
      Description: i.Description,
      Keywords: i.Keywords,
      QualificationTypeStatus: i.QualificationTypeStatus,
      Test: i.Test,
      TestDurationInSeconds: i.TestDurationInSeconds,
      AnswerKey: i.AnswerKey,
      RetryDelayInSeconds: i.RetryDelayInSeconds,
      AutoGranted: i.AutoGranted ?? false,
      AutoGrantedValue: i.AutoGranted ? (i.AutoGrantedValue ?? 1) : undefined,
      IsRequestable: i.Test !== undefined || (i.AutoGranted ?? false),
    };
    this.state.qualificationTypes[q.QualificationTypeId] = q;
    this.wakeSleepers();
    return { QualificationType: this.qualificationTypeJson(q.QualificationTypeId) };
  }

  ownedQualificationType(id: string): SimQualificationType {
    const q = this.state.qualificationTypes[id];
    if (!q) {
      if (SYSTEM_QUALIFICATION_NAMES[id]) {
        throw requestError("PermissionDenied", `You do not own QualificationType ${id}; system qualifications cannot be changed.`, this.t);
      }
      throw requestError("QualificationTypeDoesNotExist", `QualificationType ${id} does not exist.`, this.t);
    }
    return q;
  }

  qualificationTypeJson(id: string): Json {
    const sys = SYSTEM_QUALIFICATION_NAMES[id];
    if (sys && !this.state.qualificationTypes[id]) {
      return { QualificationTypeId: id, Name: sys, Description: `System qualification ${sys}`, QualificationTypeStatus: "Active", IsRequestable: false, AutoGranted: false };
    }
    const q = this.ownedQualificationType(id);
    return {
      QualificationTypeId: q.QualificationTypeId,
      CreationTime: this.wire(q.CreationTime),
      Name: q.Name,
      Description: q.Description,
      Keywords: q.Keywords,
      QualificationTypeStatus: q.QualificationTypeStatus,
      Test: q.Test,
      TestDurationInSeconds: q.TestDurationInSeconds,
      AnswerKey: q.AnswerKey,
      RetryDelayInSeconds: q.RetryDelayInSeconds,
      IsRequestable: q.IsRequestable,
      AutoGranted: q.AutoGranted,
      AutoGrantedValue: q.AutoGrantedValue,
    };
  }

  qualificationJson(q: { QualificationTypeId: string; WorkerId: string; GrantTime: number; IntegerValue?: number; Status: string }): Json {
    return { QualificationTypeId: q.QualificationTypeId, WorkerId: q.WorkerId, GrantTime: this.wire(q.GrantTime), IntegerValue: q.IntegerValue, Status: q.Status };
  }

  checkWorker(workerId: string): void {
    if (this.rejectUnknownWorkers && !this.workersById.has(workerId)) throw parameterValidationError("WorkerId", workerId, this.t);
  }

  grant(typeId: string, workerId: string, value: number): void {
    this.state.qualifications[`${typeId}|${workerId}`] = { QualificationTypeId: typeId, WorkerId: workerId, GrantTime: this.t, IntegerValue: value, Status: "Granted" };
  }

  // ───────────────────────── the worker side ─────────────────────────

  /** A worker's value for a qualification type (system or custom; revoked = none). */
  qualValue(worker: SimWorker, typeId: string): QualValue {
    const sys = systemQualValue(worker, typeId);
    if (sys.known) return sys.value;
    const q = this.state.qualifications[`${typeId}|${worker.workerId}`];
    return q && q.Status === "Granted" ? { integer: q.IntegerValue ?? 1 } : undefined;
  }

  worker(workerId: string): SimWorker {
    const w = this.workersById.get(workerId);
    if (!w) throw new Error(`Unknown simulated worker ${workerId}`);
    return w;
  }

  /** Why `workerId` may not accept `hitId` right now (null = it may). */
  acceptBlocker(workerId: string, hitId: string): string | null {
    const w = this.worker(workerId);
    const hit = this.state.hits[hitId];
    if (!hit) return "the HIT does not exist";
    if (this.hitStatus(hit) !== "Assignable") return `the HIT is ${this.hitStatus(hit)}`;
    if (this.state.blocks[workerId]) return "the worker is blocked";
    if (this.doneHits.get(workerId)?.has(hitId)) return "the worker already worked on this HIT";
    for (const r of hit.QualificationRequirements) {
      if (!meetsRequirement(r, this.qualValue(w, r.QualificationTypeId))) return `requirement ${r.QualificationTypeId} ${r.Comparator} is not met`;
    }
    return null;
  }

  /** HITs the worker could accept now, in creation order. */
  listAssignableHits(workerId: string): string[] {
    return this.state.hitOrder.filter((id) => this.acceptBlocker(workerId, id) === null);
  }

  /** Accepts a HIT for a worker (programmatic worker API). Returns the new assignment id. */
  acceptHit({ workerId, hitId }: { workerId: string; hitId: string }): string {
    this.advance();
    const blocker = this.acceptBlocker(workerId, hitId);
    if (blocker) throw new Error(`Worker ${workerId} cannot accept HIT ${hitId}: ${blocker}.`);
    const a = this.createAssignment(this.state.hits[hitId], workerId);
    this.changed();
    return a.AssignmentId;
  }

  private createAssignment(hit: SimHit, workerId: string): SimAssignment {
    const a: SimAssignment = {
      AssignmentId: this.newId(),
      HITId: hit.HITId,
      WorkerId: workerId,
      status: "Accepted",
      acceptTime: this.t,
      deadline: this.t + hit.AssignmentDurationInSeconds * 1000,
    };
    this.state.assignments[a.AssignmentId] = a;
    hit.assignmentIds.push(a.AssignmentId);
    this.schedule({ time: a.deadline, kind: "deadline", assignmentId: a.AssignmentId });
    return a;
  }

  /**
   * Submits an accepted assignment with form fields (as a browser posting to externalSubmit does) or with
   * ready-made QuestionFormAnswers. The assignmentId field is not part of the answer.
   */
  submitAssignment({ assignmentId, fields, answers }: { assignmentId: string; fields?: Record<string, string>; answers?: QuestionFormAnswer[] }): void {
    this.advance();
    const a = this.state.assignments[assignmentId];
    if (!a) throw new Error(`Assignment ${assignmentId} does not exist.`);
    if (a.status !== "Accepted") throw new Error(`Assignment ${assignmentId} is ${a.status}; only an accepted assignment can be submitted.`);
    if (a.deadline <= this.t) throw new Error(`Assignment ${assignmentId} passed its deadline.`);
    const list =
      answers ??
      Object.entries(fields ?? {})
        .filter(([k]) => k !== "assignmentId")
        .map(([questionId, freeText]) => ({ questionId, freeText }));
    const hit = this.state.hits[a.HITId];
    a.status = PROVIDER_ASSIGNMENT_STATUS.Submitted;
    a.submitTime = this.t;
    a.autoApprovalTime = this.t + hit.AutoApprovalDelayInSeconds * 1000;
    a.Answer = buildQuestionFormAnswers(list);
    this.doneHits.get(a.WorkerId)?.add(a.HITId);
    const w = this.workersById.get(a.WorkerId);
    if (w && !w.doneHitIds.includes(a.HITId)) w.doneHitIds.push(a.HITId);
    this.schedule({ time: a.autoApprovalTime, kind: "autoApprove", assignmentId });
    this.changed();
  }

  /** The worker gives the assignment back: the slot becomes available again. */
  returnAssignment({ assignmentId }: { assignmentId: string }): void {
    this.advance();
    const a = this.state.assignments[assignmentId];
    if (!a || a.status !== "Accepted") throw new Error(`Assignment ${assignmentId} cannot be returned.`);
    a.status = "Returned";
    this.openHits.add(a.HITId);
    this.wakeSleepers();
    this.changed();
  }

  /**
   * A worker takes a qualification test: answers are graded with the type's AnswerKey and the score granted
   * (RetryDelayInSeconds is enforced). Returns the granted value.
   */
  takeQualificationTest({
    workerId,
    qualificationTypeId,
    answers,
  }: {
    workerId: string;
    qualificationTypeId: string;
    answers: QuestionFormAnswer[] | Record<string, string>;
  }): { score: number; summedScore: number } {
    this.advance();
    const w = this.worker(workerId);
    const type = this.state.qualificationTypes[qualificationTypeId];
    if (!type || !type.Test || !type.AnswerKey) throw new Error(`QualificationType ${qualificationTypeId} has no test graded by an answer key.`);
    const last = w.testAttempts[qualificationTypeId];
    if (last !== undefined) {
      if (type.RetryDelayInSeconds === undefined) throw new Error(`Worker ${workerId} already took this test and it cannot be retaken.`);
      if (this.t - last < type.RetryDelayInSeconds * 1000) throw new Error(`Worker ${workerId} must wait before retaking the test.`);
    }
    const list = Array.isArray(answers)
      ? answers
      : Object.entries(answers).map(([questionId, sel]) => ({ questionId, selectionIds: [sel] }));
    const graded = gradeAnswerKey(parseAnswerKey(type.AnswerKey), list);
    w.testAttempts[qualificationTypeId] = this.t;
    this.grant(qualificationTypeId, workerId, graded.value);
    this.changed();
    return { score: graded.value, summedScore: graded.summedScore };
  }

  // ───────────────────────── simulated behaviour ─────────────────────────

  wakeSleepers(): void {
    for (const w of this.state.workers) {
      if (w.status !== "sleeping" || w.passive) continue;
      w.status = "idle";
      const rng = decisionRng(this.state.seed, w, "wake");
      this.schedule({ time: this.t + Math.round((5 + rng() * 85) * 1000), kind: "wake", workerId: w.workerId });
    }
  }

  /** Puts every worker to sleep until work appears (called once when the pool is created). */
  initialiseWorkers(): void {
    for (const w of this.state.workers) {
      if (!this.workersById.has(w.workerId)) {
        this.workersById.set(w.workerId, w);
        this.doneHits.set(w.workerId, new Set(w.doneHitIds));
      }
      if (w.status === "idle") w.status = "sleeping";
    }
    if (this.openHits.size > 0) this.wakeSleepers();
    this.changed();
  }

  private handleEvent(ev: SimEvent): void {
    switch (ev.kind) {
      case "deadline": {
        const a = ev.assignmentId ? this.state.assignments[ev.assignmentId] : undefined;
        if (a && a.status === "Accepted") {
          a.status = "Abandoned";
          this.openHits.add(a.HITId);
          this.wakeSleepers();
        }
        return;
      }
      case "autoApprove": {
        const a = ev.assignmentId ? this.state.assignments[ev.assignmentId] : undefined;
        if (a && a.status === PROVIDER_ASSIGNMENT_STATUS.Submitted) {
          this.charge(a, true);
          a.status = PROVIDER_ASSIGNMENT_STATUS.Approved;
          a.approvalTime = this.t;
          this.state.decidedWorkers[a.WorkerId] = true;
        }
        return;
      }
      case "wake":
        if (ev.workerId) this.workerWakes(this.worker(ev.workerId));
        return;
      case "submit":
        if (ev.assignmentId) this.workerSubmits(ev.assignmentId);
        return;
      case "return":
        if (ev.assignmentId) {
          const a = this.state.assignments[ev.assignmentId];
          if (a && a.status === "Accepted") {
            a.status = "Returned";
            this.openHits.add(a.HITId);
            this.wakeSleepers();
          }
          this.freeWorker(ev.workerId, 20, 180);
        }
        return;
    }
  }

  private freeWorker(workerId: string | undefined, minSeconds: number, maxSeconds: number): void {
    if (!workerId) return;
    const w = this.worker(workerId);
    w.status = "idle";
    w.currentAssignmentId = undefined;
    const rng = decisionRng(this.state.seed, w, "break");
    this.schedule({ time: this.t + Math.round((minSeconds + rng() * (maxSeconds - minSeconds)) * 1000), kind: "wake", workerId });
  }

  private workerWakes(w: SimWorker): void {
    if (w.status === "working" || w.passive) return;
    let testCandidate: { typeId: string } | null = null;
    for (const hitId of [...this.openHits]) {
      const hit = this.state.hits[hitId];
      if (!hit || hit.disposed || this.t >= hit.expiration) {
        this.openHits.delete(hitId);
        continue;
      }
      if (this.hitStatus(hit) !== "Assignable") continue;
      if (this.state.blocks[w.workerId] || this.doneHits.get(w.workerId)?.has(hitId)) continue;
      const unmet = hit.QualificationRequirements.filter((r) => !meetsRequirement(r, this.qualValue(w, r.QualificationTypeId)));
      if (unmet.length === 0) {
        this.workerAccepts(w, hit);
        return;
      }
      if (!testCandidate) {
        const takeable = unmet.every((r) => canRequestQualification(this, w, r.QualificationTypeId));
        if (takeable) testCandidate = { typeId: unmet[0].QualificationTypeId };
      }
    }
    if (testCandidate) {
      const seconds = simulateQualificationRequest(this, w, testCandidate.typeId);
      w.status = "idle";
      this.schedule({ time: this.t + seconds * 1000, kind: "wake", workerId: w.workerId });
      return;
    }
    w.status = "sleeping";
  }

  /** Drops the parsed test of a type whose Test or AnswerKey changed. */
  forgetParsedTest(typeId: string): void {
    this.testCache.delete(typeId);
  }

  private parsedTest(typeId: string): { questions: QuestionFormQuestion[]; key: AnswerKey } | null {
    if (!this.testCache.has(typeId)) {
      const type = this.state.qualificationTypes[typeId];
      try {
        this.testCache.set(typeId, type?.Test && type.AnswerKey ? { questions: parseQuestionForm(type.Test), key: parseAnswerKey(type.AnswerKey) } : null);
      } catch {
        this.testCache.set(typeId, null);
      }
    }
    return this.testCache.get(typeId) ?? null;
  }

  /** The worker answers the test by profile (the AnswerKey's best option is the truth); returns seconds spent. */
  simulateTest(w: SimWorker, typeId: string): number {
    const test = this.parsedTest(typeId);
    const rng = decisionRng(this.state.seed, w, `test-${typeId}`);
    if (!test) {
      w.testAttempts[typeId] = this.t;
      return 60;
    }
    const best = bestAnswers(test.key);
    const answers: QuestionFormAnswer[] = test.questions
      .filter((q) => q.kind === "selection" && q.selections.length > 0)
      .map((q) => {
        const options = q.selections.map((s) => s.selectionId);
        return { questionId: q.questionId, selectionIds: [chooseAnswer({ worker: w, options, truth: best.get(q.questionId)?.[0], rng })] };
      });
    const graded = gradeAnswerKey(test.key, answers);
    w.testAttempts[typeId] = this.t;
    this.grant(typeId, w.workerId, graded.value);
    return workSeconds(w, answers.length, rng);
  }

  private workerAccepts(w: SimWorker, hit: SimHit): void {
    const rng = decisionRng(this.state.seed, w, "accept");
    const a = this.createAssignment(hit, w.workerId);
    const profile = WORKER_PROFILES[w.profile];
    const r = rng();
    const form = this.parsedForm(hit);
    const items = form === null ? 1 : Array.isArray(form) ? form.length : form.groups.length;
    w.status = "working";
    w.currentAssignmentId = a.AssignmentId;
    if (r < profile.returnRate) {
      this.schedule({ time: this.t + Math.round((10 + rng() * 110) * 1000), kind: "return", assignmentId: a.AssignmentId, workerId: w.workerId });
    } else if (r < profile.returnRate + profile.abandonRate) {
      // Abandons: never submits; the deadline frees the slot. The worker moves on after a while.
      this.freeWorker(w.workerId, 120, 900);
    } else {
      const seconds = Math.min(workSeconds(w, items, rng), hit.AssignmentDurationInSeconds - 1);
      this.schedule({ time: this.t + seconds * 1000, kind: "submit", assignmentId: a.AssignmentId, workerId: w.workerId });
    }
  }

  private parsedForm(hit: SimHit): ParsedHitForm | QuestionFormQuestion[] | null {
    if (!this.formCache.has(hit.HITId)) {
      let parsed: ParsedHitForm | QuestionFormQuestion[] | null = null;
      try {
        const root = questionRootName(hit.Question);
        if (root === "HTMLQuestion") {
          const html = htmlOfHtmlQuestion(hit.Question);
          parsed = html === null ? null : parseHitForm(html);
        } else if (root === "QuestionForm") {
          parsed = parseQuestionForm(hit.Question);
        }
      } catch {
        parsed = null;
      }
      this.formCache.set(hit.HITId, parsed);
    }
    return this.formCache.get(hit.HITId) ?? null;
  }

  private workerSubmits(assignmentId: string): void {
    const a = this.state.assignments[assignmentId];
    if (!a || a.status !== "Accepted" || a.deadline <= this.t) {
      this.freeWorker(a?.WorkerId, 20, 120);
      return;
    }
    const w = this.worker(a.WorkerId);
    const hit = this.state.hits[a.HITId];
    const form = this.parsedForm(hit);
    const rng = decisionRng(this.state.seed, w, "answer");
    let answers: QuestionFormAnswer[] = [];
    if (Array.isArray(form)) {
      answers = form.map((q) => {
        if (q.kind === "fileupload") return { questionId: q.questionId, ...uploadAnswerFile(this, `answer of ${w.workerId} to ${q.questionId}\n`) };
        if (q.kind !== "selection") return { questionId: q.questionId, freeText: "n/a" };
        const options = q.selections.map((s) => s.selectionId);
        return { questionId: q.questionId, selectionIds: [chooseAnswer({ worker: w, options, truth: truthAmong(this.truth, this.state.seed, q.questionId, options), rng, llmLabel: () => llmSimulatorLabel(q.questionId, options, this.truth) })] };
      });
    } else if (form) {
      const fields: Record<string, string> = {};
      for (const g of form.groups) {
        if (g.kind === "text" || g.kind === "textarea") {
          if (g.required) fields[g.name] = "n/a";
          continue;
        }
        if (g.options.length === 0) continue;
        fields[g.name] = chooseAnswer({ worker: w, options: g.options, truth: truthAmong(this.truth, this.state.seed, g.tweetId ?? g.name, g.options), rng, llmLabel: () => llmSimulatorLabel(g.tweetId ?? g.name, g.options, this.truth) });
      }
      answers =
        form.kind === "crowd"
          ? [{ questionId: "taskAnswers", freeText: JSON.stringify([fields]) }]
          : Object.entries(fields).map(([questionId, freeText]) => ({ questionId, freeText }));
    }
    this.submitAssignment({ assignmentId, answers });
    this.freeWorker(w.workerId, 10, 120);
  }
}
