import "server-only";
import type { Table3Scope } from "@/lib/metrics/table3";
import { loadGoldRuleRisk } from "@/lib/gold/gold-rule-risk";
import { headlineKappa } from "@/lib/analysis/table3-scopes";
import type { Db } from "@/lib/db/client";
import { getCrowdSettings } from "@/lib/crowd/mturk/settings";
import { loadEventAgreement } from "@/lib/analysis/agreement";
import { crowdCurrency } from "./event-currency";
import { findEventBySlug, labelsOfScheme } from "./event-lookup";
import { type HitListQuery, listEventHits } from "./hits";
import { hitStatusCounts, loadEventOverview } from "./overview";
import { replayStatus } from "@/lib/analysis/replay-job";

/**
 * Everything the event pages read, one loader per page: the pages call these (so does the dashboard
 * benchmark, which times exactly what a page render reads). null when the event does not exist.
 */
export async function loadOverviewPage(db: Db, slug: string) {
  const event = await findEventBySlug(db, slug);
  if (!event) return null;
  const currency = await crowdCurrency(db, event.provider);
  const [overview, crowd, snapshot, goldRisk] = await Promise.all([
    loadEventOverview(db, event, currency),
    getCrowdSettings(db),
    db.metricSnapshot.findFirst({
      where: { eventId: event.id },
      orderBy: [{ at: "desc" }, { id: "desc" }],
      select: { fleissKappa: true, krippendorffAlpha: true, averageObservedAgreement: true, averageMajorityAgreement: true, judgments: true, scopes: true },
    }),
    loadGoldRuleRisk(db, { id: event.id, schemeId: event.scheme.id, settings: event.settings }),
  ]);
  // κ of the agreed tweets, the Agreement tab's default scope (older snapshots: all judged tweets), with its scope
  const latestSnapshot = headlineKappa(snapshot);
  return { event, overview, crowd, latestSnapshot, goldRisk, currency };
}

export async function loadAgreementPage(db: Db, slug: string, scope: Table3Scope = "agreed") {
  const event = await findEventBySlug(db, slug);
  if (!event) return null;
  const [data, labels, currency, replay] = await Promise.all([
    loadEventAgreement(db, { id: event.id, schemeId: event.scheme.id }, scope),
    labelsOfScheme(db, event.scheme.id),
    crowdCurrency(db, event.provider),
    replayStatus(db, event),
  ]);
  const differences = data.analysis.analysis?.differences ?? [];
  const texts = differences.length
    ? new Map((await db.tweet.findMany({ where: { id: { in: differences.map((d) => d.tweetId) } }, select: { id: true, externalId: true, text: true } })).map((t) => [t.id, t]))
    : new Map<string, { id: string; externalId: string; text: string }>();
  return { event, data, labels, texts, currency, replay };
}

export async function loadHitsPage(db: Db, slug: string, query: HitListQuery) {
  const event = await findEventBySlug(db, slug);
  if (!event) return null;
  const [list, counts, currency] = await Promise.all([listEventHits(db, event.id, query), hitStatusCounts(db, event.id), crowdCurrency(db, event.provider)]);
  return { event, list, counts, currency };
}
