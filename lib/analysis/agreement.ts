import "server-only";
import type { Db } from "@/lib/db/client";
import { type AnalysisStatus, analysisStatus } from "./analysis";
import { labelsOfScheme } from "./event-lookup";
import { num } from "@/lib/db/sql";
import type { Table3Scope } from "@/lib/metrics/table3";
import { snapshotScope, type Table3Intervals } from "./table3-scopes";

/**
 * The Agreement tab: Table 3 as of the latest metric snapshot (written by the sync loop after decisions),
 * its history over time, the label distribution of accepted labels (Table 2) with the mean agreement of
 * each label's tweets, and the background analysis (per-label agreement, majority vote vs Dawid–Skene).
 */
/** What a metric snapshot records: the counts and Table 3's four measures. */
type SnapshotMeasures = {
  judgments: number;
  tweetsAccepted: number;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
  averageObservedAgreement: number | null;
  averageMajorityAgreement: number | null;
};

export type SnapshotPoint = SnapshotMeasures & {
  t: number;
  /** Tweets in the scope (0 for snapshots older than the scopes column). */
  items: number;
  /** Bootstrap 95% intervals of the four measures, when computed. */
  ci: Table3Intervals | null;
};

export type LabelDistributionRow = {
  label: string;
  name: string;
  accepted: number;
  share: number;
  /** Mean of top/total votes of the tweets accepted with this label (from the background analysis). */
  meanAgreement: number | null;
};

export type EventAgreementData = {
  latest: SnapshotPoint | null;
  series: SnapshotPoint[];
  snapshotsTotal: number;
  distribution: LabelDistributionRow[];
  acceptedTotal: number;
  analysis: AnalysisStatus;
};

export const MAX_SERIES_POINTS = 240;

type SnapshotRow = SnapshotMeasures & { at: Date; scopes: unknown };

const orNull = (x: number | null) => (x === null ? null : Number(x));

/** A snapshot row as a point of the chosen scope (an older row has only the all-judged scope). */
function toPoint(r: SnapshotRow, scope: Table3Scope): SnapshotPoint {
  const f = snapshotScope(
    {
      judgments: num(r.judgments),
      fleissKappa: orNull(r.fleissKappa),
      krippendorffAlpha: orNull(r.krippendorffAlpha),
      averageObservedAgreement: orNull(r.averageObservedAgreement),
      averageMajorityAgreement: orNull(r.averageMajorityAgreement),
      scopes: r.scopes,
    },
    scope,
  );
  return {
    t: new Date(r.at).getTime(),
    judgments: f?.judgments ?? num(r.judgments),
    tweetsAccepted: num(r.tweetsAccepted),
    fleissKappa: f?.fleissKappa ?? null,
    krippendorffAlpha: f?.krippendorffAlpha ?? null,
    averageObservedAgreement: f?.averageObservedAgreement ?? null,
    averageMajorityAgreement: f?.averageMajorityAgreement ?? null,
    items: f?.items ?? 0,
    ci: f?.ci ?? null,
  };
}

const SNAPSHOT_SELECT = { at: true, judgments: true, tweetsAccepted: true, fleissKappa: true, krippendorffAlpha: true, averageObservedAgreement: true, averageMajorityAgreement: true, scopes: true } as const;

/** The snapshots of an event over time, thinned in the database to at most `maxPoints` (the last kept). */
export async function snapshotSeries(db: Db, eventId: string, scope: Table3Scope = "agreed", maxPoints = MAX_SERIES_POINTS): Promise<{ series: SnapshotPoint[]; total: number }> {
  const total = await db.metricSnapshot.count({ where: { eventId } });
  if (total === 0) return { series: [], total };
  if (total <= maxPoints) {
    const rows = await db.metricSnapshot.findMany({
      where: { eventId },
      orderBy: { at: "asc" },
      select: SNAPSHOT_SELECT,
    });
    return { series: rows.map((r) => toPoint(r, scope)), total };
  }
  const step = Math.ceil(total / maxPoints);
  const rows = await db.$queryRaw<SnapshotRow[]>`
    SELECT "at", "judgments", "tweetsAccepted", "fleissKappa", "krippendorffAlpha", "averageObservedAgreement", "averageMajorityAgreement", "scopes"
      FROM (SELECT s.*, ROW_NUMBER() OVER (ORDER BY s."at", s."id") AS rn FROM "MetricSnapshot" s WHERE s."eventId" = ${eventId}) x
     WHERE x.rn % ${step} = 0 OR x.rn = ${total} OR x.rn = 1
     ORDER BY x.rn`;
  return { series: rows.map((r) => toPoint(r, scope)), total };
}

/**
 * Accepted labels per label (Table 2), in scheme order: counts from the (eventId, label) index alone (a
 * covering scan); the mean agreement per label comes from the background analysis when given.
 */
export async function labelDistribution(
  db: Db,
  event: { id: string; schemeId: string },
  meanOf: (label: string) => number | null = () => null,
): Promise<{ rows: LabelDistributionRow[]; total: number }> {
  const [labels, groups] = await Promise.all([
    labelsOfScheme(db, event.schemeId),
    db.$queryRaw<Array<{ label: string; n: unknown }>>`
      SELECT "label" AS label, COUNT(*) AS n FROM "AcceptedLabel" WHERE "eventId" = ${event.id} GROUP BY "label"`,
  ]);
  const byLabel = new Map(groups.map((g) => [g.label, { n: num(g.n), mean: meanOf(g.label) }]));
  const total = groups.reduce((s, g) => s + num(g.n), 0);
  const rows: LabelDistributionRow[] = labels.map((l) => {
    const g = byLabel.get(l.value);
    return { label: l.value, name: l.name, accepted: g?.n ?? 0, share: total > 0 ? (g?.n ?? 0) / total : 0, meanAgreement: g?.mean ?? null };
  });
  for (const [label, g] of byLabel) {
    if (!labels.some((l) => l.value === label)) rows.push({ label, name: label, accepted: g.n, share: total > 0 ? g.n / total : 0, meanAgreement: g.mean });
  }
  return { rows, total };
}

export async function loadEventAgreement(db: Db, event: { id: string; schemeId: string }, scope: Table3Scope = "agreed"): Promise<EventAgreementData> {
  const [{ series, total }, latestRow, analysis] = await Promise.all([
    snapshotSeries(db, event.id, scope),
    db.metricSnapshot.findFirst({
      where: { eventId: event.id },
      orderBy: [{ at: "desc" }, { id: "desc" }],
      select: SNAPSHOT_SELECT,
    }),
    analysisStatus(db, event.id),
  ]);
  const means = new Map((analysis.analysis?.perLabel ?? []).map((p) => [p.label, p.meanAgreement ?? null]));
  const distribution = await labelDistribution(db, event, (label) => means.get(label) ?? null);
  return {
    latest: latestRow ? toPoint(latestRow, scope) : null,
    series,
    snapshotsTotal: total,
    distribution: distribution.rows,
    acceptedTotal: distribution.total,
    analysis,
  };
}
