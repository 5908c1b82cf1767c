"use client";

import { useRouter } from "next/navigation";
import { startTransition, useActionState, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { initialActionState } from "@/lib/actions/action-state";
import { cancelImportAction } from "@/lib/actions/imports";
import { formatDuration, formatInt } from "@/lib/events/format";
import { IMPORT_STATUS } from "@/lib/db/enums";

type Progress = { state: string; done: number; total: number | null; message: string | null; rate: number | null; etaSeconds: number | null; cancelRequested: boolean };

/**
 * A running import's progress bar (rows processed, rate, time left), read from its job every second (so it
 * continues after a reload), with a cancel button; the page re-renders when the job ends.
 */
export function ImportProgress({ importId, jobId, initial, canCancel }: { importId: string; jobId: string; initial: Progress; canCancel: boolean }) {
  const router = useRouter();
  const [p, setP] = useState<Progress>(initial);
  const [cancelState, cancel, cancelling] = useActionState(cancelImportAction, initialActionState);
  const running = p.state === IMPORT_STATUS.queued || p.state === IMPORT_STATUS.running;
  useEffect(() => {
    if (!running) return;
    let stop = false;
    const tick = async () => {
      try {
        const res = await fetch(`/api/jobs/${encodeURIComponent(jobId)}`, { cache: "no-store" });
        if (!res.ok || stop) return;
        const next = (await res.json()) as Progress;
        setP(next);
        if (next.state !== IMPORT_STATUS.queued && next.state !== IMPORT_STATUS.running) startTransition(() => router.refresh());
      } catch {
        // offline for a moment: try again on the next tick
      }
    };
    const t = setInterval(tick, 1000);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, [jobId, running, router]);
  const pct = p.total ? Math.min(100, Math.round((100 * p.done) / p.total)) : null;
  return (
    <div className="space-y-1" data-testid="import-progress" data-state={p.state}>
      <div className="flex justify-between text-xs text-slate-600">
        <span>
          {p.state === IMPORT_STATUS.queued ? "Waiting for the job runner…" : p.message ?? p.state}
          {p.cancelRequested && running ? " · cancelling" : ""}
        </span>
        <span className="tabular">
          {formatInt(p.done)}
          {p.total !== null ? ` / ~${formatInt(p.total)} rows` : " rows"}
          {p.rate ? ` · ${formatInt(Math.round(p.rate))}/s` : ""}
          {p.etaSeconds !== null && running ? ` · ${formatDuration(p.etaSeconds)} left` : ""}
        </span>
      </div>
      <div className="h-2 overflow-hidden rounded bg-slate-100" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct ?? undefined} aria-label="Import progress">
        <div className={`h-2 bg-accent-500 transition-all ${pct === null ? "w-1/3 animate-pulse" : ""}`} style={pct !== null ? { width: `${pct}%` } : undefined} />
      </div>
      {canCancel && running ? (
        <form action={cancel}>
          <input type="hidden" name="importId" value={importId} />
          <Button type="submit" variant="secondary" className="!px-2 !py-1 text-xs" disabled={cancelling || p.cancelRequested}>
            Cancel import
          </Button>
          {cancelState.message ? <span className={`ml-2 text-xs ${cancelState.ok ? "text-slate-600" : "text-red-700"}`}>{cancelState.message}</span> : null}
        </form>
      ) : null}
    </div>
  );
}
