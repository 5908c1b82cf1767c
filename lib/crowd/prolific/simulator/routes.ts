import { z } from "zod";
import { STUDY_ACTIONS } from "../api-types";
import { CODE_ACTIONS, CODE_TYPES, DEMOGRAPHIC_FILTERS, DEVICES, EVENT_TYPE_NAMES, EVENT_TYPES, filterCatalogue, LIST_FILTER_IDS, PERIPHERALS } from "./catalogue";
import { simStudyCost, SIM_MIN_REWARD_PER_HOUR, SIM_RECOMMENDED_REWARD_PER_HOUR } from "./money";
import { ProlificSimService } from "./service";
import { routeExtra } from "./routes-extra";
import { detailView, groupView, listView, projectWorkspace, studyView } from "./views";
import { badRequest, notFound } from "./sim-error";
import { listMessages, parseBool, studyListFilter } from "./query";
import { isId, parse } from "./request";
import { nextId, type SimStudy } from "./state";

export type SimRequest = { method: string; path: string[]; query: URLSearchParams; body: unknown; baseUrl: string };
export type SimResponse = { status: number; body?: unknown; headers?: Record<string, string> };

const KNOWN_FILTERS = new Set<string>([...LIST_FILTER_IDS, ...DEMOGRAPHIC_FILTERS.map((f) => f.filter_id)]);
const rangeSchema = z.object({ lower: z.number().nullish(), upper: z.number().nullish() }).refine((r) => r.lower == null || r.upper == null || r.lower <= r.upper, "lower must not exceed upper");
const filterSchema = z
  .looseObject({ filter_id: z.string(), selected_values: z.array(z.string()).optional(), selected_range: rangeSchema.optional() })
  .refine((f) => KNOWN_FILTERS.has(f.filter_id), { message: "Unknown filter_id: see GET /api/v1/filters/.", path: ["filter_id"] });

/** Completion codes: the documented code types and actions ([2+]); a group action names its group. */
const completionCodeSchema = z.looseObject({
  code: z.string().min(1),
  code_type: z.enum(CODE_TYPES),
  actor: z.enum(["participant", "researcher"]).default("participant"),
  actions: z
    .array(z.looseObject({ action: z.enum(CODE_ACTIONS), participant_group: z.string().optional(), return_reason: z.string().optional() }).refine((a) => !a.action.endsWith("_PARTICIPANT_GROUP") || !!a.participant_group, { message: "participant_group is required for this action.", path: ["participant_group"] }))
    .default([]),
});

const submissionsConfigSchema = z.looseObject({
  max_submissions_per_participant: z.number().int().min(-1).optional(),
  max_concurrent_submissions: z.number().int().min(-1).optional(),
  auto_rejection_categories: z.array(z.enum(["EXCEPTIONALLY_FAST"])).optional(),
});

const studyCreateSchema = z.object({
  name: z.string().min(1).max(255),
  internal_name: z.string().nullish(),
  description: z.string().min(1),
  // Taskflow studies send access_details instead ([2+] create body); one of the two is required (checkStudyInput).
  external_study_url: z.url().optional(),
  access_details: z.array(z.looseObject({ external_url: z.url(), total_allocation: z.number().int().min(1) })).min(1).nullish(),
  prolific_id_option: z.enum(["url_parameters", "question", "not_required"]),
  completion_codes: z.array(completionCodeSchema).min(1),
  total_available_places: z.number().int().min(1),
  estimated_completion_time: z.number().int().min(1),
  maximum_allowed_time: z.number().int().min(1).optional(),
  reward: z.number().int().min(0),
  filters: z.array(filterSchema).default([]),
  filter_set_id: z.string().nullish(),
  filter_set_version: z.number().int().nullish(),
  project: z.string().optional(),
  submissions_config: submissionsConfigSchema.default({}),
  device_compatibility: z.array(z.enum(DEVICES)).optional(),
  peripheral_requirements: z.array(z.enum(PERIPHERALS)).optional(),
  naivety_distribution_rate: z.number().min(0).max(1).nullish(),
  study_labels: z.array(z.string()).max(1).optional(),
  // Rarely needed fields ([1–2]): kept and answered as sent.
  publish_at: z.iso.datetime({ offset: true }).nullish(),
  metadata: z.unknown().optional(),
  content_warnings: z.array(z.unknown()).nullish(),
  credential_pool_id: z.string().nullish(),
  study_type: z.enum(["SINGLE", "QUOTA"]).optional(),
  is_external_study_url_secure: z.boolean().optional(),
  data_collection_method: z.string().nullish(),
  data_collection_id: z.string().nullish(),
  data_collection_metadata: z.unknown().optional(),
});

