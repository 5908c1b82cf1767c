import "server-only";
import type { Db, Prisma } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import type { TextClassifier } from "./model";
import { deserializeClassifier, serializeClassifier } from "./serialize";
import { isUniqueViolation } from "@/lib/db/unique-violation";

/**
 * Classifier models in the database (ClassifierModel): one row per (name, version), the serialised
 * model in `model`, what it was trained on in `trainedOn` and its scores (e.g. on an exported test
 * split) in `scores`. Saving under an existing name adds the next version.
 */

export type ClassifierModelMeta = {
  id: string;
  name: string;
  version: number;
  kind: string;
  schemeId: string | null;
  trainedOn: Prisma.JsonValue;
  scores: Prisma.JsonValue | null;
  createdAt: Date;
};

const META_SELECT = {
  id: true,
  name: true,
  version: true,
  kind: true,
  schemeId: true,
  trainedOn: true,
  scores: true,
  createdAt: true,
} as const;

export async function saveClassifierModel(
  db: Db,
  {
    name,
    model,
    trainedOn = {},
    scores,
    schemeId,
  }: {
    name: string;
    model: TextClassifier;
    /** What the caller knows about the training data (e.g. { events: [...] }); rows, labels and options are added. */
    trainedOn?: Record<string, Prisma.InputJsonValue>;
    scores?: Prisma.InputJsonValue;
    schemeId?: string;
  },
): Promise<ClassifierModelMeta> {
  const trimmed = name.trim();
  if (!trimmed) throw new UserError("a model needs a name", "invalid_model_name");
  const bytes = serializeClassifier(model);
  const { info } = model;
  const trainedOnJson = {
    ...trainedOn,
    rows: info.rows,
    labels: info.labelCounts,
    features: info.features,
    options: info.options,
    trainingMs: info.trainingMs,
    ...(info.dev ? { dev: info.dev } : {}),
    ...(info.search ? { search: info.search } : {}),
  } as unknown as Prisma.InputJsonValue;
  // The next version under this name; a concurrent save of the same name retries on the unique index.
  for (let attempt = 0; attempt < 5; attempt++) {
    const last = await db.classifierModel.findFirst({
      where: { name: trimmed },
      orderBy: { version: "desc" },
      select: { version: true },
    });
    try {
      return await db.classifierModel.create({
        data: {
          name: trimmed,
          version: (last?.version ?? 0) + 1,
          kind: info.kind,
          schemeId: schemeId ?? null,
          trainedOn: trainedOnJson,
          ...(scores === undefined ? {} : { scores }),
          model: new Uint8Array(bytes),
        },
        select: META_SELECT,
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new UserError(`could not save model "${trimmed}": too many concurrent saves`, "model_save_conflict");
}

export type ModelRef = { id: string } | { name: string; version?: number };

/** Loads a model (the newest version of a name when no version is given). */
export async function loadClassifierModel(db: Db, ref: ModelRef): Promise<ClassifierModelMeta & { model: TextClassifier }> {
  const row =
    "id" in ref
      ? await db.classifierModel.findUnique({ where: { id: ref.id }, select: { ...META_SELECT, model: true } })
      : await db.classifierModel.findFirst({
          where: { name: ref.name, ...(ref.version === undefined ? {} : { version: ref.version }) },
          orderBy: { version: "desc" },
          select: { ...META_SELECT, model: true },
        });
  if (!row) {
    const what = "id" in ref ? `id ${ref.id}` : `"${ref.name}"${ref.version === undefined ? "" : ` version ${ref.version}`}`;
    throw new UserError(`no classifier model ${what}`, "model_not_found");
  }
  const { model, ...meta } = row;
  return { ...meta, model: deserializeClassifier(model) };
}

/** Model metadata without the model bytes, newest first. */
export async function listClassifierModels(db: Db, { name }: { name?: string } = {}): Promise<ClassifierModelMeta[]> {
  return db.classifierModel.findMany({
    where: name ? { name } : {},
    orderBy: [{ createdAt: "desc" }, { version: "desc" }],
    select: META_SELECT,
  });
}

/** Records a model's scores (e.g. after evaluating it on an exported test split). */
export async function setClassifierScores(db: Db, { id, scores }: { id: string; scores: Prisma.InputJsonValue }): Promise<void> {
  await db.classifierModel.update({ where: { id }, data: { scores } });
}
