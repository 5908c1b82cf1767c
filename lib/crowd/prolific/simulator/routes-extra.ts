import { z } from "zod";
import { isId, parse } from "./request";
import { SUBMISSION_STATUSES, type SubmissionStatus } from "../api-types";
import { EVENT_TYPE_NAMES } from "./catalogue";
import { simFee, simStudyCost, simVat } from "./money";
import type { SimRequest, SimResponse } from "./routes";
import type { ProlificSimService } from "./service";
import { badRequest, notFound, ProlificSimError } from "./sim-error";
import { checkSubmissionFlags, orderSubmissions, submissionFlagsMatch } from "./query";
import { routeWorkspaces } from "./routes-workspaces";
import { nextId } from "./state";
import { createTestParticipant, createTestStudy } from "./test-mode";
import { detailView, groupView, studyView } from "./views";

/** The reference's endpoints beyond the provider's own calls: submission lists and counts, costs, returns, hooks, messages. */



/** `AWAITING_REVIEW`, `awaiting review`, `TIMED_OUT` → Prolific's spelling (the status filter normalises underscores). */
export function normaliseStatus(raw: string): SubmissionStatus | null {
  const s = raw.trim().toUpperCase().replace(/_/g, " ");
  const spelled = s === "TIMED OUT" ? "TIMED-OUT" : s;
  return (SUBMISSION_STATUSES as readonly string[]).includes(spelled) ? (spelled as SubmissionStatus) : null;
}


/** page/page_size paging of GET /submissions/ ([1] docs: default page size 20). */
function pageNumbered<T>(req: SimRequest, items: T[]) {
  const size = Math.min(Math.max(Number(req.query.get("page_size") ?? 20) || 20, 1), 200);
  const pageNo = Math.max(Number(req.query.get("page") ?? 1) || 1, 1);
  const link = (n: number) => {
    const url = new URL(`${req.baseUrl}/api/v1/${req.path.join("/")}/`);
    req.query.forEach((v, k) => url.searchParams.set(k, v));
    url.searchParams.set("page", String(n));
    url.searchParams.set("page_size", String(size));
    return url.toString();
  };
  const last = Math.max(1, Math.ceil(items.length / size));
  return {
    results: items.slice((pageNo - 1) * size, pageNo * size),
    _links: { self: { href: link(pageNo), title: "Current" }, next: { href: pageNo < last ? link(pageNo + 1) : null, title: "Next" }, previous: { href: pageNo > 1 ? link(pageNo - 1) : null, title: "Previous" }, last: { href: link(last), title: "Last" } },
    meta: { count: items.length },
  };
}

/** Every path the simulator routes (routes*.ts; a test keeps this in step): another method on one of them is a 405. */
export const KNOWN_PATHS: ReadonlySet<string> = new Set(
  (
    "bulk-bonus-payments/:id/pay eligibility-count filters hooks/event-types hooks/secrets hooks/subscriptions hooks/subscriptions/:id " +
    "hooks/subscriptions/:id/events messages messages/bulk messages/participant-group messages/unread participant-groups participant-groups/:id " +
    "participant-groups/:id/participants projects/:id projects/:id/studies researchers/participants reward-recommendations studies studies/:id " +
    "studies/:id/clone studies/:id/cost studies/:id/screen-out-submissions studies/:id/submissions studies/:id/submissions/counts studies/:id/test-study studies/:id/transition study-cost-calculator " +
    "submissions submissions/:id submissions/:id/request-return submissions/:id/transition submissions/bonus-payments submissions/bulk-approve " +
    "users/me workspaces workspaces/:id workspaces/:id/balance workspaces/:id/projects"
  ).split(" "),
);

const money = (amount: number, currency: string) => ({ amount, currency });

