"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { initialActionState } from "@/lib/actions/action-state";
import { cancelImportAction } from "@/lib/actions/imports";
import { JobProgressBar, type JobProgressView, useJobProgress } from "./job-progress";

/**
 * A running import's progress bar (rows processed, rate, time left), read from its job every second (so it
 * continues after a reload), with a cancel button; the page re-renders when the job ends.
 */
export function ImportProgress({ importId, jobId, initial, canCancel }: { importId: string; jobId: string; initial: JobProgressView; canCancel: boolean }) {
  const { p, running } = useJobProgress(jobId, initial);
  const [cancelState, cancel, cancelling] = useActionState(cancelImportAction, initialActionState);
  return (
    <div className="space-y-1" data-testid="import-progress" data-state={p.state}>
      <JobProgressBar p={p} running={running} unit="rows" label="Import progress" testId="import-progress" />
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
