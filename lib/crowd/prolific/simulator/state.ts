import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import type { SimWorker } from "@/lib/crowd/simulator/workers";
import type { CompletionCode, StudyStatus, SubmissionStatus } from "../api-types";
import { type CostKind } from "@/lib/db/enums";

/** The local Prolific simulator's whole state: JSON, saved durably (fsync + rename) before a changing call answers. */
export type SimStudy = {
  id: string;
  name: string;
  internal_name: string | null;
  description: string;
  status: StudyStatus;
  external_study_url: string;
  prolific_id_option: string;
  completion_codes: CompletionCode[];
  total_available_places: number;
  estimated_completion_time: number;
  maximum_allowed_time: number;
  reward: number;
  filters: SimFilter[];
  project: string;
  submissions_config: Record<string, unknown>;
  date_created: string;
  published_at: string | null;
  /** Minor units reserved from the wallet for places not yet paid. */
  reserved: number;
  device_compatibility?: string[];
  peripheral_requirements?: string[];
  naivety_distribution_rate?: number | null;
  study_labels?: string[];
  filter_set_id?: string | null;
  filter_set_version?: number | null;
  /** When a published study opens ([1] Mephisto; status SCHEDULED until then). */
  publish_at?: string | null;
  access_details?: Array<{ external_url: string; total_allocation: number }> | null;
  metadata?: unknown;
  content_warnings?: unknown[] | null;
  credential_pool_id?: string | null;
  study_type?: "SINGLE" | "QUOTA";
  is_external_study_url_secure?: boolean;
  data_collection_method?: string | null;
  data_collection_id?: string | null;
  data_collection_metadata?: unknown;
  /** Whether study.has_high_return_rate was announced (once per study). */
  high_return_rate_sent?: boolean;
  /** A test study: the draft it copies (`POST /studies/{id}/test-study`); only the test participant may take it. */
  test_of?: string;
};

export type SimFilter = { filter_id: string; selected_values?: string[]; selected_range?: { lower?: number | null; upper?: number | null } };

export type SimSubmission = {
  id: string;
  study_id: string;
  participant_id: string;
  status: SubmissionStatus;
  started_at: string;
  completed_at: string | null;
  study_code: string | null;
  reward: number;
  bonus_payments: number[];
  /** Epoch ms: when it times out (ACTIVE) or is auto-approved (AWAITING REVIEW). */
  dueAt: number | null;
  /** When the researcher asked the participant to return it (ISO), and why. */
  return_requested?: string | null;
  return_reasons?: string[];
};

export type SimBulkBonus = { id: string; study: string; lines: Array<{ id: string; cents: number }>; amount: number; fees: number; vat: number; total_amount: number; paid: boolean };
export type SimGroup = { id: string; name: string; description: string; workspace_id: string; organisation_id?: string | null; project_id?: string | null; members: Record<string, string>; is_deleted: boolean };
export type SimSubscription = { id: string; event_type: string; target_url: string; is_enabled: boolean; workspace_id: string; confirmation: string };
export type SimDelivery = { id: string; subscription_id: string; event_type: string; resource_id: string; body: Record<string, unknown>; attempts: number; nextAt: number; status: "PENDING" | "SUCCEEDED" | "FAILED"; created_at?: string; updated_at?: string };
/** A workspace or project created through the API (the primary ones are `workspace` and `project`). */
export type SimWorkspace = { id: string; title: string; description: string; currency_code: string; naivety_distribution_rate: number | null };
export type SimProject = { id: string; title: string; description: string; workspace: string; naivety_distribution_rate: number | null };
export type SimMessage = { id: string; sender_id: string; recipient_id: string; study_id: string; body: string; sent_at: string };
/** Every movement of money, for the ledger check: rewards and fees when approved, bonuses when paid. */
export type SimDebit = { at: string; kind: CostKind; amount: number; study_id: string; ref: string };
/** A researcher's APPROVE or REJECT as it reached the simulator: applied, a repeat (ignored) or refused (wrong state). */
export type SimDecision = { at: string; submission_id: string; action: "APPROVE" | "REJECT"; outcome: "applied" | "repeat" | "refused" };

export type ProlificSimState = {
  version: 1;
  seed: number;
  counter: number;
  user: { id: string; email: string; currency_code: string };
  workspace: { id: string; title: string; balance: number; currency_code: string; description?: string; naivety_distribution_rate?: number | null };
  project: { id: string; title: string; description?: string; naivety_distribution_rate?: number | null };
  /** Workspaces and projects created through the API (no wallet of their own: the primary workspace pays). */
  workspaces?: Record<string, SimWorkspace>;
  projects?: Record<string, SimProject>;
  /** Participant ids the simulator knows (its simulated participants and any that took part). */
  participants: string[];
  studies: Record<string, SimStudy>;
  submissions: Record<string, SimSubmission>;
  groups: Record<string, SimGroup>;
  bulkBonuses: Record<string, SimBulkBonus>;
  /** The primary workspace's webhook signing secret (one active per workspace). */
  hookSecret: { id: string; value: string } | null;
  /** The secrets of workspaces created through the API, by workspace id. */
  hookSecrets?: Record<string, { id: string; value: string }>;
  subscriptions: Record<string, SimSubscription>;
  deliveries: SimDelivery[];
  messages: SimMessage[];
  debits: SimDebit[];
  /** Every researcher decision request on a submission (states saved before this log existed have none). */
  decisions?: SimDecision[];
  /** Test participants: whether Prolific's support enabled them for the workspace, and the researcher's one (at most one). */
  testParticipants?: { enabled: boolean; participant: { id: string; email: string } | null };
  /** The simulated participants (the MTurk simulator's worker profiles, with Prolific ids); created on first use. */
  pool?: SimParticipant[];
};

export type SimParticipant = SimWorker & { participantId: string };

export function emptyProlificState(options: { seed: number; balance: number; currency?: string }): ProlificSimState {
  const hex = (n: number) => (options.seed.toString(16).padStart(8, "0") + n.toString(16).padStart(16, "0")).slice(-24);
  return {
    version: 1,
    seed: options.seed,
    counter: 16,
    user: { id: hex(1), email: "researcher@accord.local", currency_code: options.currency ?? "GBP" },
    workspace: { id: hex(2), title: "Accord workspace", balance: options.balance, currency_code: options.currency ?? "GBP" },
    project: { id: hex(3), title: "Accord" },
    participants: [],
    studies: {},
    submissions: {},
    groups: {},
    bulkBonuses: {},
    hookSecret: null,
    subscriptions: {},
    deliveries: [],
    messages: [],
    debits: [],
    decisions: [],
  };
}

/** A fresh 24-hex id, shaped like Prolific's (Mongo ObjectIds), unique within the state. */
export function nextId(state: ProlificSimState): string {
  state.counter++;
  return (state.seed.toString(16).padStart(8, "0") + state.counter.toString(16).padStart(16, "0")).slice(-24);
}

/** Written to a temporary file, fsync'd, then renamed over the old one: a kill -9 leaves the old or the new state. */
export function saveProlificState(file: string, state: ProlificSimState): void {
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeSync(fd, JSON.stringify(state));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

export function loadProlificState(file: string): ProlificSimState | null {
  if (!existsSync(file)) return null;
  const state = JSON.parse(readFileSync(file, "utf8")) as ProlificSimState;
  if (state.version !== 1) throw new Error(`${file} is not a Prolific simulator state of version 1`);
  return state;
}