export function routeExtra(service: ProlificSimService, req: SimRequest, key: string, body: Record<string, unknown>): SimResponse {
  const state = service.state;
  const id = req.path.find(isId);
  const currency = state.workspace.currency_code;
  switch (key) {
    case "GET submissions": {
      const study = req.query.get("study");
      const rawStatus = req.query.get("status");
      const status = rawStatus === null ? null : normaliseStatus(rawStatus);
      if (rawStatus !== null && status === null) throw badRequest({ status: [`"${rawStatus}" is not a submission status.`] });
      checkSubmissionFlags(req.query);
      const subs = Object.values(state.submissions).filter((s) => (!study || s.study_id === study) && (!status || s.status === status) && submissionFlagsMatch(req.query, s));
      return { status: 200, body: pageNumbered(req, orderSubmissions(subs, req.query.get("ordering")).map(detailView)) };
    }
    case "GET studies/:id/submissions/counts": {
      const counts: Record<string, number> = {};
      for (const s of SUBMISSION_STATUSES) if (s !== "PROCESSING") counts[s] = 0;
      const subs = service.submissionsOf(service.study(id!).id);
      for (const s of subs) counts[s.status] = (counts[s.status] ?? 0) + 1;
      return { status: 200, body: { ...counts, TOTAL: subs.length } };
    }
    case "GET studies/:id/cost": {
      const study = service.study(id!);
      const projected = ["true", "1"].includes(req.query.get("is_projected") ?? "");
      const debits = state.debits.filter((d) => d.study_id === study.id);
      const sum = (kind: string) => debits.filter((d) => d.kind === kind).reduce((s, d) => s + d.amount, 0);
      const rewards = projected ? study.reward * study.total_available_places : sum("reward");
      const rewardFees = projected ? simStudyCost(study.reward, study.total_available_places) - rewards : sum("fee");
      return {
        status: 200,
        body: {
          rewards: { rewards: money(rewards, currency), fees: money(rewardFees, currency), tax: money(projected ? simVat(simFee(rewards)) : 0, currency) },
          bonuses: { bonuses: money(sum("bonus"), currency), fees: money(sum("bonus_fee"), currency), tax: money(0, currency) },
        },
      };
    }
    case "POST submissions/:id/request-return": {
      const { request_return_reasons } = parse(z.object({ request_return_reasons: z.array(z.string().min(1)).min(1) }), body);
      const sub = service.requestReturn(service.submission(id!), request_return_reasons);
      return { status: 200, body: { id: sub.id, status: sub.status, participant: sub.participant_id, return_requested: sub.return_requested } };
    }
    case "PATCH participant-groups/:id": {
      const g = state.groups[id!];
      if (!g || g.is_deleted) throw notFound("Participant group");
      const input = parse(z.object({ name: z.string().min(1).optional(), description: z.string().nullish() }), body);
      if (input.name !== undefined) g.name = input.name;
      if (input.description !== undefined) g.description = input.description ?? "";
      service.changed();
      return { status: 200, body: groupView(state, g) };
    }
    case "GET hooks/subscriptions/:id":
    case "PATCH hooks/subscriptions/:id": {
      const sub = state.subscriptions[id!];
      if (!sub) throw notFound("Subscription");
      if (key.startsWith("PATCH")) {
        const input = parse(z.object({ event_type: z.enum(EVENT_TYPE_NAMES).optional(), target_url: z.url().optional(), is_enabled: z.boolean().optional() }), body);
        Object.assign(sub, Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)));
        service.changed();
      }
      const { confirmation: _c, ...view } = sub;
      return { status: 200, body: view };
    }
    case "POST messages/participant-group": {
      const input = parse(z.object({ participant_group_id: z.string(), body: z.string().min(1), study_id: z.string().optional() }), body);
      const g = state.groups[input.participant_group_id];
      if (!g || g.is_deleted) throw notFound("Participant group");
      for (const r of Object.keys(g.members)) state.messages.push({ id: nextId(state), sender_id: state.user.id, recipient_id: r, study_id: input.study_id ?? "", body: input.body, sent_at: service.nowIso() });
      service.changed();
      return { status: 201, body: { message: "The message has been sent" } };
    }
    case "GET messages/unread":
      // The researcher receives no messages from simulated participants.
      return { status: 200, body: { results: [] } };
    case "POST studies/:id/clone": {
      // [1] the CLI: a copy as a new draft (answered 200 with the copy).
      const source = service.study(id!);
      const { reserved: _r, high_return_rate_sent: _h, test_of: _t, ...fields } = structuredClone(source);
      const copy = { ...fields, id: nextId(state), status: "UNPUBLISHED" as const, date_created: service.nowIso(), published_at: null, reserved: 0 };
      state.studies[copy.id] = copy;
      service.changed();
      return { status: 200, body: studyView(service, copy) };
    }
    case "POST studies/:id/screen-out-submissions": {
      // [1] Potato: paid screen-out of ACTIVE submissions; the answer's shape is not documented (the simulator lists them).
      const input = parse(z.object({ submission_ids: z.array(z.string()).min(1), increase_places: z.boolean().default(false) }), body);
      const subs = service.screenOut(service.study(id!), input.submission_ids, input.increase_places);
      return { status: 200, body: { results: subs.map(detailView) } };
    }
    case "POST researchers/participants":
      return createTestParticipant(service, body);
    case "POST studies/:id/test-study":
      return createTestStudy(service, id!, req.baseUrl);
    default: {
      const out = routeWorkspaces(service, req, key, body);
      if (out) return out;
      const pattern = key.slice(key.indexOf(" ") + 1);
      if (KNOWN_PATHS.has(pattern)) throw new ProlificSimError(405, "Method not allowed", `${req.method} is not allowed on ${pattern.replace(/:id/g, "{id}")}.`);
      throw new ProlificSimError(404, "Not found", `No endpoint ${key.replace(/:id/g, "{id}")}.`);
    }
  }
}