/** `filter_set_id` and `filters` are alternatives; a study URL or access details; the project must be one the token sees. */
function checkStudyInput(service: ProlificSimService, input: { filters?: unknown[]; filter_set_id?: string | null; project?: string; external_study_url?: string; access_details?: unknown[] | null }): void {
  if (input.filter_set_id && input.filters?.length) throw badRequest({ filter_set_id: ["filter_set_id cannot be combined with filters."] });
  if (!input.external_study_url && !input.access_details?.length) throw badRequest({ external_study_url: ["This field is required (or access_details for a taskflow study)."] });
  if (input.project !== undefined && input.project !== service.state.project.id && !service.state.projects?.[input.project]) throw badRequest({ project: ["Project not found."] });
}


/** limit/offset paging with `_links.next` as an absolute URL, as Prolific answers. */
export function page<T>(req: SimRequest, items: T[]) {
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
  const last = Math.max(0, Math.ceil(items.length / limit) - 1) * limit;
  return {
    results,
    _links: { self: { href: link(offset), title: "Current" }, next: { href: offset + limit < items.length ? link(offset + limit) : null, title: "Next" }, previous: { href: offset > 0 ? link(Math.max(0, offset - limit)) : null, title: "Previous" }, last: { href: link(last), title: "Last" } },
    meta: { count: items.length },
  };
}


const ok = (body: unknown, status = 200, headers?: Record<string, string>): SimResponse => ({ status, body, headers });

