"use client";

import { useRouter } from "next/navigation";
import { startTransition, useActionState, useEffect } from "react";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { initialActionState } from "@/lib/actions/action-state";
import { addLlmLabelsAction } from "@/lib/actions/llm";

/** "Add LLM labels": queues a run (a recorded job); while one is queued or running the card re-renders every 2 s. */
export function AddLlmLabelsForm({ eventId, active }: { eventId: string; active: boolean }) {
  const router = useRouter();
  const [state, action, pending] = useActionState(addLlmLabelsAction, initialActionState);
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => startTransition(() => router.refresh()), 2000);
    return () => clearInterval(t);
  }, [active, router]);
  return (
    <form action={action} className="flex flex-wrap items-center gap-3" data-testid="add-llm-labels">
      <input type="hidden" name="eventId" value={eventId} />
      <Button type="submit" disabled={pending || active}>
        {pending ? "Queueing…" : active ? "Labelling…" : "Add LLM labels"}
      </Button>
      <FormMessage ok={state.ok} message={state.message} />
    </form>
  );
}
