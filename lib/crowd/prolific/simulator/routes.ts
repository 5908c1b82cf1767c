import { z } from "zod";
import { completionCodeSchema, STUDY_ACTIONS } from "../api-types";
import { simStudyCost, SIM_MIN_REWARD_PER_HOUR, SIM_RECOMMENDED_REWARD_PER_HOUR } from "./money";
import { ProlificSimService } from "./service";
import { detailView, routeExtra } from "./routes-extra";
import { badRequest, notFound } from "./sim-error";
import { nextId, type SimStudy, type SimSubmission } from "./state";

export type SimRequest = { method: string; path: string[]; query: URLSearchParams; body: unknown; baseUrl: string };
export type SimResponse = { status: number; body?: unknown; headers?: Record<string, string> };

const filterSchema = z.looseObject({ filter_id: z.string(), selected_values: z.array(z.string()).optional() });

const studyCreateSchema = z.object({
  name: z.string().min(1).max(255),
  internal_name: z.string().nullish(),
  description: z.string().min(1),
  external_study_url: z.url(),
  prolific_id_option: z.enum(["url_parameters", "question", "not_required"]),
  completion_codes: z.array(completionCodeSchema).min(1),
  total_available_places: z.number().int().min(1),
  estimated_completion_time: z.number().int().min(1),
  maximum_allowed_time: z.number().int().min(1).optional(),
  reward: z.number().int().min(0),
  filters: z.array(filterSchema).default([]),
  project: z.string().optional(),
  submissions_config: z.record(z.string(), z.unknown()).default({}),
  device_compatibility: z.array(z.string()).optional(),
});

/** zod issues as Prolific's `detail` object: field → messages. */
function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) (out[issue.path.join(".") || "body"] ??= []).push(issue.message);
  return out;
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body ?? {});
  if (!r.success) throw badRequest(fieldErrors(r.error));
  return r.data;
}

export function studyView(service: ProlificSimService, s: SimStudy) {
  const { reserved: _reserved, ...rest } = s;
  return { ...rest, places_taken: service.placesTaken(s), number_of_submissions: service.submissionsOf(s.id).length, currency_code: service.state.workspace.currency_code, workspace: service.state.workspace.id };
}

const listView = (s: SimSubmission) => ({ id: s.id, participant_id: s.participant_id, status: s.status, started_at: s.started_at, completed_at: s.completed_at, is_complete: s.completed_at !== null, study_code: s.study_code, entered_code: s.study_code, reward: s.reward, bonus_payments: s.bonus_payments });

/** limit/offset paging with `_links.next` as an absolute URL, as Prolific answers. */
function page<T>(req: SimRequest, items: T[]) {
  const limit = Math.min(Math.max(Number(req.query.get("limit") ?? 200) || 200, 1), 1000);
  const offset = Math.max(Number(req.query.get("offset") ?? 0) || 0, 0);
  const results = items.slice(offset, offset + limit);
  const link = (o: number) => {
    const url = new URL(`${req.baseUrl}/api/v1/${req.path.join("/")}/`);
    req.query.forEach((v, k) => url.searchParams.set(k, v));
    url.searchParams.set("limit", String(limit));
    url.searchParams.set("offset", String(o));
    return url.toString();
  };
  return { results, _links: { next: { href: offset + limit < items.length ? link(offset + limit) : null }, previous: { href: offset > 0 ? link(Math.max(0, offset - limit)) : null } }, meta: { count: items.length } };
}

/** Ids are 24 hex characters (shaped like Mongo ObjectIds); any other segment is part of the endpoint's name. */
const isId = (segment: string) => /^[0-9a-f]{24}$/.test(segment);

const ok = (body: unknown, status = 200, headers?: Record<string, string>): SimResponse => ({ status, body, headers });

