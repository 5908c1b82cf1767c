import { z } from "zod";

// The label map's shape (settings labels.map) and the upload page's mapping form.

/** File label → scheme label, a new label of its own, or null (drop the rows). */
export const labelMapSchema = z.record(z.string().trim().min(1).max(200), z.string().trim().min(1).max(200).nullable());
export type LabelMap = z.output<typeof labelMapSchema>;

/** The form: the import, then one `map:<file label>` field per label, valued `drop`, `keep` or `label:<scheme value>`. */
export const mapLabelsFormSchema = z.object({ importId: z.string().min(1).max(60) }).catchall(z.unknown());

/** The form's fields as a label map: `keep` keeps the file's label as a new label. */
export function labelMapFromForm(fields: Record<string, unknown>): LabelMap {
  const map: LabelMap = {};
  for (const [key, value] of Object.entries(fields)) {
    if (!key.startsWith("map:") || typeof value !== "string") continue;
    const from = key.slice(4);
    if (value === "drop") map[from] = null;
    else if (value === "keep") map[from] = from;
    else if (value.startsWith("label:") && value.length > 6) map[from] = value.slice(6);
  }
  return map;
}
