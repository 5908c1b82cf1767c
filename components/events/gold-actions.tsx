"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { initialActionState } from "@/lib/actions/action-state";
import { restoreGoldAction, retireGoldAction } from "@/lib/actions/gold";

/** Retire a suspicious gold tweet (no longer used in new HITs or tests), or bring it back. */
export function GoldActions({ tweetId, retired }: { tweetId: string; retired: boolean }) {
  const [state, action, pending] = useActionState(retired ? restoreGoldAction : retireGoldAction, initialActionState);
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="tweetId" value={tweetId} />
      <Button type="submit" variant={retired ? "secondary" : "danger"} className="!px-2 !py-1 text-xs" disabled={pending}>
        {retired ? "Restore" : "Retire"}
      </Button>
      {state.message && !state.ok ? <span className="text-xs text-red-700">{state.message}</span> : null}
    </form>
  );
}
