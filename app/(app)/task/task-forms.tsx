"use client";

import { useActionState } from "react";
import { acceptTask } from "@/lib/actions/task";
import { initialActionState } from "@/lib/actions/action-state";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";

/** Takes a slot of a HIT; the action opens the work page. */
export function AcceptHitButton({ hitId, label, primary = false, autoFocus = false }: { hitId: string; label: string; primary?: boolean; autoFocus?: boolean }) {
  const [state, action, pending] = useActionState(acceptTask, initialActionState);
  return (
    <form action={action} className="inline-flex flex-col items-end gap-1">
      <input type="hidden" name="hitId" value={hitId} />
      <Button type="submit" variant={primary ? "primary" : "secondary"} disabled={pending} autoFocus={autoFocus}>
        {pending ? "Opening…" : label}
      </Button>
      <FormMessage ok={state.ok} message={state.message} />
    </form>
  );
}
