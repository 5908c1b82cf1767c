import "server-only";
import { insertMany } from "@/lib/db/bulk";
import type { Db } from "@/lib/db/client";
import { type ProviderKind, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { DEFAULT_PROCEDURE_SETTINGS, parseProcedureSettings, type ProcedureSettingsInput } from "@/lib/procedure/settings";
import { DEMO_EVENTS, DEMO_LABELS, type DemoEventSpec, generateTweets } from "./generate";
import { seedSyntheticCampaign, type SyntheticCampaignOptions, type SyntheticCampaignResult } from "./synthetic-campaign";

/**
 * An event with synthetic tweets, gold and (optionally) a finished synthetic campaign, in one call: the
 * fixture of the dashboard's tests, end-to-end tests and benchmark. Returns the truth by tweet row id.
 */
export type EventFixture = {
  eventId: string;
  slug: string;
  truth: Map<string, string>;
  campaign: SyntheticCampaignResult | null;
};

export async function seedEventFixture(
  db: Db,
  {
    slug,
    name,
    type,
    tweets,
    gold,
    spec = DEMO_EVENTS[0],
    idBase = 1_800_000_000_000_000_000n,
    campaign,
    textOf,
    settings,
    provider,
  }: {
    slug: string;
    name?: string;
    type?: string;
    tweets: number;
    gold: number;
    spec?: DemoEventSpec;
    idBase?: bigint;
    /** Run a synthetic campaign over the tweets (options other than event, truth and labels). */
    campaign?: Omit<SyntheticCampaignOptions, "eventId" | "truth" | "labels">;
    /** Replace generated texts (e.g. to inject markup in tests). */
    textOf?: (index: number, text: string) => string;
    /** The event's procedure settings (the paper's by default), validated by lib/procedure. */
    settings?: ProcedureSettingsInput;
    provider?: ProviderKind;
  },
): Promise<EventFixture> {
  const schemeId = await ensureHumaidScheme(db);
  const event = await db.event.create({
    data: {
      slug,
      name: name ?? slug,
      type: type ?? spec.type,
      startDate: spec.startDate,
      endDate: spec.endDate,
      locations: spec.locations,
      schemeId,
      settings: (settings ? parseProcedureSettings(settings) : DEFAULT_PROCEDURE_SETTINGS) as unknown as object,
      ...(provider ? { provider } : {}),
      filters: {},
      budgetCapCents: 100_000,
    },
    select: { id: true, slug: true },
  });
  const unknown = generateTweets(spec, { count: tweets, seed: slug, idBase });
  const goldTweets = generateTweets(spec, {
    count: gold,
    seed: `${slug}:gold`,
    idBase: idBase + 500_000_000_000_000n,
    weights: Object.fromEntries(DEMO_LABELS.map((l) => [l, 1])),
  });
  const rows = [
    ...unknown.map((t, i) => ({ t, role: TWEET_ROLE.unknown, text: textOf ? textOf(i, t.text) : t.text })),
    ...goldTweets.map((t) => ({ t, role: TWEET_ROLE.gold, text: t.text })),
  ];
  const createdAt = new Date();
  await insertMany(
    db,
    "Tweet",
    rows.map(({ t, role, text }) => ({
      eventId: event.id,
      externalId: t.externalId,
      text,
      lang: "en",
      tweetedAt: t.tweetedAt,
      userLocation: t.userLocation,
      role,
      goldLabel: role === TWEET_ROLE.gold ? t.label : null,
      status: TWEET_STATUS.pending,
      createdAt,
    })),
  );
  const stored = await db.tweet.findMany({ where: { eventId: event.id }, select: { id: true, externalId: true } });
  const byExternal = new Map(rows.map((r) => [r.t.externalId, r.t.label]));
  const truth = new Map(stored.map((s) => [s.id, byExternal.get(s.externalId) as string]));
  const result = campaign ? await seedSyntheticCampaign(db, { ...campaign, eventId: event.id, truth, labels: DEMO_LABELS }) : null;
  return { eventId: event.id, slug: event.slug, truth, campaign: result };
}
