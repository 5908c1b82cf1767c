import { z } from "zod";
import { REPEAT_POLICIES } from "@/lib/metrics/repeats";

/**
 * How a judgment file's columns are read: one row holds one judgment per slot (MTurk batch results may carry
 * several tweets per HIT, each with its Input.* and Answer.* columns; other formats have one slot).
 */
export const JUDGMENT_FORMATS = ["mturk", "crowdflower", "plain"] as const;
export type JudgmentFormat = (typeof JUDGMENT_FORMATS)[number];

export const FORMAT_NAMES: Record<JudgmentFormat, string> = {
  mturk: "MTurk batch results",
  crowdflower: "CrowdFlower / Figure Eight / Appen full report",
  plain: "item,annotator,label CSV",
};

const column = z.string().min(1).max(200);

export const slotSchema = z.object({
  /** The tweet id column; without one the tweet is known by its text. */
  item: column.optional(),
  text: column.optional(),
  label: column,
  /** The platform's gold answer for the unit (CrowdFlower's `<label>_gold`). */
  goldLabel: column.optional(),
});
export type Slot = z.infer<typeof slotSchema>;

export const judgmentMappingSchema = z.object({
  format: z.enum(JUDGMENT_FORMATS),
  annotator: column,
  time: column.optional(),
  /** The source's HIT and assignment (MTurk): an assignment is a worker's judgments on one page. */
  hit: column.optional(),
  assignment: column.optional(),
  /** MTurk AssignmentStatus: a Rejected assignment is stored as rejected (its judgments not counted). */
  status: column.optional(),
  /** CrowdFlower `_golden`: true on the platform's gold units. */
  golden: column.optional(),
  slots: z.array(slotSchema).min(1).max(100),
  repeats: z.enum(REPEAT_POLICIES as unknown as ["first", "last", "refuse"]).default("refuse"),
});
export type JudgmentMapping = z.infer<typeof judgmentMappingSchema>;

/** Columns with a person's whereabouts: never read into the database, and the preview says so. */
const PERSONAL = /^_?(ip|ip_?address|city|region|country|latitude|longitude|lat|lon|lng|zip|postal_?code)$/i;

export function personalColumns(header: readonly string[]): string[] {
  return header.filter((h) => PERSONAL.test(h.trim()));
}

/** Recognises the export from its header and proposes a mapping (null when nothing fits). */
export function detectMapping(header: readonly string[]): JudgmentMapping | null {
  const has = (name: string) => header.find((h) => h.toLowerCase() === name.toLowerCase());
  if (has("WorkerId") && has("HITId") && header.some((h) => h.startsWith("Answer."))) return mturkMapping(header);
  if (has("_unit_id") && has("_worker_id")) return crowdflowerMapping(header);
  const item = has("item");
  const annotator = has("annotator");
  const label = has("label");
  if (item && annotator && label) {
    return {
      format: "plain",
      annotator,
      time: has("submitted_at"),
      slots: [{ item, label, text: has("text") }],
      repeats: "refuse",
    };
  }
  return null;
}

function crowdflowerMapping(header: readonly string[]): JudgmentMapping {
  const platform = new Set(header.filter((h) => h.startsWith("_")));
  // the label column is the one with a <name>_gold twin; else the first non-platform column that is not text or id
  const label =
    header.find((h) => !platform.has(h) && header.includes(`${h}_gold`)) ??
    header.find((h) => !platform.has(h) && !/gold|text|tweet|id$|_no$/i.test(h)) ??
    header[0];
  const text = header.find((h) => /^(tweet|text|tweet_text|content)$/i.test(h)) ?? header.find((h) => /text|tweet$/i.test(h) && !platform.has(h));
  return {
    format: "crowdflower",
    annotator: "_worker_id",
    time: header.includes("_created_at") ? "_created_at" : undefined,
    golden: header.includes("_golden") ? "_golden" : undefined,
    slots: [{ item: "_unit_id", text, label, goldLabel: header.includes(`${label}_gold`) ? `${label}_gold` : undefined }],
    repeats: "refuse",
  };
}

/** Answer.* columns become slots; an answer's Input.* id and text columns share its suffix (Answer.label_2 ↔ Input.tweet_id_2). */
function mturkMapping(header: readonly string[]): JudgmentMapping {
  const answers = header.filter((h) => h.startsWith("Answer."));
  const inputs = header.filter((h) => h.startsWith("Input."));
  const suffix = (h: string) => /(\d+)$/.exec(h)?.[1] ?? "";
  const slots = answers.map((label) => {
    const s = suffix(label);
    const mine = inputs.filter((h) => suffix(h) === s);
    const item = mine.find((h) => /id/i.test(h.slice(6)));
    const text = mine.find((h) => /text|tweet|content/i.test(h.slice(6)) && h !== item);
    return { label, item, text };
  });
  const has = (name: string) => (header.includes(name) ? name : undefined);
  return {
    format: "mturk",
    annotator: "WorkerId",
    time: has("SubmitTime"),
    hit: has("HITId"),
    assignment: has("AssignmentId"),
    status: has("AssignmentStatus"),
    slots,
    repeats: "refuse",
  };
}

/** Every column a mapping reads (personal columns are never among them: the mapping is refused if one is). */
export function mappedColumns(m: JudgmentMapping): string[] {
  const cols = [m.annotator, m.time, m.hit, m.assignment, m.status, m.golden, ...m.slots.flatMap((s) => [s.item, s.text, s.label, s.goldLabel])];
  return [...new Set(cols.filter((c): c is string => !!c))];
}
