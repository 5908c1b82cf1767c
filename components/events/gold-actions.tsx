"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { initialActionState } from "@/lib/actions/action-state";
import { bulkGoldAction, markGoldAction, restoreGoldAction, retireGoldAction, unmarkGoldAction } from "@/lib/actions/gold";

type LabelOption = { value: string; name: string };
const small = "!px-2 !py-1 text-xs";

/** Retire a suspicious gold tweet (no longer used in new HITs or tests), or bring it back. */
export function GoldActions({ tweetId, retired }: { tweetId: string; retired: boolean }) {
  const [state, action, pending] = useActionState(retired ? restoreGoldAction : retireGoldAction, initialActionState);
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="tweetId" value={tweetId} />
      <Button type="submit" variant={retired ? "secondary" : "danger"} className={small} disabled={pending}>
        {retired ? "Restore" : "Retire"}
      </Button>
      {state.message && !state.ok ? <span className="text-xs text-red-700">{state.message}</span> : null}
    </form>
  );
}

/** A Data-tab row's gold control: mark an unknown tweet gold with an expert label, or unmark a gold tweet. */
export function TweetGoldControl({ tweetId, gold, defaultLabel, labels }: { tweetId: string; gold: boolean; defaultLabel: string | null; labels: LabelOption[] }) {
  const [state, action, pending] = useActionState(gold ? unmarkGoldAction : markGoldAction, initialActionState);
  return (
    <form action={action} className="flex flex-wrap items-center gap-1" data-testid="tweet-gold">
      <input type="hidden" name="tweetId" value={tweetId} />
      {gold ? null : (
        <select name="label" aria-label="Expert label" defaultValue={defaultLabel ?? ""} className="max-w-40 rounded border border-slate-300 px-1 py-0.5 text-xs">
          <option value="">expert label…</option>
          {labels.map((l) => (
            <option key={l.value} value={l.value}>
              {l.name}
            </option>
          ))}
        </select>
      )}
      <Button type="submit" variant="secondary" className={small} disabled={pending}>
        {gold ? "Unmark gold" : "Mark gold"}
      </Button>
      {state.message ? <span className={`block w-full text-xs ${state.ok ? "text-emerald-700" : "text-red-700"}`}>{state.message}</span> : null}
    </form>
  );
}

/** Marks or unmarks every tweet matching the table's filters (a recorded job when there are many). */
export function BulkGoldForm({ eventId, filters, matching, labels }: { eventId: string; filters: Record<string, string | undefined>; matching: number; labels: LabelOption[] }) {
  const [state, action, pending] = useActionState(bulkGoldAction, initialActionState);
  return (
    <form action={action} className="mb-3 flex flex-wrap items-end gap-2 rounded-md bg-slate-50 px-3 py-2 text-sm" data-testid="bulk-gold">
      <input type="hidden" name="eventId" value={eventId} />
      {Object.entries(filters).map(([k, v]) => (v ? <input key={k} type="hidden" name={k} value={v} /> : null))}
      <span className="text-xs text-slate-600">All {matching.toLocaleString("en-US")} matching tweets:</span>
      <select name="mode" aria-label="Gold change" className="rounded-md border border-slate-300 px-2 py-1 text-xs">
        <option value="mark">mark as gold</option>
        <option value="unmark">unmark gold</option>
      </select>
      <select name="goldLabel" aria-label="Expert label for all" className="rounded-md border border-slate-300 px-2 py-1 text-xs">
        <option value="">with each tweet&apos;s file label</option>
        {labels.map((l) => (
          <option key={l.value} value={l.value}>
            as {l.name}
          </option>
        ))}
      </select>
      <Button type="submit" variant="secondary" className={small} disabled={pending || matching === 0}>
        Apply
      </Button>
      <FormMessage ok={state.ok} message={state.message} />
    </form>
  );
}
