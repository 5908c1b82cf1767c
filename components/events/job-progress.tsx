"use client";

import { useRouter } from "next/navigation";
import { startTransition, useEffect, useState } from "react";
import { formatDuration, formatInt } from "@/lib/text/format";
import { JOB_STATE } from "@/lib/db/enums";

/** A job's progress as /api/jobs/[id] answers it (lib/events/imports.ts progressOf). */
export type JobProgressView = { state: string; done: number; total: number | null; message: string | null; rate: number | null; etaSeconds: number | null; cancelRequested: boolean };

const isRunning = (state: string) => state === JOB_STATE.queued || state === JOB_STATE.running;

/** Reads a job's progress every second while it runs (so it continues after a reload); re-renders the page when it ends. */
export function useJobProgress(jobId: string, initial: JobProgressView): { p: JobProgressView; running: boolean } {
  const router = useRouter();
  const [p, setP] = useState<JobProgressView>(initial);
  const running = isRunning(p.state);
  useEffect(() => {
    if (!running) return;
    let stop = false;
    const tick = async () => {
      try {
        const res = await fetch(`/api/jobs/${encodeURIComponent(jobId)}`, { cache: "no-store" });
        if (!res.ok || stop) return;
        const next = (await res.json()) as JobProgressView;
        setP(next);
        if (!isRunning(next.state)) startTransition(() => router.refresh());
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
  return { p, running };
}

/** The bar: what the job is doing, done / total `unit`, rate and time left. */
export function JobProgressBar({ p, running, unit, label, testId }: { p: JobProgressView; running: boolean; unit: string; label: string; testId: string }) {
  const pct = p.total ? Math.min(100, Math.round((100 * p.done) / p.total)) : null;
  return (
    <>
      <div className="flex justify-between text-xs text-slate-600" data-testid={`${testId}-text`}>
        <span>
          {p.state === JOB_STATE.queued ? "Waiting for the job runner…" : p.message ?? p.state}
          {p.cancelRequested && running ? " · cancelling" : ""}
        </span>
        <span className="tabular">
          {formatInt(p.done)}
          {p.total !== null ? ` / ~${formatInt(p.total)} ${unit}` : ` ${unit}`}
          {p.rate ? ` · ${formatInt(Math.round(p.rate))}/s` : ""}
          {p.etaSeconds !== null && running ? ` · ${formatDuration(p.etaSeconds)} left` : ""}
        </span>
      </div>
      <div className="h-2 overflow-hidden rounded bg-slate-100" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct ?? undefined} aria-label={label}>
        <div className={`h-2 bg-accent-500 transition-all ${pct === null ? "w-1/3 animate-pulse" : ""}`} style={pct !== null ? { width: `${pct}%` } : undefined} />
      </div>
    </>
  );
}
