"use client";

import { useActionState, useEffect, useRef } from "react";
import { acceptTask } from "@/lib/actions/task";
import { initialActionState } from "@/lib/actions/action-state";
import { buttonClass } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";

/** Takes a slot of a HIT; the action opens the work page. */
export function AcceptHitButton({ hitId, label, primary = false, autoFocus = false }: { hitId: string; label: string; primary?: boolean; autoFocus?: boolean }) {
  const [state, action, pending] = useActionState(acceptTask, initialActionState);
  const button = useRef<HTMLButtonElement>(null);
  // The next step is starting work: Enter does it (also after a client-side navigation).
  useEffect(() => {
    if (autoFocus) button.current?.focus();
  }, [autoFocus]);
  return (
    <form action={action} className="inline-flex flex-col items-end gap-1">
      <input type="hidden" name="hitId" value={hitId} />
      <button ref={button} type="submit" className={buttonClass(primary ? "primary" : "secondary")} disabled={pending}>
        {pending ? "Opening…" : label}
      </button>
      <FormMessage ok={state.ok} message={state.message} />
    </form>
  );
}
