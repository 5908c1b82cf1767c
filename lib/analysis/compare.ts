import "server-only";
import type { Db } from "@/lib/db/client";
import type { Table3Scope } from "@/lib/metrics/table3";
import { analysisStatus } from "./analysis";
import { snapshotScope, type Table3Intervals } from "./table3-scopes";

/**
 * Compare events: the paper's Table 3 (agreement, as of each event's latest metric snapshot) and Table 2
 * (accepted labels per label) for every event side by side.
 */
export type CompareRow = {
  id: string;
  slug: string;
  name: string;
  type: string;
  /** Tweets and judgments in the chosen scope. */
  items: number | null;
  judgments: number | null;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
  averageObservedAgreement: number | null;
  averageMajorityAgreement: number | null;
  /** Bootstrap 95% intervals of the four measures, when the snapshot has them. */
  ci: Table3Intervals | null;
  snapshotAt: Date | null;
  accepted: number;
  labels: Record<string, number>;
};

export type CompareData = { scope: Table3Scope; rows: CompareRow[]; labels: Array<{ value: string; name: string }> };

export async function compareEvents(
  db: Db,
  { includeArchived = false, scope = "agreed" }: { includeArchived?: boolean; scope?: Table3Scope } = {},
): Promise<CompareData> {
  const events = await db.event.findMany({
    where: includeArchived ? {} : { archived: false },
    orderBy: [{ type: "asc" }, { slug: "asc" }],
    select: { id: true, slug: true, name: true, type: true, schemeId: true },
  });
  const ids = events.map((e) => e.id);
  const schemeIds = [...new Set(events.map((e) => e.schemeId))];
  const [snapshots, groups, schemeLabels, analyses] = await Promise.all([
    Promise.all(
      ids.map((eventId) =>
        db.metricSnapshot.findFirst({
          where: { eventId },
          orderBy: [{ at: "desc" }, { id: "desc" }],
          select: { eventId: true, at: true, judgments: true, fleissKappa: true, krippendorffAlpha: true, averageObservedAgreement: true, averageMajorityAgreement: true, scopes: true },
        }),
      ),
    ),
    db.acceptedLabel.groupBy({ by: ["eventId", "label"], where: { eventId: { in: ids } }, _count: { _all: true } }),
    db.label.findMany({ where: { schemeId: { in: schemeIds } }, orderBy: [{ schemeId: "asc" }, { position: "asc" }], select: { value: true, name: true } }),
    // the bootstrap intervals come from each event's latest background analysis
    Promise.all(ids.map((eventId) => analysisStatus(db, eventId))),
  ]);
  const intervalsOf = new Map(ids.map((id, i) => [id, analyses[i].analysis?.intervals?.[scope] ?? null]));
  const labels: Array<{ value: string; name: string }> = [];
  const seen = new Set<string>();
  for (const l of [...schemeLabels, ...groups.map((g) => ({ value: g.label, name: g.label }))]) {
    if (seen.has(l.value)) continue;
    seen.add(l.value);
    labels.push(l);
  }
  const snapOf = new Map(snapshots.filter((s) => s !== null).map((s) => [s.eventId, s]));
  const countsOf = new Map<string, Record<string, number>>();
  for (const g of groups) {
    const counts = countsOf.get(g.eventId) ?? {};
    counts[g.label] = g._count._all;
    countsOf.set(g.eventId, counts);
  }
  const rows = events.map((e): CompareRow => {
    const snap = snapOf.get(e.id);
    const s = snap ? snapshotScope(snap, scope) : null;
    const counts = countsOf.get(e.id) ?? {};
    return {
      id: e.id,
      slug: e.slug,
      name: e.name,
      type: e.type,
      items: s ? s.items : null,
      judgments: s?.judgments ?? null,
      fleissKappa: s?.fleissKappa ?? null,
      krippendorffAlpha: s?.krippendorffAlpha ?? null,
      averageObservedAgreement: s?.averageObservedAgreement ?? null,
      averageMajorityAgreement: s?.averageMajorityAgreement ?? null,
      ci: s?.ci ?? intervalsOf.get(e.id) ?? null,
      snapshotAt: snap?.at ?? null,
      accepted: Object.values(counts).reduce((a, b) => a + b, 0),
      labels: counts,
    };
  });
  return { scope, rows, labels };
}
