import "server-only";
import type { Db } from "@/lib/db/client";
import { publishLive } from "@/lib/live/bus";
import { countedJudgments } from "@/lib/analysis/counted-judgments";
import { encodeJudgments } from "@/lib/metrics/judgments";
import { eventAgreementReport } from "@/lib/metrics/report";
import { table3BothScopes } from "@/lib/metrics/table3";
import { toStoredScopes, type StoredScopes } from "@/lib/analysis/table3-scopes";

/**
 * The event's agreement (the paper's Table 3) from its approved judgments of unknown tweets, stored as a
 * MetricSnapshot so the Agreement tab charts it over time without recomputing history. How often is the
 * caller's choice: the sync loop throttles its follow-ups in one place (sync/follow-ups.ts).
 */
export async function recordMetricSnapshot(db: Db, eventId: string) {
  const { report, scopes, tweetsAccepted } = await computeEventTable3(db, eventId);
  const snap = await db.metricSnapshot.create({
    data: {
      eventId,
      judgments: report?.annotations ?? 0,
      tweetsAccepted,
      fleissKappa: finite(report?.fleissKappa),
      krippendorffAlpha: finite(report?.krippendorffAlpha),
      averageObservedAgreement: finite(report?.averageObservedAgreement),
      averageMajorityAgreement: finite(report?.averageMajorityAgreement),
      ...(scopes ? { scopes } : {}),
    },
  });
  publishLive({ eventId, kind: "metrics", data: { judgments: snap.judgments, fleissKappa: snap.fleissKappa } });
  return snap;
}

function finite(x: number | undefined): number | null {
  return x !== undefined && Number.isFinite(x) ? x : null;
}

/**
 * Table 3 in both scopes: all judged tweets (also the legacy float columns) and the agreed ones (tweets with an
 * accepted label). One read of the judgments and one of the accepted tweets.
 */
export async function computeEventTable3(db: Db, eventId: string) {
  const [judgments, accepted] = await Promise.all([
    countedJudgments(db, eventId),
    db.acceptedLabel.findMany({ where: { eventId }, select: { tweetId: true } }),
  ]);
  if (judgments.length === 0) return { report: null, scopes: null, tweetsAccepted: accepted.length };
  const data = encodeJudgments(judgments, { duplicates: "first" });
  const agreedIds = new Set(accepted.map((a) => a.tweetId));
  const both = table3BothScopes(data, { isAgreed: (i) => agreedIds.has(data.items[i]) });
  const scopes: StoredScopes = toStoredScopes(both);
  return { report: eventAgreementReport(data), scopes, tweetsAccepted: accepted.length };
}

/** Table 3 for an event over the counted (approved) judgments of its unknown tweets, in submission order. */
export async function computeEventAgreement(db: Db, eventId: string) {
  const judgments = await countedJudgments(db, eventId);
  if (judgments.length === 0) return null;
  return eventAgreementReport(encodeJudgments(judgments, { duplicates: "first" }));
}
