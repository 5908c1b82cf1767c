"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { initialActionState } from "@/lib/actions/action-state";
import { startReplayAction } from "@/lib/actions/events";
import { JobProgressBar, type JobProgressView, useJobProgress } from "./job-progress";

/** A running replay's progress (decided HITs read, then rule sets replayed), read from its job every second; the page re-renders when it ends. */
function ReplayProgress({ jobId, initial }: { jobId: string; initial: JobProgressView }) {
  const { p, running } = useJobProgress(jobId, initial);
  return (
    <div className="mt-3 space-y-1" data-testid="replay-progress" data-state={p.state}>
      <JobProgressBar p={p} running={running} unit="steps" label="Replay progress" testId="replay-progress" />
    </div>
  );
}

/** The button that starts a replay job (refused while one runs), and the running one's progress. */
export function ReplayRunner({ eventId, active }: { eventId: string; active: (JobProgressView & { jobId: string }) | null }) {
  const [state, action, pending] = useActionState(startReplayAction, initialActionState);
  return (
    <div>
      <form action={action} className="flex flex-wrap items-center gap-2">
        <input type="hidden" name="eventId" value={eventId} />
        <Button type="submit" variant="secondary" data-testid="replay-start" disabled={pending || active !== null}>
          Replay the recorded work under the current rules
        </Button>
        {state.message && !state.ok ? (
          <span className="text-sm text-red-700" role="alert">
            {state.message}
          </span>
        ) : null}
      </form>
      {active ? <ReplayProgress key={active.jobId} jobId={active.jobId} initial={active} /> : null}
    </div>
  );
}
