import "server-only";
import { z } from "zod";
import type { Db, Prisma } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { loadClassifierModel } from "@/lib/classify/store";
import type { ImportClassifierLoader } from "@/lib/ingest/import-job";
import { ingestSettingsSchema, parseIngestSettings } from "@/lib/ingest/settings";

/**
 * The classifier the import job applies (ingest settings' `classifier` step and sampling by prediction):
 * the model chosen for the event (Event.filters.classifier.modelId, read from the raw JSON because the
 * ingest settings schema does not know the key) when it exists and uses the event's label scheme,
 * otherwise the newest model of the event's label scheme; null when there is none.
 */
const chosenSchema = z.object({ classifier: z.object({ modelId: z.string().min(1) }) });

export function chosenModelId(filters: Prisma.JsonValue): string | null {
  const parsed = chosenSchema.safeParse(filters);
  return parsed.success ? parsed.data.classifier.modelId : null;
}

/** Which model an import of this event would use, without loading its weights. */
export async function importModelFor(db: Db, { eventId, schemeId }: { eventId: string; schemeId: string }): Promise<{ id: string; name: string; version: number; chosen: boolean } | null> {
  const event = await db.event.findUnique({ where: { id: eventId }, select: { filters: true } });
  const wanted = event ? chosenModelId(event.filters) : null;
  if (wanted) {
    const chosen = await db.classifierModel.findFirst({ where: { id: wanted, schemeId }, select: { id: true, name: true, version: true } });
    if (chosen) return { ...chosen, chosen: true };
  }
  const newest = await db.classifierModel.findFirst({
    where: { schemeId },
    orderBy: [{ createdAt: "desc" }, { version: "desc" }],
    select: { id: true, name: true, version: true },
  });
  return newest ? { ...newest, chosen: false } : null;
}

export const loadImportClassifier: ImportClassifierLoader = async ({ db, eventId, schemeId }) => {
  const ref = await importModelFor(db, { eventId, schemeId });
  if (!ref) return null;
  const { model } = await loadClassifierModel(db, { id: ref.id });
  return { predict: (texts: string[]) => model.predict(texts) };
};

export const importUseSchema = z.object({
  eventId: z.string().min(1).max(60),
  modelId: z.string().min(1).max(60),
  /** Predicted classes to drop at import (HumAID §3.1 step 4). */
  dropLabels: z.array(z.string().trim().min(1).max(100)).max(100).default([]),
  /** Sample this many tweets per predicted class (HumAID §3.2); null = no sampling. */
  perClass: z.number().int().positive().max(1_000_000).nullable().default(null),
  budget: z.number().int().positive().max(10_000_000).nullable().default(null),
});
export type ImportUse = z.input<typeof importUseSchema>;

/**
 * Uses a model for an event's future imports: turns the classifier step on with the chosen classes to
 * drop, optionally samples per predicted class, and records the model (Event.filters.classifier.modelId).
 * The other ingest settings are kept.
 */
export async function applyModelToImports(db: Db, input: ImportUse): Promise<{ slug: string; name: string }> {
  const { eventId, modelId, dropLabels, perClass, budget } = importUseSchema.parse(input);
  const [event, model] = await Promise.all([
    db.event.findUnique({ where: { id: eventId }, select: { id: true, slug: true, name: true, schemeId: true, filters: true } }),
    db.classifierModel.findUnique({ where: { id: modelId }, select: { id: true, schemeId: true } }),
  ]);
  if (!event) throw new UserError("That event does not exist.", "event_not_found");
  if (!model) throw new UserError("That model does not exist.", "model_not_found");
  if (model.schemeId !== event.schemeId) {
    throw new UserError("This model was trained on another label scheme than the event's.", "scheme_mismatch", { eventId: ["Choose an event of the model's label scheme."] });
  }
  const current = parseIngestSettings(event.filters);
  const sampling = perClass !== null || budget !== null ? { enabled: true, by: "prediction" as const, perClass, budget, seed: current.sampling.seed } : { ...current.sampling, enabled: current.sampling.by === "prediction" ? false : current.sampling.enabled };
  const next = ingestSettingsSchema.parse({ ...current, classifier: { enabled: true, dropLabels }, sampling });
  const filters = { ...next, classifier: { ...next.classifier, modelId } };
  await db.event.update({ where: { id: eventId }, data: { filters: filters as unknown as Prisma.InputJsonValue } });
  return { slug: event.slug, name: event.name };
}
