import { z } from "zod";
import type { Table3BothScopes, Table3Figures, Table3Scope } from "@/lib/metrics/table3";

/**
 * Table 3 of a metric snapshot in both scopes, as stored in MetricSnapshot.scopes (JSON; undefined measures as
 * null, optional bootstrap intervals). Snapshots written before the column existed hold only the all-judged scope,
 * in the float columns.
 */
const measure = z.number().nullable();
const interval = z.tuple([z.number(), z.number()]).nullable();
const figuresSchema = z.object({
  items: z.number(),
  judgments: z.number(),
  fleissKappa: measure,
  averageObservedAgreement: measure,
  krippendorffAlpha: measure,
  averageMajorityAgreement: measure,
  ci: z
    .object({ fleissKappa: interval, averageObservedAgreement: interval, krippendorffAlpha: interval, averageMajorityAgreement: interval })
    .optional(),
});
const scopesSchema = z.object({ agreed: figuresSchema, all: figuresSchema });

export type StoredFigures = z.infer<typeof figuresSchema>;
export type StoredScopes = z.infer<typeof scopesSchema>;
export type Table3Intervals = NonNullable<StoredFigures["ci"]>;

export const MEASURES = ["fleissKappa", "averageObservedAgreement", "krippendorffAlpha", "averageMajorityAgreement"] as const;

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

export function toStoredFigures(f: Table3Figures, ci?: Table3Intervals): StoredFigures {
  return {
    items: f.items,
    judgments: f.judgments,
    fleissKappa: finite(f.fleissKappa),
    averageObservedAgreement: finite(f.averageObservedAgreement),
    krippendorffAlpha: finite(f.krippendorffAlpha),
    averageMajorityAgreement: finite(f.averageMajorityAgreement),
    ...(ci ? { ci } : {}),
  };
}

export function toStoredScopes(both: Table3BothScopes, ci?: Partial<Record<Table3Scope, Table3Intervals>>): StoredScopes {
  return { agreed: toStoredFigures(both.agreed, ci?.agreed), all: toStoredFigures(both.all, ci?.all) };
}

/** The stored JSON (an object, or text from a raw SQLite query); null when absent or not of this shape. */
export function parseStoredScopes(value: unknown): StoredScopes | null {
  let v = value;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  const parsed = scopesSchema.safeParse(v);
  return parsed.success ? parsed.data : null;
}

type LegacyColumns = {
  judgments: number;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
  averageObservedAgreement: number | null;
  averageMajorityAgreement: number | null;
};

/** One scope of a snapshot row: from the JSON, or for an older row the float columns (all-judged scope only). */
export function snapshotScope(row: LegacyColumns & { scopes: unknown }, scope: Table3Scope): StoredFigures | null {
  const stored = parseStoredScopes(row.scopes);
  if (stored) return stored[scope];
  if (scope === "agreed") return null;
  return {
    items: 0,
    judgments: row.judgments,
    fleissKappa: row.fleissKappa,
    averageObservedAgreement: row.averageObservedAgreement,
    krippendorffAlpha: row.krippendorffAlpha,
    averageMajorityAgreement: row.averageMajorityAgreement,
  };
}

/** `?scope=all` → "all"; anything else the default, agreed tweets. */
export function parseScopeParam(value: string | string[] | undefined | null): Table3Scope {
  const v = Array.isArray(value) ? value[0] : value;
  return v === "all" ? "all" : "agreed";
}

/** The sentence shown beside Table 3 for a scope. */
export function scopeExplanation(scope: Table3Scope): string {
  return scope === "agreed"
    ? "Over the agreed tweets (those with an accepted label, i.e. the released dataset): the scope the paper's figures imply."
    : "Over all judged tweets, agreed or not: lower than the paper's scope whenever some tweets found no agreement.";
}

/**
 * The κ a page shows as an event's headline figure (Events list, Overview card): the agreed-tweets scope, the Agreement
 * tab's default; a snapshot written before scopes were stored has only the all-judged scope, and says so.
 */
export function headlineKappa(row: (LegacyColumns & { scopes: unknown }) | null): { fleissKappa: number | null; judgments: number; scope: Table3Scope } | null {
  if (!row) return null;
  const agreed = snapshotScope(row, "agreed");
  const s = agreed ?? snapshotScope(row, "all");
  return s ? { fleissKappa: s.fleissKappa, judgments: s.judgments, scope: agreed ? "agreed" : "all" } : null;
}

/** The short name of a scope beside a figure: "agreed tweets" / "all judged tweets". */
export function scopeShortName(scope: Table3Scope): string {
  return scope === "agreed" ? "agreed tweets" : "all judged tweets";
}
