"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { initialActionState } from "@/lib/actions/action-state";
import { makeGoldAction } from "@/lib/actions/gold";
import { formatInt } from "@/lib/text/format";

/** Confirms "make gold from labelled tweets" exactly as previewed (same upload, N per class and seed). */
export function MakeGoldConfirm({ eventId, importId, perClass, seed, total, planKey }: { eventId: string; importId: string; perClass: number; seed: number; total: number; planKey: string }) {
  const [state, action, pending] = useActionState(makeGoldAction, initialActionState);
  // Once done, the button is gone (the page's new preview would pick other tweets): more gold needs a new Preview.
  const done = state.ok === true;
  return (
    <form action={action} className="mt-3 flex flex-wrap items-center gap-2" data-testid="make-gold-confirm">
      <input type="hidden" name="eventId" value={eventId} />
      <input type="hidden" name="importId" value={importId} />
      <input type="hidden" name="perClass" value={perClass} />
      <input type="hidden" name="seed" value={seed} />
      <input type="hidden" name="planKey" value={planKey} />
      {done ? null : (
        <Button type="submit" disabled={pending || total === 0}>
          {pending ? "Making gold…" : `Make ${formatInt(total)} gold tweets`}
        </Button>
      )}
      <FormMessage ok={state.ok} message={state.message} />
      {done ? <p className="text-xs text-slate-600" data-testid="make-gold-done">Done. For more gold, change the number per class or the seed and press Preview.</p> : null}
    </form>
  );
}
