import type { z } from "zod";
import { CrowdError } from "../errors";
import { backoffMs, pause } from "../retry";
import { ThrottleGate } from "../throttle-gate";
import {
  balanceSchema,
  bulkBonusSchema,
  costSchema,
  groupMemberSchema,
  hookSecretSchema,
  hookSubscriptionSchema,
  MIN_REJECTION_MESSAGE_LENGTH,
  pageSchema,
  participantGroupSchema,
  rewardRecommendationSchema,
  studySchema,
  submissionDetailSchema,
  submissionListItemSchema,
  testParticipantSchema,
  testStudySchema,
  userSchema,
  workspaceSchema,
  type RejectionCategory,
  type StudyAction,
} from "./api-types";
import { formatBonusCsv, type BonusLine } from "./bonus-csv";
import { prolificHttpError, prolificNetworkError } from "./errors";

export const PROLIFIC_API_URL = "https://api.prolific.com/api/v1/";
/** Prolific recommends at most 1,000 ids per bulk-approve call, sent one after another. */
export const BULK_APPROVE_BATCH = 1000;

/**
 * - `safe`: repeating the call changes nothing (reads, absolute PATCHes, submission transitions, group adds):
 *   retried after a 5xx or a network error.
 * - `once`: creates or pays (study create, PUBLISH, bonus set-up and pay, messages): never repeated blindly, the
 *   caller looks the result up first. A 429 is retried for both: Prolific refused the request before doing it.
 */
export type RetryPolicy = "safe" | "once";

export type ProlificClientOptions = {
  token: string;
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Paces every call of this client after a 429 (one gate per workspace wallet). */
  gate?: ThrottleGate;
  /** Attempts for a throttled call. */
  throttleAttempts?: number;
  /** Attempts for a `safe` call that met a 5xx or a network error. */
  faultAttempts?: number;
  /** Pause before a fault retry, in ms (doubled each time). */
  faultBackoffMs?: number;
  /** Per-request time limit, in ms. */
  timeoutMs?: number;
};

type RequestOptions<T> = {
  operation: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  schema?: z.ZodType<T>;
  retry?: RetryPolicy;
  /** Response header values to return beside the body. */
  headers?: string[];
};

/** The Prolific researcher API over fetch: token auth, trailing-slash paths, one 429 gate, validated answers. */
export class ProlificClient {
  readonly baseUrl: string;
  private readonly token: string;
  private readonly fetchImpl: typeof fetch;
  readonly gate: ThrottleGate;
  private readonly throttleAttempts: number;
  private readonly faultAttempts: number;
  private readonly faultBackoffMs: number;
  private readonly timeoutMs: number;

