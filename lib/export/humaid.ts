import "server-only";
import { zipSync, strToU8 } from "fflate";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { DEFAULT_DEDUPE_THRESHOLD } from "@/lib/ingest/dedupe/normalize";
import { findNearDuplicates } from "@/lib/ingest/dedupe/similarity-join";
import { describeRules } from "@/lib/procedure/describe-rules";
import { readEventSettings } from "@/lib/events/event-settings";
import { splitHumaid } from "./splits";
import { buildManifest, type ProcedureManifest } from "./manifest";
import { tsvCell } from "./csv";
import { TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";

/**
 * The HumAID format (paper §5): per event `{event}_{train,dev,test}.tsv` with `tweet_id<TAB>tweet_text<TAB>
 * class_label`, split 70/10/20 stratified by label (seeded) after removing labels with fewer than 15 tweets
 * in the event. Event-type sets and the all-combined set are the unions of the event splits; because merged
 * events can hold near-duplicates across splits, a tweet is removed when an earlier kept tweet of ANOTHER
 * split is a near-duplicate of it (the ingest definition: cosine of uni+bigram counts > 0.75), scanning the
 * test split first, then dev, then train — so the test sets stay whole and no training tweet leaks into
 * them. A README gives the counts per split and label (the paper's Table 6).
 */
export type SplitName = "train" | "dev" | "test";
export const SPLITS: SplitName[] = ["train", "dev", "test"];

export type LabelledTweet = { id: string; text: string; label: string };

export type SplitSet = {
  name: string;
  rows: Record<SplitName, LabelledTweet[]>;
  /** Labels dropped for having fewer than the event's minimum of tweets (event sets only). */
  dropped: Record<string, number>;
  /** Labels left out by the event's release policy (settings.release.dropLabels), with their tweets. */
  excluded?: Record<string, number>;
  /** The event's minimum of tweets per label (event sets only). */
  minPerLabel?: number;
  /** The event's procedure rules in words (event sets only). */
  rules?: string[];
  /** Near-duplicates removed across splits when merging (merged sets only), per split. */
  removed: Record<SplitName, number>;
};

export type HumaidExport = {
  events: SplitSet[];
  eventTypes: SplitSet[];
  combined: SplitSet | null;
  seed: string;
  threshold: number;
  /** The procedure manifest (settings, hashes, seeds, version, setting changes). */
  manifest?: ProcedureManifest;
};

export function countsBySplit(set: SplitSet): Record<string, Record<SplitName, number>> {
  const out: Record<string, Record<SplitName, number>> = {};
  for (const split of SPLITS) for (const r of set.rows[split]) (out[r.label] ??= { train: 0, dev: 0, test: 0 })[split]++;
  return out;
}

/** Union of event splits with duplicate ids dropped and cross-split near-duplicates removed. */
export function mergeSplits(name: string, sets: SplitSet[], threshold = DEFAULT_DEDUPE_THRESHOLD): SplitSet {
  const order: SplitName[] = ["test", "dev", "train"];
  const seen = new Set<string>();
  const rows: Array<LabelledTweet & { split: SplitName }> = [];
  for (const split of order) {
    for (const set of sets) {
      for (const r of set.rows[split]) {
        if (seen.has(r.id)) continue;
        seen.add(r.id);
        rows.push({ ...r, split });
      }
    }
  }
  const removedRow = new Uint8Array(rows.length);
  const removed: Record<SplitName, number> = { train: 0, dev: 0, test: 0 };
  if (rows.length > 1) {
    const result = findNearDuplicates(
      rows.map((r) => r.text),
      { threshold, mode: "all" },
    );
    const pairs = result.pairs;
    if (pairs) {
      // Visit pairs by their later row b (then a), so every earlier row's fate is known when b is reached.
      const order = Array.from({ length: pairs.count }, (_, p) => p).sort((x, y) => pairs.b[x] - pairs.b[y] || pairs.a[x] - pairs.a[y]);
      for (const p of order) {
        const a = pairs.a[p];
        const b = pairs.b[p];
        if (removedRow[b] || removedRow[a]) continue;
        if (rows[a].split !== rows[b].split) {
          removedRow[b] = 1;
          removed[rows[b].split]++;
        }
      }
    }
  }
  const out: Record<SplitName, LabelledTweet[]> = { train: [], dev: [], test: [] };
  rows.forEach((r, i) => {
    if (!removedRow[i]) out[r.split].push({ id: r.id, text: r.text, label: r.label });
  });
  return { name, rows: out, dropped: {}, removed };
}

export async function buildHumaidExport(
  db: Db,
  { eventIds, seed = "accord", threshold = DEFAULT_DEDUPE_THRESHOLD, merged = true }: { eventIds: string[]; seed?: string; threshold?: number; merged?: boolean },
): Promise<HumaidExport> {
  if (eventIds.length === 0) throw new UserError("Choose at least one event to export.");
  const events = await db.event.findMany({ where: { id: { in: eventIds } }, orderBy: { slug: "asc" }, select: { id: true, slug: true, name: true, type: true, settings: true } });
  const sets: Array<SplitSet & { type: string }> = [];
  for (const e of events) {
    const accepted = await db.acceptedLabel.findMany({
      where: { eventId: e.id, tweet: { role: TWEET_ROLE.unknown, status: { not: TWEET_STATUS.retired } } },
      select: { label: true, tweet: { select: { externalId: true, text: true } } },
    });
    const settings = readEventSettings(e);
    const left = new Set(settings.release.dropLabels);
    const excluded: Record<string, number> = {};
    const rows: LabelledTweet[] = [];
    for (const a of accepted) {
      if (left.has(a.label)) excluded[a.label] = (excluded[a.label] ?? 0) + 1;
      else rows.push({ id: a.tweet.externalId, text: a.tweet.text, label: a.label });
    }
    const minPerLabel = settings.release.minTweetsPerLabel;
    const split = splitHumaid({ rows, seed, minPerLabel });
    sets.push({
      name: e.slug,
      type: e.type,
      rows: { train: split.train, dev: split.dev, test: split.test },
      dropped: split.dropped.labels,
      excluded,
      minPerLabel,
      rules: describeRules(settings).lines.map((l) => l.text),
      removed: { train: 0, dev: 0, test: 0 },
    });
  }
  const eventTypes: SplitSet[] = [];
  let combined: SplitSet | null = null;
  if (merged) {
    const types = [...new Set(sets.map((s) => s.type))].sort();
    for (const type of types) eventTypes.push(mergeSplits(type, sets.filter((s) => s.type === type), threshold));
    combined = mergeSplits("all_combined", sets, threshold);
  }
  const manifest = await buildManifest(db, { eventIds, seed });
  return { events: sets.map(({ type: _type, ...s }) => s), eventTypes, combined, seed, threshold, manifest };
}

/** A set name usable as a folder and file name. */
export function fileSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, "_") || "set";
}

