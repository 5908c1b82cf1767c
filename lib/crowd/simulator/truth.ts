import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { displayText } from "@/lib/text/display-text";
import { createRng, pick, seedFrom } from "@/lib/util/random";

/** What is "correct" for a tweet: the simulator's workers answer relative to it (by their accuracy). */
export interface TruthOracle {
  label(tweetId: string): string | undefined;
  readonly size: number;
}

export function truthFromMap(map: Map<string, string> | Record<string, string>): TruthOracle {
  const m = map instanceof Map ? new Map(map) : new Map(Object.entries(map));
  return { label: (id) => m.get(id), size: m.size };
}

/**
 * The key a simulated worker knows a tweet by when its page shows no id (Accord's pages never do): its text as shown,
 * whitespace collapsed, hashed. An oracle that should answer for such pages maps textKey(shown text) to the label too.
 */
export function textKey(shownText: string): string {
  return `text:${createHash("sha256").update(shownText.replace(/\s+/g, " ").trim()).digest("hex").slice(0, 24)}`;
}

/** Adds to `truth` (tweet id → label) the text key of each labelled tweet of `tweets` (its stored text, shown decoded). */
export function addTextKeys(truth: Map<string, string>, tweets: Iterable<{ externalId: string; text: string }>): Map<string, string> {
  for (const t of tweets) {
    const label = truth.get(t.externalId);
    if (label !== undefined) truth.set(textKey(displayText(t.text)), label);
  }
  return truth;
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

/** The label that is "true" for a tweet among `options`: the oracle's, else a seeded pseudo-truth so workers still agree. */
export function truthAmong(oracle: TruthOracle | undefined, seed: number, key: string | undefined, options: string[]): string | undefined {
  if (options.length === 0) return undefined;
  const fromOracle = key !== undefined ? oracle?.label(key) : undefined;
  if (fromOracle !== undefined && options.includes(fromOracle)) return fromOracle;
  return pick(options, createRng(seedFrom(seed, "pseudo-truth", key ?? "")));
}

/** A truth given as an oracle, a map or record tweet_id → label, or a CSV file path. */
export type TruthInput = TruthOracle | Map<string, string> | Record<string, string> | string;

export function toTruthOracle(truth: TruthInput | undefined): TruthOracle | undefined {
  if (truth === undefined) return undefined;
  if (typeof truth === "string") return loadTruthFile(truth);
  if (truth instanceof Map) return truthFromMap(truth);
  if (typeof (truth as TruthOracle).label === "function") return truth as TruthOracle;
  return truthFromMap(truth as Record<string, string>);
}
