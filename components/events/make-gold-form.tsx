"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { initialActionState } from "@/lib/actions/action-state";
import { makeGoldAction } from "@/lib/actions/gold";

/** Confirms "make gold from labelled tweets" exactly as previewed (same upload, N per class and seed). */
export function MakeGoldConfirm({ eventId, importId, perClass, seed, total }: { eventId: string; importId: string; perClass: number; seed: number; total: number }) {
  const [state, action, pending] = useActionState(makeGoldAction, initialActionState);
  return (
    <form action={action} className="mt-3 flex flex-wrap items-center gap-2" data-testid="make-gold-confirm">
      <input type="hidden" name="eventId" value={eventId} />
      <input type="hidden" name="importId" value={importId} />
      <input type="hidden" name="perClass" value={perClass} />
      <input type="hidden" name="seed" value={seed} />
      <Button type="submit" disabled={pending || total === 0 || state.ok === true}>
        {`Make ${total} gold tweets`}
      </Button>
      <FormMessage ok={state.ok} message={state.message} />
    </form>
  );
}
