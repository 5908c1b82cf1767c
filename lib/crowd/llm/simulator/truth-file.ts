import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { textKey } from "@/lib/crowd/simulator/truth";

/** A CSV with the columns `text` and `label` (others ignored) → textKey(text) → label, the LLM simulator's truth. */
export function llmTruthFromCsv(csv: string): Map<string, string> {
  const rows = parse(csv, { columns: true, skip_empty_lines: true, bom: true }) as Array<Record<string, string>>;
  if (rows.length > 0 && (!("text" in rows[0]) || !("label" in rows[0]))) throw new Error('The truth file needs a header with the columns "text" and "label".');
  const truth = new Map<string, string>();
  for (const r of rows) if (r.text && r.label?.trim()) truth.set(textKey(r.text), r.label.trim());
  return truth;
}

export function loadLlmTruthFile(path: string): Map<string, string> {
  return llmTruthFromCsv(readFileSync(/*turbopackIgnore: true*/ path, "utf8"));
}