/** Routes every endpoint of the reference's provider recipe; the method and path decide. */
export function route(service: ProlificSimService, req: SimRequest): SimResponse {
  const { path } = req;
  // The element style takes PUT as well as PATCH ([2+] URL style): both update what the body carries.
  const method = req.method === "PUT" ? "PATCH" : req.method;
  const b = path.find(isId);
  const state = service.state;
  const body = (req.body ?? {}) as Record<string, unknown>;
  const key = `${method} ${path.map((seg) => (isId(seg) ? ":id" : seg)).join("/")}`;

  switch (key) {
    case "GET users/me":
      return ok({ ...state.user, name: "Accord Researcher", first_name: "Accord", last_name: "Researcher", username: state.user.email, user_type: "researcher", balance: state.workspace.balance, available_balance: service.availableBalance() });
    case "GET projects/:id/studies":
      projectById(service, b!);
      return ok(page(req, Object.values(state.studies).filter((s) => s.project === b).map((s) => studyView(service, s))));
    case "POST study-cost-calculator": {
      const input = parse(z.object({ reward: z.number().int().min(0), total_available_places: z.number().int().min(1) }), body);
      return ok({ total_cost: simStudyCost(input.reward, input.total_available_places) });
    }
    case "GET reward-recommendations": {
      const currency = req.query.get("currency") ?? state.workspace.currency_code;
      if (!(currency in SIM_MIN_REWARD_PER_HOUR)) throw badRequest({ currency: [`"${currency}" is not one of GBP, USD.`] });
      return ok([{ currency, min_reward_per_hour: SIM_MIN_REWARD_PER_HOUR[currency] ?? 0, recommended_reward_per_hour: SIM_RECOMMENDED_REWARD_PER_HOUR[currency] ?? 0 }]);
    }
    case "GET studies": {
      const keep = studyListFilter(req.query);
      return ok(page(req, Object.values(state.studies).filter(keep).map((s) => studyView(service, s))));
    }
    case "POST studies": {
      const input = parse(studyCreateSchema, body);
      checkStudyInput(service, input);
      const codes = input.completion_codes.map((x) => x.code);
      if (new Set(codes).size !== codes.length) throw badRequest({ completion_codes: ["Each code must be unique within the study."] });
      const study: SimStudy = {
        ...input,
        id: nextId(state),
        // Participants open the first access URL of a taskflow study.
        external_study_url: input.external_study_url ?? input.access_details![0]!.external_url,
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
      if (study.status === "UNPUBLISHED") {
        const input = pickSent(parse(studyCreateSchema.partial(), body), body);
        checkStudyInput(service, { filters: input.filters ?? study.filters, filter_set_id: "filter_set_id" in input ? input.filter_set_id : study.filter_set_id, project: input.project, external_study_url: input.external_study_url ?? study.external_study_url });
        Object.assign(study, input);
      } else service.updatePublished(study, body);
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
      // Two alternative bodies: submission ids (from any study), or a study and its participants.
      const input = parse(z.union([z.object({ submission_ids: z.array(z.string()).min(1).max(1000) }), z.object({ study_id: z.string(), participant_ids: z.array(z.string()).min(1).max(1000) })]), body);
      const subs = "submission_ids" in input ? input.submission_ids.map((id) => state.submissions[id]) : service.submissionsOf(service.study(input.study_id).id).filter((s) => input.participant_ids.includes(s.participant_id));
      for (const sub of subs) {
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
      return ok({ results: filterCatalogue(Object.fromEntries(Object.values(state.groups).filter((g) => !g.is_deleted).map((g) => [g.id, g.name])), Object.fromEntries(Object.values(state.studies).map((s) => [s.id, s.name]))) });
    case "POST eligibility-count":
      return ok({ count: service.eligibleCount(parse(z.object({ filters: z.array(filterSchema).default([]) }), body).filters) });
    default:
      return routeGroupsAndHooks(service, req, key, body);
  }
}

/** A workspace the token sees (the primary one or one created through the API), else 404. */
function knownWorkspace(service: ProlificSimService, id: string): void {
  if (id !== service.state.workspace.id && !service.state.workspaces?.[id]) throw notFound("Workspace");
}

/** The primary project or one created through the API. */
function projectById(service: ProlificSimService, id: string) {
  const state = service.state;
  if (id === state.project.id) return state.project;
  const p = state.projects?.[id];
  if (!p) throw notFound("Project");
  return p;
}

function routeGroupsAndHooks(service: ProlificSimService, req: SimRequest, key: string, body: Record<string, unknown>): SimResponse {
  const state = service.state;
  const b = req.path.find(isId);
  const group = () => {
    const g = state.groups[b!];
    if (!g || g.is_deleted) throw notFound("Participant group");
    return g;
  };
  const ids = () => parse(z.object({ participant_ids: z.array(z.string()).min(1) }), body).participant_ids;
  switch (key) {
    case "GET participant-groups": {
      // ?workspace_id= (or the deprecated ?project_id=); deleted groups are not listed.
      // `is_active=false` lists the (soft-)deleted ones instead ([2+] list filter; [1] Mephisto: deletion is soft).
      const ws = req.query.get("workspace_id");
      const project = req.query.get("project_id");
      const rawActive = req.query.get("is_active");
      const active = rawActive === null ? true : parseBool(rawActive, "is_active");
      const groups = Object.values(state.groups).filter((g) => g.is_deleted !== active && (!ws || g.workspace_id === ws) && (!project || g.project_id === project || (!g.project_id && projectWorkspace(state, project) === g.workspace_id)));
      return ok(page(req, groups.map((g) => groupView(state, g))));
    }
    case "POST participant-groups": {
      const input = parse(z.object({ name: z.string().min(1), workspace_id: z.string().optional(), organisation_id: z.string().optional(), project_id: z.string().optional(), description: z.string().nullish(), participant_ids: z.array(z.string()).optional() }), body);
      const workspace = input.workspace_id ?? (input.project_id ? projectWorkspace(state, input.project_id) : state.workspace.id);
      const g = { id: nextId(state), name: input.name, description: input.description ?? "", workspace_id: workspace, organisation_id: input.organisation_id ?? null, project_id: input.project_id ?? null, members: {} as Record<string, string>, is_deleted: false };
      for (const p of input.participant_ids ?? []) g.members[p] = service.nowIso();
      state.groups[g.id] = g;
      service.changed();
      return ok(groupView(state, g), 201);
    }
    case "GET participant-groups/:id":
      return ok(groupView(state, group()));
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
      return ok({ results: listMessages(service, req.query) });
    case "GET hooks/event-types":
      return ok({ results: EVENT_TYPES.map((e) => ({ ...e })) });
    case "POST hooks/secrets": {
      // One active secret per workspace: a new one replaces the old ([2+]).
      const ws = parse(z.object({ workspace_id: z.string().optional() }), body).workspace_id ?? state.workspace.id;
      knownWorkspace(service, ws);
      const secret = { id: nextId(state), value: `${nextId(state)}${nextId(state)}` };
      if (ws === state.workspace.id) state.hookSecret = secret;
      else (state.hookSecrets ??= {})[ws] = secret;
      service.changed();
      return ok({ ...secret, workspace_id: ws }, 201);
    }
    case "GET hooks/secrets": {
      const ws = req.query.get("workspace_id");
      const all = [[state.workspace.id, state.hookSecret] as const, ...Object.entries(state.hookSecrets ?? {})];
      return ok({ results: all.filter(([w, secret]) => secret && (!ws || ws === w)).map(([w, secret]) => ({ ...secret!, workspace_id: w })) });
    }
    case "GET hooks/subscriptions": {
      const ws = req.query.get("workspace_id");
      const enabled = req.query.get("is_enabled");
      const wanted = enabled === null ? null : parseBool(enabled, "is_enabled");
      const subs = Object.values(state.subscriptions).filter((s) => (!ws || s.workspace_id === ws) && (wanted === null || s.is_enabled === wanted)).map(({ confirmation: _c, ...s }) => s);
      // limit/offset as the other lists ([1]); the answer has no _links or meta ([1] the CLI's response struct).
      const paged = req.query.has("limit") || req.query.has("offset");
      return ok({ results: paged ? page(req, subs).results : subs });
    }
    case "POST hooks/subscriptions": {
      const input = parse(z.object({ workspace_id: z.string(), event_type: z.enum(EVENT_TYPE_NAMES), target_url: z.url() }), body);
      knownWorkspace(service, input.workspace_id);
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
    case "GET hooks/subscriptions/:id/events": {
      const sub = state.subscriptions[b!];
      if (!sub) throw notFound("Subscription");
      const status = req.query.get("status")?.toUpperCase();
      const events = state.deliveries.filter((d) => d.subscription_id === b && (!status || d.status === status));
      return ok(page(req, events.map((d) => ({ id: d.id, datetime_created: d.created_at ?? null, datetime_updated: d.updated_at ?? null, event_type: d.event_type, resource_id: d.resource_id, status: d.status, target_url: sub.target_url }))));
    }
    default:
      return routeExtra(service, req, key, body);
  }
}

/** The parsed fields the request actually carried. */
function pickSent<T extends object>(parsed: T, body: unknown): Partial<T> {
  const sent = new Set(Object.keys(typeof body === "object" && body !== null ? body : {}));
  return Object.fromEntries(Object.entries(parsed).filter(([k]) => sent.has(k))) as Partial<T>;
}
