import "server-only";
import fs from "node:fs";
import path from "node:path";
import type { Db } from "@/lib/db/client";
import { IMPORT_STATUS } from "@/lib/db/enums";
import { UserError } from "@/lib/errors";
import { schemeLabelValues } from "@/lib/labels/schemes";
import { createJudgmentImport } from "@/lib/ingest/judgments/judgment-import-job";
import { FORMAT_NAMES, type JudgmentMapping, judgmentMappingSchema } from "@/lib/ingest/judgments/mapping";
import { personalColumnsNote, previewJudgments } from "@/lib/ingest/judgments/preview";
import { parseIngestSettings } from "@/lib/ingest/settings";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import { drainJobs } from "@/lib/jobs/runner";
import { REPEAT_POLICIES, type RepeatPolicy } from "@/lib/metrics/repeats";
import { CliError } from "../errors";

export const JUDGMENTS_USAGE = `       accord import --judgments FILE --event SLUG [--repeats first|last|refuse] [--text-column COL]
                     [--label-column COL] [--label-map MAP.csv] [--json]

--judgments FILE imports another platform's judgments into the event: MTurk batch results (HITId, AssignmentId,
WorkerId, SubmitTime, Input.*, Answer.*: each Answer.* column one tweet), a CrowdFlower / Figure Eight / Appen full
report (_unit_id, _worker_id, _created_at, _golden, the label column and its _gold twin), or a plain
item,annotator,label[,submitted_at][,text] CSV. Tweets missing from the event are created from the text column;
the platform's gold units become gold; personal columns (IP, city, region, country) are never stored. Labels go
through the event's label map (--label-map). A worker who judged a tweet twice: --repeats (default refuse).
Nothing is stored when a row cannot be read; the same file imported again adds nothing.
`;

export async function runJudgmentImport(
  db: Db,
  { event, file, repeats, textColumn, labelColumn, json }: { event: { id: string; slug: string }; file: string; repeats: string; textColumn?: string; labelColumn?: string; json: boolean },
): Promise<number> {
  if (!(REPEAT_POLICIES as readonly string[]).includes(repeats)) throw new CliError(`--repeats: expected first, last or refuse, got "${repeats}"`, 2);
  const filePath = path.resolve(file);
  let text: string;
  try {
    text = await fs.promises.readFile(filePath, "utf8");
  } catch {
    throw new CliError(`cannot read ${file}`);
  }
  const ev = await db.event.findUniqueOrThrow({ where: { id: event.id }, select: { schemeId: true, filters: true } });
  const labels = { scheme: await schemeLabelValues(db, ev.schemeId), map: parseIngestSettings(ev.filters).labels.map };
  const preview = previewJudgments(text, labels);
  if (!preview.mapping) {
    throw new CliError(`${file}: not a judgment export Accord recognises (header: ${preview.header.slice(0, 12).join(",")}); expected MTurk batch results, a CrowdFlower full report or item,annotator,label`);
  }
  // --label-column and --text-column name ONE column: a file with several tweets per row (MTurk's Answer.label_1,
  // _2, …) keeps its own mapping, which they would otherwise point every slot at
  if ((labelColumn || textColumn) && preview.mapping.slots.length > 1) {
    const given = [labelColumn ? "--label-column" : null, textColumn ? "--text-column" : null].filter(Boolean).join(" and ");
    throw new CliError(
      `${file}: ${given} name${labelColumn && textColumn ? "" : "s"} one column, but this file has ${preview.mapping.slots.length} tweets per row (${preview.mapping.slots.map((s) => s.label).join(", ")}); leave ${labelColumn && textColumn ? "them" : "it"} out to use each tweet's own columns`,
      2,
    );
  }
  const mapping: JudgmentMapping = {
    ...preview.mapping,
    repeats: repeats as RepeatPolicy,
    slots: preview.mapping.slots.map((s) => ({ ...s, ...(textColumn ? { text: textColumn } : {}), ...(labelColumn ? { label: labelColumn, goldLabel: preview.header.includes(`${labelColumn}_gold`) ? `${labelColumn}_gold` : undefined } : {}) })),
  };
  const checked = judgmentMappingSchema.safeParse(mapping);
  if (!checked.success) throw new CliError(`${file}: ${checked.error.issues[0]?.message}`);
  if (!json) process.stderr.write(`${FORMAT_NAMES[mapping.format]}, ${preview.rows} rows. ${personalColumnsNote(preview.personalColumns)}\n`);
  let importId: string;
  try {
    ({ importId } = await createJudgmentImport({ db, eventId: event.id, fileName: path.basename(file), filePath, mapping: checked.data, via: "cli" }));
  } catch (err) {
    if (err instanceof UserError) throw new CliError(err.message);
    throw err;
  }
  await drainJobs(db, { registry: accordJobs({ loadClassifier: null }), types: [JOBS.judgmentImport.type] });
  const view = await db.importBatch.findUniqueOrThrow({ where: { id: importId } });
  const errors = await db.importError.findMany({ where: { importId }, orderBy: { line: "asc" }, take: 100, select: { line: true, column: true, reason: true } });
  if (json) {
    process.stdout.write(
      JSON.stringify({ importId, event: event.slug, kind: view.kind, fileName: view.fileName, format: view.format, status: view.status, message: view.message, rowsRead: view.rowsRead, rowsStored: view.rowsStored, errorCount: view.errorCount, errors, fileLabels: view.fileLabels, personalColumns: preview.personalColumns }) + "\n",
    );
  } else {
    const lines = [`import ${importId}: ${view.fileName} → event "${event.slug}" (judgments, ${view.format}): ${view.status}`];
    if (view.status === IMPORT_STATUS.needs_mapping && view.fileLabels) {
      lines.push("labels outside the event's scheme (judgments):");
      for (const [label, n] of Object.entries(view.fileLabels as Record<string, number>)) lines.push(`  ${label}: ${n}`);
      lines.push("map them with --label-map MAP.csv (from,to per line; to empty = drop) and run the import again.");
    }
    for (const e of errors.slice(0, 20)) lines.push(`  line ${e.line}${e.column ? ` [${e.column}]` : ""}: ${e.reason}`);
    if (view.message) lines.push(view.message);
    process.stdout.write(lines.join("\n") + "\n");
  }
  return view.status === IMPORT_STATUS.completed ? 0 : 1;
}
