"use client";

import { useActionState, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { initialActionState } from "@/lib/actions/action-state";
import { workerAction } from "@/lib/actions/campaign";
import { DEFAULT_CURRENCY, formatMoney, minorUnitName } from "@/lib/text/format";

type Op = "block" | "unblock" | "notify" | "bonus";

/** Block/unblock, message or pay a bonus to one worker (in minor units of `currency`, their crowd's). */
export function WorkerActions({ workerId, blocked, currency }: { workerId: string; blocked: boolean; currency: string }) {
  const [state, action, pending] = useActionState(workerAction, initialActionState);
  const [op, setOp] = useState<Op | null>(null);
  const input = "rounded border border-slate-300 px-2 py-1 text-sm";
  return (
    <div className="space-y-2 text-sm">
      <div className="flex gap-1">
        {(["notify", "bonus", blocked ? "unblock" : "block"] as Op[]).map((o) => (
          <Button key={o} type="button" variant={op === o ? "primary" : "secondary"} className="!px-2 !py-1 text-xs" onClick={() => setOp(op === o ? null : o)}>
            {o}
          </Button>
        ))}
      </div>
      {op ? (
        <form action={action} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="workerId" value={workerId} />
          <input type="hidden" name="op" value={op} />
          {op === "notify" ? (
            <>
              <input name="subject" placeholder="Subject" aria-label="Subject" className={input} />
              <input name="message" placeholder="Message" aria-label="Message" className={`${input} min-w-64`} />
            </>
          ) : null}
          {op === "bonus" ? <input name="amountCents" placeholder={currency === DEFAULT_CURRENCY ? "Cents" : currency} aria-label={`Bonus in ${minorUnitName(currency)}`} title={`100 = ${formatMoney(100, currency)}`} inputMode="numeric" className={`${input} w-20`} /> : null}
          {op !== "notify" ? <input name="reason" placeholder={op === "unblock" ? "Reason (optional)" : "Reason (the worker sees it)"} aria-label="Reason" className={`${input} min-w-56`} /> : null}
          <Button type="submit" className="!px-2 !py-1 text-xs" disabled={pending}>
            {pending ? "…" : `Confirm ${op}`}
          </Button>
        </form>
      ) : null}
      {state.fieldErrors ? <p className="text-xs text-red-700">{Object.values(state.fieldErrors).flat().join(" ")}</p> : null}
      <FormMessage ok={state.ok} message={state.message} />
    </div>
  );
}
