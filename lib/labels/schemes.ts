import "server-only";
import type { Db } from "@/lib/db/client";
import { HUMAID_LABELS } from "@/lib/labels/humaid";

export const HUMAID_SCHEME_SLUG = "humaid";

/** Creates the built-in HumAID scheme (11 labels) if missing; returns its id. Idempotent. */
export async function ensureHumaidScheme(db: Db): Promise<string> {
  const existing = await db.labelScheme.findUnique({ where: { slug: HUMAID_SCHEME_SLUG }, select: { id: true } });
  if (existing) return existing.id;
  try {
    const scheme = await db.labelScheme.create({
      data: {
        slug: HUMAID_SCHEME_SLUG,
        name: "HumAID humanitarian categories",
        description: "The 11 categories of the HumAID dataset (Alam et al., ICWSM 2021).",
        builtin: true,
        labels: { create: HUMAID_LABELS.map((l, position) => ({ value: l.value, name: l.name, description: l.description, position })) },
      },
      select: { id: true },
    });
    return scheme.id;
  } catch (err) {
    // Another process created it at the same moment.
    const again = await db.labelScheme.findUnique({ where: { slug: HUMAID_SCHEME_SLUG }, select: { id: true } });
    if (again) return again.id;
    throw err;
  }
}

/** The label values of a scheme, in display order. */
export async function schemeLabelValues(db: Db, schemeId: string): Promise<string[]> {
  const labels = await db.label.findMany({ where: { schemeId }, orderBy: { position: "asc" }, select: { value: true } });
  return labels.map((l) => l.value);
}
