"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { initialActionState } from "@/lib/actions/action-state";
import { redecideAssignmentAction } from "@/lib/actions/campaign";

/** A researcher's decision on an assignment, with the reason the worker will see. */
export function RedecideForm({ assignmentId }: { assignmentId: string }) {
  const [state, action, pending] = useActionState(redecideAssignmentAction, initialActionState);
  return (
    <form action={action} className="flex flex-wrap items-start gap-2 text-sm">
      <input type="hidden" name="assignmentId" value={assignmentId} />
      <input name="reason" placeholder="Reason (shown to the worker)" aria-label="Reason" className="min-w-56 flex-1 rounded border border-slate-300 px-2 py-1" />
      <Button type="submit" name="decision" value="approve" variant="secondary" disabled={pending}>
        Approve
      </Button>
      <Button type="submit" name="decision" value="reject" variant="danger" disabled={pending}>
        Reject
      </Button>
      {state.fieldErrors?.reason ? <span className="w-full text-xs text-red-700">{state.fieldErrors.reason.join(" ")}</span> : null}
      <FormMessage ok={state.ok} message={state.message} />
    </form>
  );
}
