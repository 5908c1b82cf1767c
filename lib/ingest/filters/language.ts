import { type FunnelStep, skippedStep, StepCounter } from "../funnel";
import type { IngestRow } from "../rows";

/**
 * Step 3: keep tweets in the event's languages (English by default), using the row's own `lang` (as
 * Twitter provides it) when present, else detecting it with eld (a maintained n-gram detector, offline).
 * Twitter's "und" and its pseudo-languages, and detections eld itself calls unreliable, count as
 * "undetermined": counted separately and kept or dropped by a setting.
 */

/** Returns an ISO 639-1 code, or null when the language cannot be determined. */
export type LanguageDetector = (text: string) => string | null;

/** Twitter's codes for "no linguistic content" and undetermined text. */
const UNDETERMINED_CODES = new Set(["und", "zxx", "qam", "qct", "qht", "qme", "qst", ""]);

/** "en-GB" → "en"; null for Twitter's undetermined codes. */
export function normalizeLanguageCode(lang: string): string | null {
  const code = lang.trim().toLowerCase().split(/[-_]/)[0];
  return UNDETERMINED_CODES.has(code) ? null : code;
}

/** Text for detection: without URLs, mentions, hashtag signs, retweet markers and HTML entities. */
export function textForDetection(text: string): string {
  return text
    .replace(/https?:\/\/\S+|www\.\S+/gi, " ")
    .replace(/@\w+/g, " ")
    .replace(/&(amp|lt|gt|quot|#\d+);/g, " ")
    .replace(/\bRT\b/g, " ")
    .replace(/#/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The text eld is given, or null when it has no letters (nothing to detect: undetermined). */
export function cleanForDetection(text: string): string | null {
  const clean = textForDetection(text);
  return /\p{L}/u.test(clean) ? clean : null;
}

export type Eld = { detect(text: string): { language: string; isReliable(): boolean } };

/** eld's answer for a text already cleaned by textForDetection(): a language, or null when unreliable. */
export function detectCleanText(eld: Eld, clean: string): string | null {
  const r = eld.detect(clean);
  return r.language && r.isReliable() ? r.language : null;
}
let eldPromise: Promise<Eld> | null = null;

/** eld's small database (about 90 MB in memory, loaded once, on first use). */
export async function loadEld(): Promise<Eld> {
  eldPromise ??= import("eld/small").then((m) => m.eld as Eld);
  return eldPromise;
}

/** An in-process detector (the import job detects in worker threads instead: language-pool.ts). */
export async function loadLanguageDetector(): Promise<LanguageDetector> {
  const eld = await loadEld();
  const cache = new Map<string, string | null>();
  return (text) => {
    const clean = cleanForDetection(text);
    if (clean === null) return null;
    const hit = cache.get(clean);
    if (hit !== undefined) return hit;
    const lang = detectCleanText(eld, clean);
    if (cache.size < 200_000) cache.set(clean, lang);
    return lang;
  };
}

export function filterByLanguage(
  rows: IngestRow[],
  {
    languages = ["en"],
    undetermined = "keep",
    enabled = true,
    detect,
  }: { languages?: readonly string[]; undetermined?: "keep" | "drop"; enabled?: boolean; detect?: LanguageDetector | null },
): { rows: IngestRow[]; step: FunnelStep } {
  if (!enabled) return { rows, step: skippedStep("language", rows.length, "switched off") };
  const wanted = new Set(languages.map((l) => normalizeLanguageCode(l) ?? l));
  const counter = new StepCounter();
  const kept: IngestRow[] = [];
  for (const row of rows) {
    // Three disjoint counts that add up to the rows in: from the file, detected, undetermined (neither).
    let lang: string | null;
    if (row.lang !== undefined) {
      lang = normalizeLanguageCode(row.lang);
      if (lang !== null) counter.count("language from the file");
    } else if (detect) {
      lang = detect(row.text);
      if (lang !== null) {
        counter.count("language detected");
        row.lang = lang; // stored with the tweet
      }
    } else {
      lang = null;
    }
    if (lang === null) {
      counter.count("undetermined");
      if (undetermined === "keep") kept.push(row);
      else counter.remove("undetermined language", row);
    } else if (wanted.has(lang)) kept.push(row);
    else counter.remove(`other language (${lang})`, row);
  }
  const list = [...wanted].join(", ");
  return { rows: kept, step: counter.step("language", rows.length, { note: `keeping ${list}; undetermined: ${undetermined}` }) };
}
