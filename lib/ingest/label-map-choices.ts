import { createLabelMapper, createLabelMatcher, type SchemeLabels } from "./validate";

/** The mapping form's rows: each file label (most rows first) with what the saved map makes of it ("" when unmapped). */
export function labelMapChoices(
  fileLabels: Readonly<Record<string, number>>,
  map: Readonly<Record<string, string | null>>,
  scheme: SchemeLabels,
): Array<{ from: string; count: number; current: string }> {
  const mapLabel = createLabelMapper(map);
  const match = createLabelMatcher(scheme);
  return Object.entries(fileLabels)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([from, count]) => {
      const to = mapLabel(from);
      const inScheme = to ? match(to) : null;
      const current = to === undefined ? "" : to === null ? "drop" : inScheme ? `label:${inScheme}` : "keep";
      return { from, count, current };
    });
}
