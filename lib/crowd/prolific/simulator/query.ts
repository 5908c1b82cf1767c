import type { ProlificSimService } from "./service";
import { badRequest } from "./sim-error";
import type { SimStudy, SimSubmission } from "./state";
import { STUDY_STATUSES, type StudyStatus } from "../api-types";

/** Query-parameter handling shared by the list endpoints. */

const TRUE = new Set(["1", "true", "yes", "t", "y", "on"]);
const FALSE = new Set(["0", "false", "no", "f", "n", "off"]);

/** Prolific's boolean query values (`1/0/true/false/yes/no/t/f`); anything else is a 400 naming the parameter. */
export function parseBool(raw: string, name: string): boolean {
  const v = raw.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw badRequest({ [name]: [`"${raw}" is not a boolean (use 1/0, true/false, yes/no or t/f).`] });
}

/** GET /submissions/'s boolean filters, each a test on one submission. */
const SUBMISSION_FLAGS: Record<string, (s: SimSubmission) => boolean> = {
  completed: (s) => s.completed_at !== null,
  returned: (s) => s.status === "RETURNED",
  awaiting_review: (s) => s.status === "AWAITING REVIEW",
  approved: (s) => s.status === "APPROVED",
  active: (s) => s.status === "ACTIVE" || s.status === "RESERVED",
  timeout: (s) => s.status === "TIMED-OUT",
};

export function submissionFlagsMatch(query: URLSearchParams, sub: SimSubmission): boolean {
  return Object.entries(SUBMISSION_FLAGS).every(([name, test]) => {
    const raw = query.get(name);
    return raw === null || test(sub) === parseBool(raw, name);
  });
}

/** Checks every boolean filter's value once, so a bad one is refused even when no submission exists. */
export function checkSubmissionFlags(query: URLSearchParams): void {
  for (const name of Object.keys(SUBMISSION_FLAGS)) {
    const raw = query.get(name);
    if (raw !== null) parseBool(raw, name);
  }
}

const ORDER_FIELDS = new Set(["started_at", "completed_at", "status", "id", "participant_id", "study_id"]);

/** Django-style `ordering=field` or `-field` (comma-separated); unknown fields are ignored, as Django REST does. */
export function orderSubmissions(subs: SimSubmission[], ordering: string | null): SimSubmission[] {
  if (!ordering) return subs;
  const keys = ordering
    .split(",")
    .map((k) => k.trim())
    .filter((k) => ORDER_FIELDS.has(k.replace(/^-/, "")));
  const value = (s: SimSubmission, f: string) => String((s as Record<string, unknown>)[f] ?? "");
  return [...subs].sort((a, b) => {
    for (const k of keys) {
      const f = k.replace(/^-/, "");
      const c = value(a, f).localeCompare(value(b, f));
      if (c) return k.startsWith("-") ? -c : c;
    }
    return 0;
  });
}

const THIRTY_DAYS_MS = 30 * 24 * 3600 * 1000;

/** GET /messages/: `user_id` or `created_after` is required; both narrow; the last 30 days at most. */
export function listMessages(service: ProlificSimService, query: URLSearchParams) {
  const userId = query.get("user_id");
  const after = query.get("created_after");
  if (!userId && !after) throw badRequest({ user_id: ["Either user_id or created_after is required."] });
  const afterMs = after ? Date.parse(after) : -Infinity;
  if (Number.isNaN(afterMs)) throw badRequest({ created_after: [`"${after}" is not an ISO-8601 date.`] });
  const since = Math.max(afterMs, service.clock.now() - THIRTY_DAYS_MS);
  return service.state.messages
    .filter((m) => (!userId || m.recipient_id === userId || m.sender_id === userId) && Date.parse(m.sent_at) >= since)
    .map((m) => ({
      id: m.id,
      sender_id: m.sender_id,
      recipient_id: m.recipient_id,
      body: m.body,
      sent_at: m.sent_at,
      datetime_created: m.sent_at,
      channel_id: [m.sender_id, m.recipient_id].sort().join("_"),
      type: "message",
      data: { study_id: m.study_id || null, category: "other" },
    }));
}

/**
 * GET /studies/'s filters: `published=0|1` and `active=1`, `completed=1` ([1] the CLI), `state=<status>` ([1] Potato;
 * case-insensitive, `_` for the space). A bad value is a 400 naming the parameter.
 */
export function studyListFilter(query: URLSearchParams): (s: SimStudy) => boolean {
  const flag = (name: string) => {
    const raw = query.get(name);
    return raw === null ? null : parseBool(raw, name);
  };
  const published = flag("published");
  const active = flag("active");
  const completed = flag("completed");
  const rawState = query.get("state");
  const state = rawState === null ? null : rawState.trim().toUpperCase().replace(/_/g, " ");
  if (state !== null && !(STUDY_STATUSES as readonly string[]).includes(state)) throw badRequest({ state: [`"${rawState}" is not a study status.`] });
  return (s) =>
    (published === null || published === (s.status !== "UNPUBLISHED")) &&
    (active === null || active === (s.status === "ACTIVE")) &&
    (completed === null || completed === (s.status === "COMPLETED")) &&
    (state === null || s.status === (state as StudyStatus));
}