/** Routes every endpoint of the reference's provider recipe; the method and path decide. */
export function route(service: ProlificSimService, req: SimRequest): SimResponse {
  const { method, path } = req;
  const b = path.find(isId);
  const state = service.state;
  const body = (req.body ?? {}) as Record<string, unknown>;
  const key = `${method} ${path.map((seg) => (isId(seg) ? ":id" : seg)).join("/")}`;

  switch (key) {
    case "GET users/me":
      return ok({ ...state.user, user_type: "researcher", balance: state.workspace.balance, available_balance: service.availableBalance() });
    case "GET workspaces":
      return ok(page(req, [state.workspace]));
    case "GET workspaces/:id/balance":
      requireWorkspace(service, b!);
      return ok({ currency_code: state.workspace.currency_code, total_balance: state.workspace.balance, balance_breakdown: {}, available_balance: service.availableBalance(), available_balance_breakdown: {} });
    case "GET workspaces/:id/projects":
      requireWorkspace(service, b!);
      return ok(page(req, [{ ...state.project, workspace: state.workspace.id }]));
    case "GET projects/:id/studies":
      if (b !== state.project.id) throw notFound("Project");
      return ok(page(req, Object.values(state.studies).map((s) => studyView(service, s))));
    case "POST study-cost-calculator": {
      const input = parse(z.object({ reward: z.number().int().min(0), total_available_places: z.number().int().min(1) }), body);
      return ok({ total_cost: simStudyCost(input.reward, input.total_available_places) });
    }
    case "GET reward-recommendations": {
      const currency = req.query.get("currency") ?? state.workspace.currency_code;
      return ok([{ currency, min_reward_per_hour: SIM_MIN_REWARD_PER_HOUR[currency] ?? 0, recommended_reward_per_hour: SIM_RECOMMENDED_REWARD_PER_HOUR[currency] ?? 0 }]);
    }
    case "GET studies": {
      const published = req.query.get("published");
      const studies = Object.values(state.studies).filter((s) => published === null || (published === "0") === (s.status === "UNPUBLISHED"));
      return ok(page(req, studies.map((s) => studyView(service, s))));
    }
    case "POST studies": {
      const input = parse(studyCreateSchema, body);
      const codes = input.completion_codes.map((x) => x.code);
      if (new Set(codes).size !== codes.length) throw badRequest({ completion_codes: ["Each code must be unique within the study."] });
      const study: SimStudy = {
        ...input,
        id: nextId(state),
        internal_name: input.internal_name ?? null,
        status: "UNPUBLISHED",
        maximum_allowed_time: input.maximum_allowed_time ?? input.estimated_completion_time * 3,
        project: input.project ?? state.project.id,
        date_created: service.nowIso(),
        published_at: null,
        reserved: 0,
      };
      state.studies[study.id] = study;
      service.changed();
      return ok(studyView(service, study), 201);
    }
    case "GET studies/:id":
      return ok(studyView(service, service.study(b!)));
    case "PATCH studies/:id": {
      const study = service.study(b!);
      // A draft takes the fields sent (the schema's defaults would otherwise reset the fields not sent).
      if (study.status === "UNPUBLISHED") Object.assign(study, pickSent(parse(studyCreateSchema.partial(), body), body));
      else service.updatePublished(study, body);
      service.changed();
      return ok(studyView(service, study));
    }
    case "DELETE studies/:id": {
      const study = service.study(b!);
      if (study.status !== "UNPUBLISHED") throw badRequest("Only a draft study can be deleted.");
      delete state.studies[study.id];
      service.changed();
      return ok(undefined, 204);
    }
    case "POST studies/:id/transition": {
      const { action } = parse(z.object({ action: z.enum(STUDY_ACTIONS) }), body);
      const study = service.study(b!);
      service.transitionStudy(study, action);
      return ok(studyView(service, study));
    }
    case "GET studies/:id/submissions":
      service.study(b!);
      return ok(page(req, service.submissionsOf(b!).map(listView)));
    case "GET submissions/:id":
      return ok(detailView(service.submission(b!)));
    case "POST submissions/:id/transition":
      return ok(detailView(service.transitionSubmission(service.submission(b!), body)));
    case "POST submissions/bulk-approve": {
      const { submission_ids } = parse(z.object({ submission_ids: z.array(z.string()).min(1).max(1000) }), body);
      for (const id of submission_ids) {
        const sub = state.submissions[id];
        if (sub?.status === "AWAITING REVIEW") service.transitionSubmission(sub, { action: "APPROVE" });
      }
      return ok("The request to bulk approve has been made successfully.");
    }
    case "POST submissions/bonus-payments": {
      const input = parse(z.object({ study_id: z.string(), csv_bonuses: z.string() }), body);
      const { lines: _lines, paid: _paid, ...record } = service.setUpBonus(input.study_id, input.csv_bonuses);
      return ok(record, 201);
    }
    case "POST bulk-bonus-payments/:id/pay":
      service.payBonus(b!);
      return ok(undefined, 202);
    case "GET filters":
      return ok({ results: FILTERS });
    case "POST eligibility-count":
      return ok({ count: service.eligibleCount(parse(z.object({ filters: z.array(filterSchema).default([]) }), body).filters) });
    default:
      return routeGroupsAndHooks(service, req, key, body);
  }
}

