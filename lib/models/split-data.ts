import "server-only";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { buildHumaidExport, type SplitName } from "@/lib/export/humaid";
import { TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";

/**
 * The training data of a model: the chosen events' accepted labels (gold and retired tweets excluded),
 * split exactly as Accord exports them (lib/export/humaid.ts → splitHumaid: 70/10/20 per event and label,
 * labels with fewer than 15 tweets dropped, seed "accord"; several events are merged with cross-split
 * near-duplicates removed). So a model's test split IS the exported test split of its events.
 */
export const SPLIT_SEED = "accord";
/** HumAID drops labels with fewer than 15 tweets in an event; at least two labels must remain to train. */
export const MIN_PER_LABEL = 15;

export type ModelEvent = { id: string; slug: string; name: string };
export type SplitTweet = { id: string; text: string; label: string; event: ModelEvent };

export type ModelSplits = {
  events: ModelEvent[];
  schemeId: string;
  rows: Record<SplitName, SplitTweet[]>;
  /** Per event: labels dropped for being rarer than MIN_PER_LABEL. */
  dropped: Record<string, Record<string, number>>;
  /** Near-duplicates removed across splits when several events are merged. */
  removed: Record<SplitName, number>;
};

/** The chosen events (all of one label scheme), or a UserError saying what is wrong. */
export async function eventsForModel(db: Db, eventIds: readonly string[]): Promise<{ events: ModelEvent[]; schemeId: string }> {
  const ids = [...new Set(eventIds)];
  if (ids.length === 0) throw new UserError("Choose at least one event.", "no_events", { eventIds: ["Choose at least one event."] });
  const rows = await db.event.findMany({ where: { id: { in: ids } }, orderBy: { slug: "asc" }, select: { id: true, slug: true, name: true, schemeId: true } });
  if (rows.length !== ids.length) throw new UserError("One of the chosen events does not exist any more.", "event_not_found");
  const schemes = new Set(rows.map((r) => r.schemeId));
  if (schemes.size > 1) {
    throw new UserError("The chosen events use different label schemes; a model is trained on one scheme.", "mixed_schemes", {
      eventIds: ["Choose events of one label scheme."],
    });
  }
  return { events: rows.map(({ id, slug, name }) => ({ id, slug, name })), schemeId: rows[0].schemeId };
}

/**
 * Checks, before any work, that the events have enough accepted labels: per event, labels with at least
 * MIN_PER_LABEL tweets survive the split; at least two labels must survive overall.
 */
export async function checkTrainable(db: Db, eventIds: readonly string[]): Promise<{ accepted: number; labels: Record<string, number> }> {
  const { events } = await eventsForModel(db, eventIds);
  const rows = await db.acceptedLabel.findMany({
    where: { eventId: { in: events.map((e) => e.id) }, tweet: { role: TWEET_ROLE.unknown, status: { not: TWEET_STATUS.retired } } },
    select: { eventId: true, label: true },
  });
  const perEventLabel = new Map<string, number>();
  for (const r of rows) perEventLabel.set(`${r.eventId}\u0000${r.label}`, (perEventLabel.get(`${r.eventId}\u0000${r.label}`) ?? 0) + 1);
  const labels: Record<string, number> = {};
  for (const [key, n] of perEventLabel) {
    if (n < MIN_PER_LABEL) continue;
    const label = key.slice(key.indexOf("\u0000") + 1);
    labels[label] = (labels[label] ?? 0) + n;
  }
  const usable = Object.keys(labels).length;
  if (usable < 2) {
    const names = events.map((e) => e.name).join(", ");
    throw new UserError(
      `Too few accepted labels to train a model: ${rows.length} accepted label${rows.length === 1 ? "" : "s"} in ${names}, and ${usable === 0 ? "no label has" : "only one label has"} at least ${MIN_PER_LABEL} tweets in an event (HumAID drops rarer labels). A model needs at least two such labels.`,
      "too_few_labels",
      { eventIds: [`At least two labels with ${MIN_PER_LABEL}+ accepted tweets are needed.`] },
    );
  }
  return { accepted: rows.length, labels };
}

/** Splits the events' accepted labels as the HumAID export does (see above). */
export async function loadModelSplits(db: Db, eventIds: readonly string[]): Promise<ModelSplits> {
  const { events, schemeId } = await eventsForModel(db, eventIds);
  const exp = await buildHumaidExport(db, { eventIds: events.map((e) => e.id), seed: SPLIT_SEED, merged: events.length > 1 });
  const bySlug = new Map(events.map((e) => [e.slug, e]));
  // A tweet id belongs to the first event (in slug order) that holds it, as the merged export keeps it.
  const eventOf = new Map<string, ModelEvent>();
  for (const set of exp.events) {
    const ev = bySlug.get(set.name) as ModelEvent;
    for (const split of ["test", "dev", "train"] as const) for (const r of set.rows[split]) if (!eventOf.has(r.id)) eventOf.set(r.id, ev);
  }
  const source = exp.combined ?? { rows: exp.events[0].rows, removed: { train: 0, dev: 0, test: 0 } };
  const attach = (rows: Array<{ id: string; text: string; label: string }>) => rows.map((r) => ({ ...r, event: eventOf.get(r.id) as ModelEvent }));
  return {
    events,
    schemeId,
    rows: { train: attach(source.rows.train), dev: attach(source.rows.dev), test: attach(source.rows.test) },
    dropped: Object.fromEntries(exp.events.map((s) => [s.name, s.dropped])),
    removed: source.removed,
  };
}
