import type { ImportRow } from "@/lib/events/imports";
import { formatDateTime, formatInt } from "@/lib/text/format";
import { formatBytes } from "@/lib/ingest/limits";
import { importWarning } from "@/lib/ingest/outcome";
import { labelMapChoices } from "@/lib/ingest/label-map-choices";
import { IMPORT_KIND, IMPORT_STATUS } from "@/lib/db/enums";
import { Badge, EmptyState } from "@/components/ui/card";
import { FunnelTable } from "./funnel-table";
import { ImportFileActions } from "./import-file-actions";
import { ImportProgress } from "./import-progress";
import { LabelMapForm } from "./label-map-form";
import { StatusBadge } from "./status-badge";

type LabelOption = { value: string; name: string };

/** The Data tab's imports: status, counts, warning, message, label mapping, progress, funnel and the kept file's actions. */
export function ImportList({ imports, canEdit, labelMap, labels }: { imports: ImportRow[]; canEdit: boolean; labelMap: Record<string, string | null>; labels: LabelOption[] }) {
  if (imports.length === 0) return <EmptyState title="Nothing imported yet." />;
  const scheme = { values: labels.map((l) => l.value), names: labels.map((l) => l.name) };
  // The newest upload's funnel is open, and the last finished one's (a re-run of an older upload).
  const lastFinished = imports.reduce<ImportRow | null>((a, b) => (b.finishedAt && (!a?.finishedAt || b.finishedAt > a.finishedAt) ? b : a), null);
  const kept = keptUploads(imports);
  return (
    <>
      {kept.files > 0 ? (
        <p className="mb-2 text-xs text-slate-600" data-testid="kept-uploads">
          {kept.files === 1 ? "1 uploaded file is" : `${formatInt(kept.files)} uploaded files are`} kept on the server for re-runs ({formatBytes(kept.bytes)}); delete one below once no re-run needs it.
        </p>
      ) : null}
      <ul className="divide-y divide-slate-100" data-testid="imports">
        {imports.map((imp) => {
          const warning = importWarning(imp);
          const running = imp.status === IMPORT_STATUS.queued || imp.status === IMPORT_STATUS.running;
          const ended = imp.status === IMPORT_STATUS.completed || imp.status === IMPORT_STATUS.failed || imp.status === IMPORT_STATUS.cancelled;
          const canRerun = imp.status === IMPORT_STATUS.completed && imp.file?.kept === true;
          const failedWith = imp.status === IMPORT_STATUS.failed ? (imp.progress?.error ?? null) : null;
          const canDelete = ended && imp.file?.kept === true && imp.file.upload;
          return (
            <li key={imp.id} className="py-3" data-testid="import-row">
              <div className="flex flex-wrap items-center gap-2 text-sm">
                {/* amber, not green, when nothing or under half was stored (the sentence below says which) */}
                {/* while it runs, the job's state (the import row may still say "queued" while its job reads) */}
                {warning ? <StatusBadge status="warning" label={imp.status} /> : <StatusBadge status={running && imp.progress ? imp.progress.state : imp.status} />}
                <Badge tone={imp.kind === IMPORT_KIND.gold ? "amber" : "slate"}>{imp.kind}</Badge>
                <span className="font-medium">{imp.fileName}</span>
                <span className="text-xs text-slate-500">
                  {formatBytes(imp.fileSize)}
                  {imp.format ? ` · ${imp.format}` : ""} · {formatDateTime(imp.createdAt)}
                  {imp.createdBy ? ` · ${imp.createdBy}` : ""}
                </span>
                <span className="ml-auto tabular text-xs text-slate-600">
                  {/* The counts are the finished run's: while one runs its progress below is the only count shown. */}
                  {running ? "counts when the run ends" : `${formatInt(imp.rowsRead)} read → ${formatInt(imp.rowsStored)} stored`}
                  {imp.errorCount ? (
                    <>
                      {" · "}
                      <a className="text-red-700 underline" href={`/api/imports/${imp.id}/errors`} download>
                        {formatInt(imp.errorCount)} row errors (CSV)
                      </a>
                    </>
                  ) : null}
                </span>
              </div>
              {warning ? (
                <p className="mt-1 text-xs font-medium text-amber-800" data-testid="import-warning">
                  {warning}
                </p>
              ) : null}
              {/* A failed import's error is shown once, in red below; the grey message only when it says something else. */}
              {imp.message && !(failedWith && (failedWith.includes(imp.message) || imp.message.includes(failedWith))) ? (
                <p className="mt-1 text-xs text-slate-600" data-testid="import-message">{imp.message}</p>
              ) : null}
              {imp.status === IMPORT_STATUS.needs_mapping && imp.fileLabels ? (
                <div className="mt-2">
                  {canEdit ? (
                    <LabelMapForm importId={imp.id} labels={labelMapChoices(imp.fileLabels, labelMap, scheme)} scheme={labels} />
                  ) : (
                    <p className="text-xs text-slate-500">A researcher must map this file&apos;s labels before it imports.</p>
                  )}
                </div>
              ) : null}
              {imp.progress && running ? (
                <div className="mt-2">
                  <ImportProgress importId={imp.id} jobId={imp.progress.jobId} initial={imp.progress} canCancel={canEdit} />
                </div>
              ) : null}
              {failedWith ? <p className="mt-1 text-xs text-red-700" data-testid="import-error">{failedWith}</p> : null}
              {canEdit && (canRerun || canDelete) ? <ImportFileActions importId={imp.id} canRerun={canRerun} canDelete={canDelete} /> : null}
              {imp.funnel ? (
                <details className="mt-2" open={imports[0].id === imp.id || lastFinished?.id === imp.id}>
                  <summary className="cursor-pointer text-xs font-medium text-slate-600">Funnel (like the paper&apos;s Table 1)</summary>
                  <div className="mt-2 max-w-3xl">
                    <FunnelTable funnel={imp.funnel} />
                  </div>
                </details>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** The uploads still on disk among the listed imports (each import keeps its own; a re-run reads its import's). */
function keptUploads(imports: ImportRow[]): { files: number; bytes: number } {
  const kept = imports.filter((imp) => imp.file?.kept && imp.file.upload);
  return { files: kept.length, bytes: kept.reduce((n, imp) => n + imp.fileSize, 0) };
}