/** The filters the simulator knows ([?] the blocklist ids are Accord's assumption by symmetry). */
const FILTERS = [
  { filter_id: "participant_group_allowlist", title: "Participant group allowlist", type: "select" },
  { filter_id: "participant_group_blocklist", title: "Participant group blocklist", type: "select" },
  { filter_id: "custom_allowlist", title: "Custom allowlist", type: "select" },
  { filter_id: "custom_blocklist", title: "Custom blocklist", type: "select" },
  { filter_id: "previous_studies_blocklist", title: "Previous studies blocklist", type: "select" },
];

function requireWorkspace(service: ProlificSimService, id: string): void {
  if (id !== service.state.workspace.id) throw notFound("Workspace");
}

function routeGroupsAndHooks(service: ProlificSimService, req: SimRequest, key: string, body: Record<string, unknown>): SimResponse {
  const state = service.state;
  const b = req.path.find(isId);
  const group = () => {
    const g = state.groups[b!];
    if (!g || g.is_deleted) throw notFound("Participant group");
    return g;
  };
  const groupView = (g: (typeof state.groups)[string]) => ({ id: g.id, name: g.name, description: g.description, workspace_id: g.workspace_id, participant_count: Object.keys(g.members).length, is_deleted: g.is_deleted });
  const ids = () => parse(z.object({ participant_ids: z.array(z.string()).min(1) }), body).participant_ids;
  switch (key) {
    case "GET participant-groups":
      return ok(page(req, Object.values(state.groups).filter((g) => !g.is_deleted).map(groupView)));
    case "POST participant-groups": {
      const input = parse(z.object({ name: z.string().min(1), workspace_id: z.string().optional(), description: z.string().nullish(), participant_ids: z.array(z.string()).optional() }), body);
      const g = { id: nextId(state), name: input.name, description: input.description ?? "", workspace_id: input.workspace_id ?? state.workspace.id, members: {} as Record<string, string>, is_deleted: false };
      for (const p of input.participant_ids ?? []) g.members[p] = service.nowIso();
      state.groups[g.id] = g;
      service.changed();
      return ok(groupView(g), 201);
    }
    case "GET participant-groups/:id":
      return ok(groupView(group()));
    case "DELETE participant-groups/:id":
      group().is_deleted = true;
      service.changed();
      return ok(undefined, 204);
    case "GET participant-groups/:id/participants":
      return ok(page(req, Object.entries(group().members).map(([participant_id, datetime_created]) => ({ participant_id, datetime_created }))));
    case "POST participant-groups/:id/participants": {
      const g = group();
      for (const p of ids()) g.members[p] ??= service.nowIso();
      service.changed();
      return ok({ results: Object.entries(g.members).map(([participant_id, datetime_created]) => ({ participant_id, datetime_created })) });
    }
    case "DELETE participant-groups/:id/participants": {
      const g = group();
      for (const p of ids()) delete g.members[p];
      service.changed();
      return ok(undefined, 204);
    }
    case "POST messages":
    case "POST messages/bulk": {
      const input =
        key === "POST messages"
          ? parse(z.object({ recipient_id: z.string(), study_id: z.string(), body: z.string().min(1) }), body)
          : { ...parse(z.object({ ids: z.array(z.string()).min(1), study_id: z.string(), body: z.string().min(1) }), body), recipient_id: "" };
      const recipients = key === "POST messages" ? [input.recipient_id] : (body.ids as string[]);
      const known = new Set(Object.values(state.submissions).map((s) => s.participant_id));
      const strangers = recipients.filter((r) => !known.has(r));
      if (strangers.length) throw badRequest({ recipient_id: [`You can only message participants who took part in one of your studies: ${strangers.join(", ")}`] });
      for (const r of recipients) state.messages.push({ id: nextId(state), sender_id: state.user.id, recipient_id: r, study_id: input.study_id, body: input.body, sent_at: service.nowIso() });
      service.changed();
      return ok({ message: "The message has been sent" }, 201);
    }
    case "GET messages":
      return ok({ results: state.messages.filter((m) => m.recipient_id === req.query.get("user_id") || (req.query.get("created_after") ?? "\uffff") <= m.sent_at) });
    case "GET hooks/event-types":
      return ok({ results: [{ event_type: "submission.status.change" }, { event_type: "study.status.change" }] });
    case "POST hooks/secrets": {
      state.hookSecret = { id: nextId(state), value: `${nextId(state)}${nextId(state)}` };
      service.changed();
      return ok({ ...state.hookSecret, workspace_id: state.workspace.id }, 201);
    }
    case "GET hooks/secrets":
      return ok({ results: state.hookSecret ? [{ ...state.hookSecret, workspace_id: state.workspace.id }] : [] });
    case "GET hooks/subscriptions":
      return ok({ results: Object.values(state.subscriptions).map(({ confirmation: _c, ...s }) => s) });
    case "POST hooks/subscriptions": {
      const input = parse(z.object({ workspace_id: z.string(), event_type: z.enum(["submission.status.change", "study.status.change"]), target_url: z.url() }), body);
      const sub = { id: nextId(state), ...input, is_enabled: false, confirmation: nextId(state) };
      state.subscriptions[sub.id] = sub;
      service.changed();
      const { confirmation, ...view } = sub;
      return ok(view, 201, { "X-Hook-Secret": confirmation });
    }
    case "POST hooks/subscriptions/:id": {
      const sub = state.subscriptions[b!];
      if (!sub) throw notFound("Subscription");
      if (parse(z.object({ secret: z.string() }), body).secret !== sub.confirmation) throw badRequest({ secret: ["The secret does not match."] });
      sub.is_enabled = true;
      service.changed();
      const { confirmation: _c, ...view } = sub;
      return ok(view);
    }
    case "DELETE hooks/subscriptions/:id":
      if (!state.subscriptions[b!]) throw notFound("Subscription");
      delete state.subscriptions[b!];
      service.changed();
      return ok(undefined, 204);
    case "GET hooks/subscriptions/:id/events":
      return ok(page(req, state.deliveries.filter((d) => d.subscription_id === b).map((d) => ({ id: d.id, event_type: d.event_type, resource_id: d.resource_id, status: d.status }))));
    default:
      return routeExtra(service, req, key, body);
  }
}

/** The parsed fields the request actually carried. */
function pickSent<T extends object>(parsed: T, body: unknown): Partial<T> {
  const sent = new Set(Object.keys(typeof body === "object" && body !== null ? body : {}));
  return Object.fromEntries(Object.entries(parsed).filter(([k]) => sent.has(k))) as Partial<T>;
}
