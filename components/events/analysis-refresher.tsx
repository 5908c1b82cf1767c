"use client";

import { useRouter } from "next/navigation";
import { startTransition, useActionState, useEffect } from "react";
import { Button } from "@/components/ui/button";
import { initialActionState } from "@/lib/actions/action-state";
import { requestAnalysisAction } from "@/lib/actions/events";

/**
 * Keeps the background agreement analysis fresh while the page is open: asks for a new run when decisions
 * were made since the shown one (at most every `minIntervalMs`), and re-renders while one runs. A button
 * forces a run.
 */
export function AnalysisRefresher({ eventId, stale, running, finishedAt, minIntervalMs = 10_000 }: { eventId: string; stale: boolean; running: boolean; finishedAt: number | null; minIntervalMs?: number }) {
  const router = useRouter();
  const [state, action, pending] = useActionState(requestAnalysisAction, initialActionState);
  useEffect(() => {
    if (running) {
      const t = setInterval(() => startTransition(() => router.refresh()), 2000);
      return () => clearInterval(t);
    }
    if (!stale) return;
    const wait = finishedAt ? Math.max(0, minIntervalMs - (Date.now() - finishedAt)) : 0;
    const t = setTimeout(() => {
      const fd = new FormData();
      fd.set("eventId", eventId);
      startTransition(() => {
        action(fd);
        router.refresh();
      });
    }, wait);
    return () => clearTimeout(t);
  }, [eventId, stale, running, finishedAt, minIntervalMs, action, router]);
  return (
    <form action={action} className="flex shrink-0 items-center gap-2 whitespace-nowrap text-xs text-slate-500" data-testid="analysis-status" data-running={running ? "1" : "0"} data-stale={stale ? "1" : "0"}>
      <input type="hidden" name="eventId" value={eventId} />
      <input type="hidden" name="force" value="1" />
      <span>{running ? "Computing…" : stale ? "New decisions: refreshing soon" : "Up to date"}</span>
      <Button type="submit" variant="ghost" className="!px-2 !py-0.5 text-xs" disabled={pending || running}>
        Recompute
      </Button>
      {state.message && !state.ok ? <span className="text-red-700">{state.message}</span> : null}
    </form>
  );
}
