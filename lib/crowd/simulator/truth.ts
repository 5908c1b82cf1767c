import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";

/** What is "correct" for a tweet: the simulator's workers answer relative to it (by their accuracy). */
export interface TruthOracle {
  label(tweetId: string): string | undefined;
  readonly size: number;
}

export function truthFromMap(map: Map<string, string> | Record<string, string>): TruthOracle {
  const m = map instanceof Map ? new Map(map) : new Map(Object.entries(map));
  return { label: (id) => m.get(id), size: m.size };
}

/** Parses CSV text with a header containing `tweet_id` and `label` (other columns ignored). */
export function truthFromCsv(text: string): TruthOracle {
  const rows = parse(text, { columns: true, skip_empty_lines: true, trim: true, bom: true }) as Array<Record<string, string>>;
  if (rows.length > 0 && (!("tweet_id" in rows[0]) || !("label" in rows[0]))) {
    throw new Error('The truth file needs a header with the columns "tweet_id" and "label".');
  }
  const map = new Map<string, string>();
  for (const r of rows) if (r.tweet_id && r.label) map.set(r.tweet_id, r.label);
  return truthFromMap(map);
}

export function loadTruthFile(path: string): TruthOracle {
  return truthFromCsv(readFileSync(path, "utf8"));
}
