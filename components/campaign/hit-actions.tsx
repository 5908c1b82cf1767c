"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { initialActionState } from "@/lib/actions/action-state";
import { hitAction } from "@/lib/actions/campaign";
import { HIT_STATUS } from "@/lib/db/enums";

/** Expire, extend or delete a HIT on the provider. */
export function HitActions({ hitId, status }: { hitId: string; status: string }) {
  const [state, action, pending] = useActionState(hitAction, initialActionState);
  const active = status === HIT_STATUS.published || status === HIT_STATUS.extended;
  return (
    <form action={action} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="hitId" value={hitId} />
      <Button type="submit" name="op" value="expire" variant="secondary" disabled={pending || !active}>
        Expire now
      </Button>
      <span className="inline-flex items-center gap-1">
        <input name="hours" defaultValue="24" aria-label="Hours to extend" className="w-16 rounded border border-slate-300 px-2 py-1 text-sm" />
        <Button type="submit" name="op" value="extend" variant="secondary" disabled={pending || status === HIT_STATUS.deleted}>
          Extend (hours)
        </Button>
      </span>
      <Button type="submit" name="op" value="delete" variant="danger" disabled={pending || status === HIT_STATUS.deleted || status === HIT_STATUS.draft}>
        Delete
      </Button>
      <FormMessage ok={state.ok} message={state.message} />
    </form>
  );
}