/** Text byte-faithful (no formula guard, see the README); only tabs and line breaks, which TSV cannot hold, become spaces. */
function tsv(rows: LabelledTweet[]): string {
  let out = "tweet_id\ttweet_text\tclass_label\n";
  for (const r of rows) out += `${r.id}\t${tsvCell(r.text)}\t${r.label}\n`;
  return out;
}

function table6(set: SplitSet): string {
  const counts = countsBySplit(set);
  const labels = Object.keys(counts).sort();
  const lines = ["| class_label | train | dev | test | total |", "|---|---:|---:|---:|---:|"];
  const totals = { train: 0, dev: 0, test: 0 };
  for (const l of labels) {
    const c = counts[l];
    totals.train += c.train;
    totals.dev += c.dev;
    totals.test += c.test;
    lines.push(`| ${l} | ${c.train} | ${c.dev} | ${c.test} | ${c.train + c.dev + c.test} |`);
  }
  lines.push(`| **total** | ${totals.train} | ${totals.dev} | ${totals.test} | ${totals.train + totals.dev + totals.test} |`);
  const excluded = Object.entries(set.excluded ?? {});
  if (excluded.length) lines.push("", `Labels left out by the release policy: ${excluded.map(([l, n]) => `${l} (${n})`).join(", ")}.`);
  const dropped = Object.entries(set.dropped);
  if (dropped.length) lines.push("", `Labels left out (fewer than ${set.minPerLabel ?? 15} tweets): ${dropped.map(([l, n]) => `${l} (${n})`).join(", ")}.`);
  const removed = set.removed.train + set.removed.dev + set.removed.test;
  if (removed > 0) lines.push("", `Near-duplicates across splits removed when merging: ${removed} (train ${set.removed.train}, dev ${set.removed.dev}, test ${set.removed.test}).`);
  return lines.join("\n");
}

