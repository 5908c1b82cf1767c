"use client";

import { useActionState, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { estimatePublishAction, publishBatchAction } from "@/lib/actions/campaign";
import type { BatchEstimate } from "@/lib/campaign/estimate";
import type { PublishDefaults } from "@/lib/settings/crowd-settings";

const usd = (cents: number | null | undefined) => (cents === null || cents === undefined ? "—" : `$${(cents / 100).toFixed(2)}`);

export function PublishForm({ eventId, defaults, production }: { eventId: string; defaults: PublishDefaults; production: boolean }) {
  const [estimateState, estimateAction, estimating] = useActionState(estimatePublishAction, initialActionState);
  const [publishState, publishAction, publishing] = useActionState(publishBatchAction, initialActionState);
  const [dirty, setDirty] = useState(false);
  const estimate = estimateState.data?.estimate as BatchEstimate | undefined;
  const v = estimateState.values ?? {};
  const errors = { ...(estimateState.fieldErrors ?? {}), ...(publishState.fieldErrors ?? {}) };
  const canPublish = Boolean(estimate?.ok) && !dirty;
  return (
    <form key={formKey(publishState)} className="space-y-3" noValidate onChange={() => setDirty(true)}>
      <input type="hidden" name="eventId" value={eventId} />
      <FormMessage ok={publishState.ok} message={publishState.message} />
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="HITs" name="hitCount" hint={'A number, or "all"'} errors={errors.hitCount}>
          <TextInput name="hitCount" defaultValue={v.hitCount ?? "5"} errors={errors.hitCount} />
        </Field>
        <Field label="Reward per assignment (cents)" name="rewardCents" errors={errors.rewardCents}>
          <TextInput name="rewardCents" inputMode="numeric" defaultValue={v.rewardCents ?? String(defaults.rewardCents)} errors={errors.rewardCents} />
        </Field>
        <Field label="Lifetime (hours)" name="lifetimeHours" errors={errors.lifetimeHours}>
          <TextInput name="lifetimeHours" inputMode="decimal" defaultValue={v.lifetimeHours ?? String(defaults.lifetimeSeconds / 3600)} errors={errors.lifetimeHours} />
        </Field>
        <Field label="Time per assignment (minutes)" name="durationMinutes" errors={errors.durationMinutes}>
          <TextInput name="durationMinutes" inputMode="decimal" defaultValue={v.durationMinutes ?? String(defaults.durationSeconds / 60)} errors={errors.durationMinutes} />
        </Field>
        <Field label="Auto-approval after (hours)" name="autoApprovalHours" errors={errors.autoApprovalHours}>
          <TextInput name="autoApprovalHours" inputMode="decimal" defaultValue={v.autoApprovalHours ?? String(defaults.autoApprovalSeconds / 3600)} errors={errors.autoApprovalHours} />
        </Field>
        <Field label="Keywords" name="keywords" errors={errors.keywords}>
          <TextInput name="keywords" defaultValue={v.keywords ?? defaults.keywords} errors={errors.keywords} />
        </Field>
      </div>
      <Field label="Title" name="title" errors={errors.title}>
        <TextInput name="title" defaultValue={v.title ?? defaults.title} errors={errors.title} />
      </Field>
      <Field label="Description" name="description" errors={errors.description}>
        <TextInput name="description" defaultValue={v.description ?? defaults.description} errors={errors.description} />
      </Field>
      {production ? (
        <label className="flex items-center gap-2 text-sm text-red-800">
          <input type="checkbox" name="confirmProduction" /> I confirm publishing to production MTurk with real money.
        </label>
      ) : null}
      <FormMessage ok={false} message={estimateState.message} />
      {estimate ? (
        <table className="w-full text-sm" data-testid="cost-estimate">
          <tbody className="tabular">
            <Row label={`${estimate.hits} HITs × ${estimate.assignmentsPerHit} assignments × (${usd(estimate.rewardCents)} + ${usd(estimate.feePerAssignmentCents)} fee)`} value={usd(estimate.baseCents)} />
            <Row label={`Extra assignments that may be needed (up to ${estimate.maxAssignmentsPerHit} per HIT)`} value={usd(estimate.extraReserveCents)} />
            <Row label="Worst case" value={usd(estimate.worstCaseCents)} strong />
            <Row label="Budget cap / already spent or committed" value={`${usd(estimate.budgetCapCents)} / ${usd(estimate.committedCents)}`} />
            <Row label="Provider balance" value={estimate.balanceCents === null ? "no money involved" : usd(estimate.balanceCents)} />
          </tbody>
        </table>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" variant="secondary" formAction={(fd) => { setDirty(false); return estimateAction(fd); }} disabled={estimating}>
          {estimating ? "Estimating…" : "Estimate cost"}
        </Button>
        <Button type="submit" formAction={publishAction} disabled={!canPublish || publishing} title={canPublish ? undefined : "Estimate the cost first"}>
          {publishing ? "Publishing…" : estimate ? `Publish ${estimate.hits} HITs` : "Publish"}
        </Button>
      </div>
    </form>
  );
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <tr className="border-t border-slate-100">
      <td className="py-1 text-slate-600">{label}</td>
      <td className={`py-1 text-right ${strong ? "font-semibold text-slate-900" : ""}`}>{value}</td>
    </tr>
  );
}
