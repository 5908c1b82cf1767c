import { z } from "zod";

/**
 * Reads a model's answer `{"labels":[{"id","label"}]}` (the message content, or a tool call's arguments) against the
 * HIT's item ids and the scheme: an item gets its label only when the answer is valid JSON of that shape and the
 * label is one of the scheme's values; every other item (missing, unknown label, unreadable answer) is `invalid`,
 * to be asked again once and then recorded as no answer.
 */
const answerShape = z.object({ labels: z.array(z.object({ id: z.string(), label: z.string() }).loose()) }).loose();

export type ParsedAnswer = { labels: Map<string, string>; invalid: string[] };

/** The JSON object in a text: the text itself, else the part between its first `{` and last `}` (prose, code fences). */
function jsonIn(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const start = text.indexOf("{");
    const end = text.lastIndexOf("}");
    if (start < 0 || end <= start) return null;
    try {
      return JSON.parse(text.slice(start, end + 1));
    } catch {
      return null;
    }
  }
}

export function parseAnswer(text: string | null | undefined, ids: readonly string[], scheme: readonly string[]): ParsedAnswer {
  const labels = new Map<string, string>();
  const parsed = answerShape.safeParse(text ? jsonIn(text) : null);
  if (parsed.success) {
    const wanted = new Set(ids);
    const allowed = new Set(scheme);
    for (const { id, label } of parsed.data.labels) {
      // The first answer of an item counts; an id not asked about, or a label outside the scheme, is ignored.
      if (wanted.has(id) && !labels.has(id) && allowed.has(label)) labels.set(id, label);
    }
  }
  return { labels, invalid: ids.filter((id) => !labels.has(id)) };
}
