"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { initialActionState } from "@/lib/actions/action-state";
import { collectMoreImportedAction } from "@/lib/actions/imports";

/**
 * An imported event's Overview: its unresolved imported tweets (no label accepted from the imported judgments) go back
 * to the publish queue, so that HITs on the event's crowd collect more judgments for them.
 */
export function CollectMoreForm({ eventId, unresolved, unknownPerHit }: { eventId: string; unresolved: number; unknownPerHit: number }) {
  const [state, action, pending] = useActionState(collectMoreImportedAction, initialActionState);
  if (unresolved === 0 && !state.message) return null;
  return (
    <form action={action} className="mb-3 space-y-2 rounded border border-slate-200 p-3 text-sm" data-testid="collect-more">
      <input type="hidden" name="eventId" value={eventId} />
      <FormMessage ok={state.ok} message={state.message} />
      {state.ok || unresolved === 0 ? null : (
        <>
          <p className="text-slate-700">
            {unresolved.toLocaleString("en-US")} imported tweet{unresolved === 1 ? " has" : "s have"} no accepted label. Collect more judgments for{" "}
            {unresolved === 1 ? "it" : "them"} on this event&apos;s crowd: {unresolved === 1 ? "it goes" : "they go"} back to the publish queue, and the new judgments count together with the imported ones.
            {unresolved < unknownPerHit ? ` A HIT takes ${unknownPerHit} tweets to label: lower the HIT size in Settings first.` : ""}
          </p>
          <Button type="submit" variant="secondary" disabled={pending}>
            {pending ? "Moving…" : "Collect more judgments on a crowd"}
          </Button>
        </>
      )}
    </form>
  );
}
