import { HUMAID_LABELS } from "./humaid";

/**
 * The one formatter of label values for display (pages, charts, legends, tables): the scheme's display name when
 * known, else the HumAID name, else the value made readable ("some_label" → "Some label"). Pure: server and client.
 */
export type LabelNamer = (value: string) => string;

const HUMAID_NAMES = new Map(HUMAID_LABELS.map((l) => [l.value, l.name]));

export function labelNamer(labels?: ReadonlyArray<{ value: string; name: string }>): LabelNamer {
  const names = new Map((labels ?? []).map((l) => [l.value, l.name]));
  return (value) => names.get(value) ?? HUMAID_NAMES.get(value) ?? readable(value);
}

/** A label's display name without a scheme at hand (HumAID names, else the readable value). */
export const labelName: LabelNamer = labelNamer();

function readable(value: string): string {
  const s = value.replace(/_/g, " ").trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}