  constructor(options: ProlificClientOptions) {
    if (!options.token.trim()) throw new CrowdError("No Prolific API token is configured. An admin enters it in Settings.", "permission_denied");
    this.token = options.token.trim();
    this.baseUrl = (options.baseUrl ?? PROLIFIC_API_URL).replace(/\/*$/, "/");
    this.fetchImpl = options.fetch ?? fetch;
    this.gate = options.gate ?? new ThrottleGate({ maxConcurrent: 4 });
    this.throttleAttempts = options.throttleAttempts ?? 8;
    this.faultAttempts = options.faultAttempts ?? 4;
    this.faultBackoffMs = options.faultBackoffMs ?? 250;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** One call: the path is relative to the base URL and gets a trailing slash (Prolific's documented style). */
  async request<T>(method: string, path: string, options: RequestOptions<T>): Promise<{ body: T; headers: Record<string, string | null> }> {
    const url = this.url(path, options.query);
    const init: RequestInit = {
      method,
      headers: { Authorization: `Token ${this.token}`, Accept: "application/json", ...(options.body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    };
    let throttled = 0;
    let faults = 0;
    for (;;) {
      const ticket = await this.gate.enter();
      let response: Response;
      try {
        response = await this.fetchImpl(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
      } catch (cause) {
        this.gate.leave(ticket, "failed");
        if (options.retry === "safe" && ++faults < this.faultAttempts) {
          await pause(backoffMs(faults - 1, { baseMs: this.faultBackoffMs }));
          continue;
        }
        throw prolificNetworkError(options.operation, cause);
      }
      const payload = await readBody(response);
      if (response.status === 429) {
        this.gate.leave(ticket, "throttled");
        if (++throttled < this.throttleAttempts) continue;
        throw prolificHttpError(options.operation, 429, payload);
      }
      if (response.status >= 500) {
        this.gate.leave(ticket, "failed");
        if (options.retry === "safe" && ++faults < this.faultAttempts) {
          await pause(backoffMs(faults - 1, { baseMs: this.faultBackoffMs }));
          continue;
        }
        throw prolificHttpError(options.operation, response.status, payload);
      }
      this.gate.leave(ticket, response.ok ? "succeeded" : "failed");
      if (!response.ok) throw prolificHttpError(options.operation, response.status, payload);
      const headers = Object.fromEntries((options.headers ?? []).map((h) => [h, response.headers.get(h)]));
      if (!options.schema) return { body: payload as T, headers };
      const parsed = options.schema.safeParse(payload);
      if (!parsed.success) {
        throw new CrowdError(`Prolific answered ${options.operation} in an unexpected shape (${parsed.error.issues[0]?.path.join(".") || "body"}: ${parsed.error.issues[0]?.message}).`, "unknown", {
          operation: options.operation,
          httpStatus: response.status,
        });
      }
      return { body: parsed.data, headers };
    }
  }

  /** Every item of a paged list, following `_links.next.href` until it is null (never assume one page). */
  async listAll<T>(path: string, item: z.ZodType<T>, operation: string, query?: RequestOptions<T>["query"]): Promise<T[]> {
    const schema = pageSchema(item);
    const out: T[] = [];
    let next: string | null = this.url(path, { limit: 200, ...query });
    for (let pages = 0; next; pages++) {
      if (pages > 10_000) throw new CrowdError(`Prolific's list for ${operation} does not end.`, "unknown", { operation });
      const page: { body: z.infer<typeof schema> } = await this.request("GET", next, { operation, schema, retry: "safe" });
      out.push(...(page.body.results as T[]));
      next = page.body._links?.next?.href ?? null;
    }
    return out;
  }

  getMe() {
    return this.get("users/me", userSchema, "the token check");
  }

  /** The token's workspaces, and a workspace's projects: where Accord's studies go when none is configured. */
  listWorkspaces() {
    return this.listAll("workspaces", workspaceSchema, "listing the workspaces");
  }

  listWorkspaceProjects(workspaceId: string) {
    return this.listAll(`workspaces/${workspaceId}/projects`, workspaceSchema, "listing the workspace's projects");
  }

  getBalance(workspaceId: string) {
    return this.get(`workspaces/${workspaceId}/balance`, balanceSchema, "the workspace balance");
  }

  /** Total cost in minor units, including fees and VAT at the account's rates. */
  async calculateCost(rewardMinor: number, places: number): Promise<number> {
    const { body } = await this.request("POST", "study-cost-calculator", {
      operation: "the cost calculation",
      body: { reward: rewardMinor, total_available_places: places },
      schema: costSchema,
      retry: "safe",
    });
    return body.total_cost;
  }

  async getRewardRecommendations(workspaceId: string, currency: string) {
    const { body } = await this.request("GET", "reward-recommendations", {
      operation: "the reward recommendation",
      query: { workspace_id: workspaceId, currency },
      schema: rewardRecommendationSchema,
      retry: "safe",
    });
    return body;
  }

  async createStudy(study: Record<string, unknown>) {
    return (await this.request("POST", "studies", { operation: "creating a study", body: study, schema: studySchema, retry: "once" })).body;
  }

  /** Creates the researcher's test participant (gated per workspace by Prolific's support; one per researcher). */
  async createTestParticipant(email: string) {
    return (await this.request("POST", "researchers/participants", { operation: "creating a test participant", body: { email }, schema: testParticipantSchema, retry: "once" })).body;
  }

  /** Publishes a copy of a draft study to the workspace's test participants; never repeated blindly (look the copy up first). */
  async createTestStudy(draftStudyId: string) {
    return (await this.request("POST", `studies/${draftStudyId}/test-study`, { operation: "creating a test study", schema: testStudySchema, retry: "once" })).body;
  }

  getStudy(studyId: string) {
    return this.get(`studies/${studyId}`, studySchema, "reading a study");
  }

  /** The studies of a project (every page): used to find a study by its `internal_name` before creating one. */
  listProjectStudies(projectId: string) {
    return this.listAll(`projects/${projectId}/studies`, studySchema, "listing the project's studies");
  }

  async updateStudy(studyId: string, patch: Record<string, unknown>) {
    return (await this.request("PATCH", `studies/${studyId}`, { operation: "updating a study", body: patch, schema: studySchema, retry: "safe" })).body;
  }

  /** PUBLISH is never repeated blindly (re-read the status first); PAUSE, START and STOP are safe to repeat. */
  async transitionStudy(studyId: string, action: StudyAction) {
    const retry: RetryPolicy = action === "PUBLISH" ? "once" : "safe";
    return (await this.request("POST", `studies/${studyId}/transition`, { operation: `${action} of a study`, body: { action }, schema: studySchema, retry })).body;
  }

  listSubmissions(studyId: string) {
    return this.listAll(`studies/${studyId}/submissions`, submissionListItemSchema, "listing a study's submissions");
  }

  getSubmission(submissionId: string) {
    return this.get(`submissions/${submissionId}`, submissionDetailSchema, "reading a submission");
  }

  /** Submission transitions are idempotent per Prolific's docs ([1]): a repeat is ignored. */
  async approveSubmission(submissionId: string) {
    return (await this.request("POST", `submissions/${submissionId}/transition`, { operation: "approving a submission", body: { action: "APPROVE" }, schema: submissionDetailSchema, retry: "safe" })).body;
  }

  /** Asks the participant to return the submission (the participant decides; the submission stays as it is until then). */
  async requestReturn(submissionId: string, reasons: string[]) {
    await this.request("POST", `submissions/${submissionId}/request-return`, { operation: "asking a participant to return", body: { request_return_reasons: reasons }, retry: "safe" });
  }

  async rejectSubmission(submissionId: string, category: RejectionCategory, message: string) {
    if (message.length < MIN_REJECTION_MESSAGE_LENGTH) throw new CrowdError(`A Prolific rejection needs a message of at least ${MIN_REJECTION_MESSAGE_LENGTH} characters (this one has ${message.length}).`, "invalid_parameter");
    return (
      await this.request("POST", `submissions/${submissionId}/transition`, {
        operation: "rejecting a submission",
        body: { action: "REJECT", rejection_category: category, message },
        schema: submissionDetailSchema,
        retry: "safe",
      })
    ).body;
  }

  /** Asynchronous on Prolific's side (success = accepted); batches of ≤ 1,000 sent one after another. */
  async bulkApprove(submissionIds: string[]): Promise<void> {
    for (let i = 0; i < submissionIds.length; i += BULK_APPROVE_BATCH) {
      await this.request("POST", "submissions/bulk-approve", { operation: "approving submissions", body: { submission_ids: submissionIds.slice(i, i + BULK_APPROVE_BATCH) }, retry: "safe" });
    }
  }

  /** Step 1 of a bonus: records it (fees and VAT shown) without paying. Not idempotent: persist the id first. */
  async setUpBonuses(studyId: string, lines: BonusLine[]) {
    const body = { study_id: studyId, csv_bonuses: formatBonusCsv(lines) };
    return (await this.request("POST", "submissions/bonus-payments", { operation: "setting up bonuses", body, schema: bulkBonusSchema, retry: "once" })).body;
  }

  /** Step 2: pays a set-up bonus (asynchronously). Never repeated blindly. */
  async payBonuses(bulkBonusId: string): Promise<void> {
    await this.request("POST", `bulk-bonus-payments/${bulkBonusId}/pay`, { operation: "paying bonuses", retry: "once" });
  }

  async createParticipantGroup(workspaceId: string, name: string, description?: string) {
    return (await this.request("POST", "participant-groups", { operation: "creating a participant group", body: { name, workspace_id: workspaceId, description }, schema: participantGroupSchema, retry: "once" })).body;
  }

  /** Existing members are ignored (idempotent). */
  async addToParticipantGroup(groupId: string, participantIds: string[]): Promise<void> {
    if (participantIds.length === 0) return;
    await this.request("POST", `participant-groups/${groupId}/participants`, { operation: "adding participants to a group", body: { participant_ids: participantIds }, retry: "safe" });
  }

  async removeFromParticipantGroup(groupId: string, participantIds: string[]): Promise<void> {
    if (participantIds.length === 0) return;
    await this.request("DELETE", `participant-groups/${groupId}/participants`, { operation: "removing participants from a group", body: { participant_ids: participantIds }, retry: "safe" });
  }

  listParticipantGroupMembers(groupId: string) {
    return this.listAll(`participant-groups/${groupId}/participants`, groupMemberSchema, "listing a group's participants");
  }

  async sendMessage(recipientId: string, studyId: string, body: string): Promise<void> {
    await this.request("POST", "messages", { operation: "sending a message", body: { recipient_id: recipientId, study_id: studyId, body }, retry: "once" });
  }

  /** Replaces the workspace's one signing secret. */
  async createHookSecret(workspaceId: string) {
    return (await this.request("POST", "hooks/secrets", { operation: "creating the webhook secret", body: { workspace_id: workspaceId }, schema: hookSecretSchema, retry: "once" })).body;
  }

  /** Creates a subscription; its one-time confirmation token comes in the `X-Hook-Secret` header. */
  async createHookSubscription(workspaceId: string, eventType: string, targetUrl: string) {
    const { body, headers } = await this.request("POST", "hooks/subscriptions", {
      operation: "subscribing to webhooks",
      body: { workspace_id: workspaceId, event_type: eventType, target_url: targetUrl },
      schema: hookSubscriptionSchema,
      retry: "once",
      headers: ["x-hook-secret"],
    });
    return { subscription: body, confirmationSecret: headers["x-hook-secret"] };
  }

  async confirmHookSubscription(subscriptionId: string, confirmationSecret: string) {
    return (await this.request("POST", `hooks/subscriptions/${subscriptionId}`, { operation: "confirming a webhook subscription", body: { secret: confirmationSecret }, schema: hookSubscriptionSchema, retry: "safe" })).body;
  }

  private async get<T>(path: string, schema: z.ZodType<T>, operation: string): Promise<T> {
    return (await this.request("GET", path, { operation, schema, retry: "safe" })).body;
  }

  /** An absolute URL (a `_links.next.href`) is used as is; a relative path gets the base URL and a trailing slash. */
  private url(path: string, query?: RequestOptions<unknown>["query"]): string {
    const url = /^https?:\/\//.test(path) ? new URL(path) : new URL(path.replace(/^\/+/, "").replace(/\/*$/, "/"), this.baseUrl);
    // The token goes only to Prolific's own origin, whatever a `next` link says.
    if (url.origin !== new URL(this.baseUrl).origin) throw new CrowdError(`Prolific sent a link to another host (${url.origin}); Accord does not follow it.`, "unknown");
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && !url.searchParams.has(k)) url.searchParams.set(k, String(v));
    return url.toString();
  }
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
