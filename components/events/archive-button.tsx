"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { initialActionState } from "@/lib/actions/action-state";
import { setEventArchivedAction } from "@/lib/actions/events";

/** Archive an event (hidden from the Events list unless asked for; nothing is deleted), or restore it. */
export function ArchiveButton({ eventId, archived }: { eventId: string; archived: boolean }) {
  const [state, action, pending] = useActionState(setEventArchivedAction, initialActionState);
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="eventId" value={eventId} />
      <input type="hidden" name="archived" value={archived ? "false" : "true"} />
      <Button type="submit" variant="secondary" disabled={pending}>
        {archived ? "Restore this event" : "Archive this event"}
      </Button>
      {state.message ? <span className={`text-xs ${state.ok ? "text-slate-600" : "text-red-700"}`}>{state.message}</span> : null}
    </form>
  );
}
