import { createHash } from "node:crypto";

/** The fixed vocabularies the simulator checks requests against (the reference's [2+] facts unless noted). */

/** Webhook event types and what GET /hooks/event-types/ says of them. */
export const EVENT_TYPES = [
  { event_type: "submission.status.change", description: "A submission's status changed." },
  { event_type: "study.status.change", description: "A study's status changed." },
  { event_type: "study.progress.change", description: "A study's progress changed: a place was taken, a submission completed, returned or timed out." },
  { event_type: "study.has_high_return_rate", description: "A study has a high share of returned submissions." },
] as const;
export type EventType = (typeof EVENT_TYPES)[number]["event_type"];
export const EVENT_TYPE_NAMES = EVENT_TYPES.map((e) => e.event_type) as [EventType, ...EventType[]];

export const CODE_TYPES = ["COMPLETED", "FAILED_ATTENTION_CHECK", "FOLLOW_UP_STUDY", "GIVE_BONUS", "INCOMPATIBLE_DEVICE", "NO_CONSENT", "OTHER", "FIXED_SCREENOUT"] as const;
/** Completion-code actions ([2+]; FIXED_SCREEN_OUT_PAYMENT is [1]: accepted, its `fixed_screen_out_reward` pays a screen-out). */
export const CODE_ACTIONS = ["AUTOMATICALLY_APPROVE", "MANUALLY_REVIEW", "ADD_TO_PARTICIPANT_GROUP", "REMOVE_FROM_PARTICIPANT_GROUP", "REQUEST_RETURN", "DYNAMIC_PAYMENT", "FIXED_SCREEN_OUT_PAYMENT"] as const;
export const DEVICES = ["desktop", "tablet", "mobile"] as const;
export const PERIPHERALS = ["audio", "camera", "download", "microphone"] as const;

export type FilterDef = { filter_id: string; title: string; type: "select" | "range"; choices?: Record<string, string>; min?: number; max?: number };

/** Demographic filters of the reference's example (`age` a range, `handedness` a select of choice ids). */
const HANDEDNESS: Record<string, string> = { "0": "Left-handed", "1": "Right-handed", "2": "Ambidextrous" };
export const DEMOGRAPHIC_FILTERS: FilterDef[] = [
  { filter_id: "age", title: "Age", type: "range", min: 18, max: 100 },
  { filter_id: "handedness", title: "Handedness", type: "select", choices: HANDEDNESS },
];

/** The group and list filters: their choices are the workspace's groups (allow/block lists of ids take any id). */
export const LIST_FILTER_IDS = ["participant_group_allowlist", "participant_group_blocklist", "custom_allowlist", "custom_blocklist", "previous_studies_blocklist"] as const;
const LIST_TITLES: Record<string, string> = {
  participant_group_allowlist: "Participant group allowlist",
  participant_group_blocklist: "Participant group blocklist",
  custom_allowlist: "Custom allowlist",
  custom_blocklist: "Custom blocklist",
  previous_studies_blocklist: "Previous studies blocklist",
};

/** GET /filters/: every filter the simulator knows; group filters list the live groups as choices. */
export function filterCatalogue(groups: Record<string, string>, studies: Record<string, string>): FilterDef[] {
  const lists: FilterDef[] = LIST_FILTER_IDS.map((id) => ({
    filter_id: id,
    title: LIST_TITLES[id]!,
    type: "select",
    choices: id.startsWith("participant_group") ? groups : id === "previous_studies_blocklist" ? studies : {},
  }));
  return [...lists, ...DEMOGRAPHIC_FILTERS];
}

/** A simulated participant's demographics, fixed by their id (the simulator has no profiles of its own for these). */
export function demographics(participantId: string): { age: number; handedness: string } {
  const h = createHash("sha256").update(participantId).digest();
  return { age: 18 + (h[0]! % 53), handedness: String(h[1]! % 3) };
}
