import type { ProcedureSettings } from "./settings";

/** The choices of when a HIT gets more assignments, each with what it costs, for forms and settings pages. */
export type ExtensionPolicy = "hit-reachable" | "any-unresolved" | "dynamic-overlap";

export const EXTENSION_POLICIES: ReadonlyArray<{ value: ExtensionPolicy; name: string; cost: string }> = [
  {
    value: "hit-reachable",
    name: "Whole HIT while its approval is still reachable (the paper's reading)",
    cost: "Pays for judgments beyond the wanted number only on HITs below the approval rule, so most tweets get exactly the wanted number.",
  },
  {
    value: "any-unresolved",
    name: "Every unresolved tweet, up to the maximum",
    cost: "Also extends approved HITs that still hold unresolved tweets: more tweets get judgments beyond the wanted number and an agreed label, at one more assignment (all of the HIT's tweets) each time.",
  },
  {
    value: "dynamic-overlap",
    name: "Dynamic overlap: a further judgment only where the first ones disagree",
    cost: "Starts each HIT with fewer assignments and adds the rest only when they disagree on too many tweets: the cheapest, when workers mostly agree.",
  },
];

export const UNRESOLVED_HIT_POLICIES: ReadonlyArray<{ value: ProcedureSettings["unresolvedHitLabels"]; name: string; cost: string }> = [
  { value: "keep", name: "Keep them", cost: "Every tweet that met the label rule is released, whatever its HIT's outcome." },
  { value: "drop", name: "Drop them (only approved HITs' labels count)", cost: "Fewer released tweets: the labels of HITs that end unresolved are paid for but not used." },
];

/** The policy an event's settings express. */
export function extensionPolicyOf(s: ProcedureSettings): ExtensionPolicy {
  if (s.dynamicOverlap.enabled) return "dynamic-overlap";
  return s.extendWhen;
}

/** The settings fields that express a policy. */
export function extensionPolicySettings(policy: ExtensionPolicy): { extendWhen: ProcedureSettings["extendWhen"]; dynamicOverlap: { enabled: boolean } } {
  return policy === "dynamic-overlap"
    ? { extendWhen: "hit-reachable", dynamicOverlap: { enabled: true } }
    : { extendWhen: policy, dynamicOverlap: { enabled: false } };
}

/** The gold rules an event can decide assignments by, each with what it costs and changes. */
export const GOLD_RULES: ReadonlyArray<{ value: ProcedureSettings["goldRule"]; name: string; cost: string }> = [
  {
    value: "per-hit",
    name: "Per HIT: each assignment on its own gold (the paper's)",
    cost: "Catches a spammer on their first HIT, but rejects honest workers near the threshold whenever one HIT's few gold tweets go badly.",
  },
  {
    value: "whole-record",
    name: "Whole gold record: the worker's gold across this event's HITs so far",
    cost: "Rejects fewer honest workers for one unlucky HIT, but approves (and pays) a new worker's first weak HITs until their record is long enough to be sure.",
  },
];
