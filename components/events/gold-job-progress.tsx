"use client";

import { JobProgressBar, type JobProgressView, useJobProgress } from "./job-progress";

/** A running bulk gold change's progress (tweets done of the request's), read from its job every second. */
export function GoldJobProgress({ jobId, initial }: { jobId: string; initial: JobProgressView }) {
  const { p, running } = useJobProgress(jobId, initial);
  return (
    <div className="space-y-1" data-testid="gold-job-progress" data-state={p.state}>
      <JobProgressBar p={p} running={running} unit="tweets" label="Gold change progress" testId="gold-job-progress" />
    </div>
  );
}
