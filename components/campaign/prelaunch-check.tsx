"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { initialActionState } from "@/lib/actions/action-state";
import { crowdPolicyAction } from "@/lib/actions/campaign";
import type { CrowdPolicySettings } from "@/lib/crowd/policy";

/**
 * The Publish panel's pre-launch check: what the crowd will do with submissions under the event's policy settings,
 * sentence by sentence, and the settings themselves. A policy the crowd forbids is refused with its reason.
 */
export function PrelaunchCheck({ eventId, crowdName, statements, refusal, settings, configurable, costSoFar }: { eventId: string; crowdName: string; statements: string[]; refusal: string | null; settings: CrowdPolicySettings; /** Whether the crowd's policy reads these settings (else no form). */ configurable: boolean; /** What excluded work has cost so far (the gold rule's price on a crowd that pays for it). */ costSoFar: string | null }) {
  const [state, action, saving] = useActionState(crowdPolicyAction, initialActionState);
  return (
    <section className="mb-4 rounded-md border border-slate-200 p-3 text-sm" aria-labelledby="prelaunch-title" data-testid="prelaunch-check">
      <h3 id="prelaunch-title" className="font-medium">
        Before you publish: what {crowdName} submissions will get
      </h3>
      <ul className="mt-1 list-disc pl-5 text-slate-700" data-testid="prelaunch-statements">
        {statements.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
      {costSoFar ? (
        <p className="mt-1 text-slate-700" data-testid="prelaunch-excluded-cost">
          {costSoFar}
        </p>
      ) : null}
      {refusal ? (
        <p className="mt-1 text-red-800" role="alert" data-testid="prelaunch-refusal">
          Publishing is refused: {refusal}
        </p>
      ) : null}
      {configurable ? (
        <details className="mt-2">
          <summary className="cursor-pointer text-slate-700">Change the decision policy</summary>
          <form action={action} className="mt-2 space-y-2" noValidate>
            <input type="hidden" name="eventId" value={eventId} />
            <FormMessage ok={state.ok} message={state.message} />
            <label className="flex items-center gap-2">
              Below the gold rule
              <select name="belowGold" defaultValue={settings.belowGold} className="rounded border border-slate-300 px-2 py-1">
                <option value="exclude">Approve, pay and exclude the work</option>
                <option value="reject">Reject</option>
              </select>
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" name="attentionChecks" defaultChecked={settings.attentionChecks} /> Attention checks in each HIT (2)
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" name="rejectFailedChecks" defaultChecked={settings.rejectFailedChecks} /> Reject submissions that fail the attention checks
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" name="rejectTooQuick" defaultChecked={settings.rejectTooQuick} /> Reject exceptionally fast completions
            </label>
            <label className="flex items-center gap-2">
              Rejection cap (% of a study&apos;s places)
              <input type="number" name="rejectionCapPercent" min={0} max={50} step={1} defaultValue={Math.round(settings.rejectionCapShare * 100)} className="w-20 rounded border border-slate-300 px-2 py-1" />
            </label>
            <Button type="submit" variant="secondary" disabled={saving}>
              {saving ? "Checking…" : "Check and save the policy"}
            </Button>
          </form>
        </details>
      ) : null}
    </section>
  );
}
