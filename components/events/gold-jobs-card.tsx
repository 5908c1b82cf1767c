import type { GoldJobRow } from "@/lib/gold/gold-jobs";
import { formatDateTime } from "@/lib/text/format";
import { JOB_STATE } from "@/lib/db/enums";
import { Card } from "@/components/ui/card";
import { GoldJobProgress } from "./gold-job-progress";
import { StatusBadge } from "./status-badge";

/** The event's recent bulk gold changes that ran as jobs: a running one's progress, a finished one's result. */
export function GoldJobsCard({ jobs }: { jobs: GoldJobRow[] }) {
  if (jobs.length === 0) return null;
  return (
    <Card title="Gold changes" description="Large gold changes (many tweets at once) run as recorded jobs: their progress survives a reload." className="mt-6">
      <ul className="divide-y divide-slate-100" data-testid="gold-jobs">
        {jobs.map((j) => {
          const running = j.progress.state === JOB_STATE.queued || j.progress.state === JOB_STATE.running;
          return (
            <li key={j.id} className="py-2 text-sm" data-testid="gold-job">
              <div className="flex flex-wrap items-center gap-2">
                <StatusBadge status={j.progress.state} />
                <span className="font-medium first-letter:uppercase">{j.what}</span>
                <span className="text-xs text-slate-500">
                  {formatDateTime(j.createdAt)}
                  {j.finishedAt ? ` → ${formatDateTime(j.finishedAt)}` : ""}
                </span>
              </div>
              {running ? (
                <div className="mt-2">
                  <GoldJobProgress jobId={j.id} initial={j.progress} />
                </div>
              ) : null}
              {j.result ? <p className="mt-1 text-xs text-slate-700" data-testid="gold-job-result">{j.result}</p> : null}
              {j.progress.error && j.progress.state === JOB_STATE.failed ? <p className="mt-1 text-xs text-red-700">{j.progress.error}</p> : null}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