/** Table 2: tweets per label released for an event (all splits), with the label's share. */
function table2(set: SplitSet): string {
  const counts = countsBySplit(set);
  const totals = Object.entries(counts).map(([l, c]) => [l, c.train + c.dev + c.test] as const).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const all = totals.reduce((n, [, c]) => n + c, 0);
  const lines = ["| class_label | tweets | share |", "|---|---:|---:|"];
  for (const [l, c] of totals) lines.push(`| ${l} | ${c} | ${all > 0 ? ((100 * c) / all).toFixed(1) : "0.0"}% |`);
  lines.push(`| **total** | ${all} | 100% |`);
  return lines.join("\n");
}

export function humaidReadme(exp: HumaidExport, { generatedAt = new Date() }: { generatedAt?: Date } = {}): string {
  const parts = [
    "# Agreed labels in the HumAID format",
    "",
    `Exported by Accord on ${generatedAt.toISOString()}. Each file is tab-separated with the header`,
    "`tweet_id<TAB>tweet_text<TAB>class_label` (tabs and line breaks inside tweets were replaced by spaces).",
    "",
    "These files are data for code (pandas, the HumAID loaders), not for spreadsheets: the tweet text is kept exactly as",
    "stored, so a tweet that begins with = + - or @ is written as is and a spreadsheet program could run it as a formula.",
    "Open them with code, or use Accord's CSV exports, whose cells cannot start a formula.",
    "",
    "How the splits were made (HumAID, Alam et al. ICWSM 2021, section 5):",
    "- only tweets whose label was accepted by the crowd under the event's rules (below); gold tweets are not included;",
    "- per event, the labels its release policy leaves out and labels with too few tweets are left out, then each label",
    `  is split 70/10/20 into train/dev/test (stratified by label, seeded: seed "${exp.seed}"; the same data and seed give the same splits);`,
    "- event-type and all-combined sets are the unions of the event splits; near-duplicates across different splits",
    `  (cosine similarity of uni- and bigram counts above ${exp.threshold}) were removed from dev and train, keeping test whole.`,
    "",
    "## The rules of each event (from its settings)",
  ];
  for (const e of exp.events) parts.push("", `### ${e.name}`, "", ...(e.rules ?? []).map((r) => `- ${r}`));
  parts.push("", "## Table 2: accepted labels per event (after the release policy)");
  for (const e of exp.events) parts.push("", `### Event: ${e.name}`, "", table2(e));
  parts.push("", "## Table 6: tweets per split and label");
  for (const e of exp.events) parts.push("", `### Event: ${e.name}`, "", table6(e));
  for (const t of exp.eventTypes) parts.push("", `### Event type: ${t.name}`, "", table6(t));
  if (exp.combined) parts.push("", "### All events combined", "", table6(exp.combined));
  return parts.join("\n") + "\n";
}

/** The zip's files: events/{event}/{event}_{split}.tsv, event_types/{type}/…, all_combined/…, README.md. */
export function humaidZipFiles(exp: HumaidExport, options: { generatedAt?: Date } = {}): Record<string, string> {
  const files: Record<string, string> = { "README.md": humaidReadme(exp, options) };
  if (exp.manifest) files["manifest.json"] = JSON.stringify(exp.manifest, null, 2) + "\n";
  for (const e of exp.events) for (const s of SPLITS) files[`events/${fileSafe(e.name)}/${fileSafe(e.name)}_${s}.tsv`] = tsv(e.rows[s]);
  for (const t of exp.eventTypes) for (const s of SPLITS) files[`event_types/${fileSafe(t.name)}/${fileSafe(t.name)}_${s}.tsv`] = tsv(t.rows[s]);
  if (exp.combined) for (const s of SPLITS) files[`all_combined/all_combined_${s}.tsv`] = tsv(exp.combined.rows[s]);
  return files;
}

export function humaidZip(exp: HumaidExport, options: { generatedAt?: Date } = {}): Uint8Array {
  const files = humaidZipFiles(exp, options);
  const mtime = options.generatedAt ?? new Date();
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, [strToU8(text), { mtime }]])), { level: 6 });
}
