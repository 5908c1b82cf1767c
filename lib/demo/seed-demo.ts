import "server-only";
import { createHash } from "node:crypto";
import { insertMany } from "@/lib/db/bulk";
import type { Db, Prisma } from "@/lib/db/client";
import { IMPORT_KIND, IMPORT_STATUS, PROVIDER_KIND, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { DEMO_EVENTS, DEMO_LABELS, DEMO_PROLIFIC_EVENT, type DemoEventSpec, generateTweets, type GeneratedTweet } from "./generate";

/**
 * The demo behind `npm start`: three MTurk events of different kinds with a few thousand synthetic tweets
 * each (known true labels) and expert-labelled gold tweets, and a small Prolific event (400 tweets). Idempotent: it writes only into an EMPTY
 * database (no events); on later starts it finds its events again and rebuilds the same truth (the
 * generator is deterministic), so the simulator's workers keep answering consistently.
 */
export type DemoSeedResult = {
  /** The demo events (empty when the database already held other events). */
  events: Array<{ id: string; slug: string }>;
  /** True label per tweet external id (unknown and gold tweets of the demo events). */
  truth: Map<string, string>;
  /** True when this call wrote the demo data. */
  created: boolean;
};

export type DemoOptions = {
  /** Unknown tweets per event (default 3000, 2500, 2000 for the MTurk events, 400 for the Prolific one). */
  tweetsPerEvent?: number[];
  goldPerEvent?: number;
  seed?: string;
  events?: DemoEventSpec[];
};

const DEFAULT_TWEETS = [3000, 2500, 2000, 400];
const DEFAULT_GOLD = 80;
const ID_BASES = [1_900_000_000_000_000_000n, 1_930_000_000_000_000_000n, 1_960_000_000_000_000_000n, 1_990_000_000_000_000_000n];

/** The MTurk events and the small Prolific one. */
const DEMO_SPECS = [...DEMO_EVENTS, DEMO_PROLIFIC_EVENT];

type DemoData = { spec: DemoEventSpec; unknown: GeneratedTweet[]; gold: GeneratedTweet[] };

/** Gold labels spread over every label (at least a few each), so qualification tests cover the scheme. */
function goldWeights(): Record<string, number> {
  return Object.fromEntries(DEMO_LABELS.map((l) => [l, l === "dont_know_cant_judge" ? 0.5 : 1]));
}

export function demoData(options: DemoOptions = {}): DemoData[] {
  const specs = options.events ?? DEMO_SPECS;
  const counts = options.tweetsPerEvent ?? DEFAULT_TWEETS;
  const seed = options.seed ?? "accord-demo";
  return specs.map((spec, i) => {
    const idBase = ID_BASES[i % ID_BASES.length] + BigInt(Math.floor(i / ID_BASES.length)) * 10_000_000_000_000n;
    const all = generateTweets(spec, { count: counts[i] ?? counts[counts.length - 1], seed, idBase });
    const gold = generateTweets(spec, { count: options.goldPerEvent ?? DEFAULT_GOLD, seed: `${seed}:gold`, idBase: idBase + 5_000_000_000_000_000n, weights: goldWeights() });
    return { spec, unknown: all, gold };
  });
}

function truthOf(data: DemoData[]): Map<string, string> {
  const truth = new Map<string, string>();
  for (const d of data) {
    for (const t of d.unknown) truth.set(t.externalId, t.label);
    for (const t of d.gold) truth.set(t.externalId, t.label);
  }
  return truth;
}

export async function seedDemo(db: Db, options: DemoOptions = {}): Promise<DemoSeedResult> {
  const data = demoData(options);
  const slugs = data.map((d) => d.spec.slug);
  const existing = await db.event.findMany({ where: { slug: { in: slugs } }, select: { id: true, slug: true } });
  if (existing.length > 0) {
    const order = new Map(slugs.map((s, i) => [s, i]));
    existing.sort((a, b) => (order.get(a.slug) ?? 0) - (order.get(b.slug) ?? 0));
    const present = new Set(existing.map((e) => e.slug));
    return { events: existing, truth: truthOf(data.filter((d) => present.has(d.spec.slug))), created: false };
  }
  if ((await db.event.count()) > 0) return { events: [], truth: new Map(), created: false };

  const schemeId = await ensureHumaidScheme(db);
  const events: Array<{ id: string; slug: string }> = [];
  for (const d of data) {
    const event = await db.event.create({
      data: {
        slug: d.spec.slug,
        name: d.spec.name,
        type: d.spec.type,
        startDate: d.spec.startDate,
        endDate: d.spec.endDate,
        locations: d.spec.locations as Prisma.InputJsonValue,
        schemeId,
        provider: d.spec.provider ?? PROVIDER_KIND.mturk,
        settings: DEFAULT_PROCEDURE_SETTINGS as unknown as Prisma.InputJsonValue,
        filters: {},
        budgetCapCents: 50_000,
      },
      select: { id: true, slug: true },
    });
    events.push(event);
    for (const [kind, rows] of [
      ["tweets", d.unknown],
      ["gold", d.gold],
    ] as const) {
      const fileName = `${d.spec.slug}_${kind === IMPORT_KIND.gold ? "gold" : "sample"}.tsv (generated demo data)`;
      const batch = await db.importBatch.create({
        data: {
          eventId: event.id,
          kind,
          fileName,
          fileHash: createHash("sha256").update(`demo:${d.spec.slug}:${kind}:${rows.length}`).digest("hex"),
          fileSize: rows.reduce((s, r) => s + r.text.length + r.externalId.length + r.label.length + 3, 0),
          format: "humaid-tsv",
          status: IMPORT_STATUS.completed,
          rowsRead: rows.length,
          rowsStored: rows.length,
          // The funnel in lib/ingest's shape (nothing filtered: the generator writes clean tweets).
          funnel: [
            { step: "read", label: "rows read", enabled: true, in: rows.length, kept: rows.length, removed: 0, reasons: {} },
            { step: "stored", label: "stored", enabled: true, in: rows.length, kept: rows.length, removed: 0, reasons: {} },
          ],
          message: "Synthetic tweets written by Accord's demo generator.",
          finishedAt: new Date(),
        },
        select: { id: true },
      });
      const createdAt = new Date();
      const tweets = rows.map((t) => ({
        eventId: event.id,
        externalId: t.externalId,
        text: t.text,
        lang: t.lang,
        tweetedAt: t.tweetedAt,
        userLocation: t.userLocation,
        role: kind === IMPORT_KIND.gold ? TWEET_ROLE.gold : TWEET_ROLE.unknown,
        goldLabel: kind === IMPORT_KIND.gold ? t.label : null,
        status: TWEET_STATUS.pending,
        importId: batch.id,
        createdAt,
      }));
      await insertMany(db, "Tweet", tweets);
    }
    await db.auditLog.create({
      data: { actorType: "system", eventId: event.id, entityType: "event", entityId: event.id, action: "seed-demo", reason: "Demo event with synthetic tweets" },
    });
  }
  return { events, truth: truthOf(data), created: true };
}
