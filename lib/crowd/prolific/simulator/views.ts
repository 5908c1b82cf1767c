import { simFee, simVat, simStudyCost, SIM_FEE_BASIS_POINTS, SIM_MIN_REWARD_PER_HOUR, SIM_VAT_BASIS_POINTS } from "./money";
import type { ProlificSimService } from "./service";
import type { ProlificSimState, SimGroup, SimStudy, SimSubmission } from "./state";

/** The simulator's answers in Prolific's response formats (the reference's field lists). */

const COMPLETED_STATUSES = new Set(["AWAITING REVIEW", "APPROVED", "REJECTED", "PARTIALLY APPROVED"]);

/** Seconds from start to completion (Prolific's `time_taken`), null while the submission is not complete. */
export function timeTaken(s: SimSubmission): number | null {
  return s.completed_at === null ? null : Math.round((Date.parse(s.completed_at) - Date.parse(s.started_at)) / 1000);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const SUBMISSIONS_CONFIG_DEFAULTS = { max_submissions_per_participant: 1, max_concurrent_submissions: -1, auto_rejection_categories: [] as string[] };

export function studyView(service: ProlificSimService, s: SimStudy) {
  const { reserved: _reserved, high_return_rate_sent: _sent, ...rest } = s;
  const state = service.state;
  const currency = state.workspace.currency_code;
  const subs = service.submissionsOf(s.id);
  const times = subs.filter((x) => COMPLETED_STATUSES.has(x.status)).map(timeTaken).filter((t): t is number => t !== null && t > 0);
  const perHour = (seconds: number) => Math.round((s.reward * 3600) / seconds);
  const minimum = SIM_MIN_REWARD_PER_HOUR[currency] ?? 0;
  const fee = simFee(s.reward);
  return {
    ...rest,
    submissions_config: { ...SUBMISSIONS_CONFIG_DEFAULTS, ...s.submissions_config },
    device_compatibility: s.device_compatibility ?? [],
    peripheral_requirements: s.peripheral_requirements ?? [],
    naivety_distribution_rate: s.naivety_distribution_rate ?? null,
    study_labels: s.study_labels ?? [],
    filter_set_id: s.filter_set_id ?? null,
    filter_set_version: s.filter_set_version ?? null,
    publish_at: s.publish_at ?? null,
    access_details: s.access_details ?? null,
    metadata: s.metadata ?? null,
    content_warnings: s.content_warnings ?? [],
    credential_pool_id: s.credential_pool_id ?? null,
    is_external_study_url_secure: s.is_external_study_url_secure ?? false,
    data_collection_method: s.data_collection_method ?? null,
    data_collection_id: s.data_collection_id ?? null,
    data_collection_metadata: s.data_collection_metadata ?? null,
    places_taken: service.placesTaken(s),
    number_of_submissions: subs.length,
    currency_code: currency,
    presentment_currency_code: currency,
    workspace: projectWorkspace(state, s.project),
    total_cost: simStudyCost(s.reward, s.total_available_places),
    fees_percentage: SIM_FEE_BASIS_POINTS / 100,
    service_margin_percentage: SIM_FEE_BASIS_POINTS / 100,
    vat_percentage: SIM_VAT_BASIS_POINTS / 100,
    fees_per_submission: fee + simVat(fee),
    estimated_reward_per_hour: Math.round((s.reward * 60) / s.estimated_completion_time),
    average_reward_per_hour: times.length ? perHour(times.reduce((a, b) => a + b, 0) / times.length) : 0,
    minimum_reward_per_hour: minimum,
    // Prolific rechecks the rate against the median completion time.
    is_underpaying: times.length ? perHour(median(times)) < minimum : false,
    average_time_taken: times.length ? Math.round(times.reduce((a, b) => a + b, 0) / times.length) : 0,
    study_type: s.study_type ?? "SINGLE",
    is_pilot: false,
  };
}

/** The "list" format of GET /studies/{id}/submissions/ (`participant_id`). */
export const listView = (s: SimSubmission) => ({
  id: s.id,
  participant_id: s.participant_id,
  status: s.status,
  started_at: s.started_at,
  completed_at: s.completed_at,
  is_complete: s.completed_at !== null,
  time_taken: timeTaken(s),
  reward: s.reward,
  study_code: s.study_code,
  entered_code: s.study_code,
  return_requested: s.return_requested ?? null,
  strata: {},
  star_awarded: false,
  bonus_payments: s.bonus_payments,
  // The simulator does not see participants' addresses.
  ip: null,
  has_siblings: false,
});

/** The "detail" format of GET /submissions/{id}/ and the transitions (`participant`). */
export const detailView = (s: SimSubmission) => ({
  id: s.id,
  study_id: s.study_id,
  participant: s.participant_id,
  status: s.status,
  started_at: s.started_at,
  completed_at: s.completed_at,
  entered_code: s.study_code,
  parent_study_id: null,
  bonus_payments: s.bonus_payments,
  return_requested: s.return_requested ?? null,
});

export function groupView(state: ProlificSimState, g: SimGroup) {
  const feeders = Object.values(state.studies).filter((s) => s.completion_codes.some((c) => c.actions.some((a) => a.participant_group === g.id)));
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    workspace_id: g.workspace_id,
    organisation_id: g.organisation_id ?? null,
    project_id: g.project_id ?? null,
    participant_count: Object.keys(g.members).length,
    feeder_studies: feeders.map((s) => ({ id: s.id, name: s.name, internal_name: s.internal_name, status: s.status, completion_codes: s.completion_codes })),
    is_deleted: g.is_deleted,
  };
}

/** The workspace a project belongs to (the primary project, or one created through the API). */
export function projectWorkspace(state: ProlificSimState, projectId: string): string {
  return state.projects?.[projectId]?.workspace ?? state.workspace.id;
}
