"use client";

import { useActionState, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { estimatePublishAction, publishBatchAction } from "@/lib/actions/campaign";
import type { BatchEstimate } from "@/lib/campaign/estimate";
import { DEFAULT_CURRENCY, formatInt, formatMoney, minorUnitName } from "@/lib/text/format";
import type { PublishDefaults } from "@/lib/crowd/mturk/settings";

/** `currency`: the event's crowd's (lib/events/event-currency.ts); the reward and every amount are in its minor units. */
export function PublishForm({ eventId, defaults, production, currency }: { eventId: string; defaults: PublishDefaults; production: boolean; currency: string }) {
  const [estimateState, estimateAction, estimating] = useActionState(estimatePublishAction, initialActionState);
  const [publishState, publishAction, publishing] = useActionState(publishBatchAction, initialActionState);
  const [dirty, setDirty] = useState(false);
  // Which button ran last: after a publish (done or refused) Publish waits for a new estimate.
  const [last, setLast] = useState<"estimate" | "publish" | null>(null);
  const published = last === "publish" ? { ok: publishState.ok, message: publishState.message } : null;
  const estimate = published?.ok ? undefined : (estimateState.data?.estimate as BatchEstimate | undefined);
  // The values last submitted stay in the fields (a reward the floor accepted is not reset to the default).
  const v = (last === "publish" ? publishState.values : estimateState.values) ?? publishState.values ?? estimateState.values ?? {};
  const errors = last === "publish" ? (publishState.fieldErrors ?? {}) : (estimateState.fieldErrors ?? {});
  const canPublish = Boolean(estimate?.ok) && !dirty && last === "estimate";
  return (
    <form key={formKey(publishState)} className="space-y-3" noValidate onChange={() => setDirty(true)}>
      <input type="hidden" name="eventId" value={eventId} />
      <FormMessage ok={publishState.ok} message={published?.message} />
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="HITs" name="hitCount" hint={'A whole number, or "all" for every waiting tweet'} errors={errors.hitCount}>
          <TextInput name="hitCount" inputMode="numeric" defaultValue={v.hitCount ?? "5"} errors={errors.hitCount} />
        </Field>
        <Field label={`Reward per assignment (${minorUnitName(currency)})`} name="rewardCents" hint={`100 = ${formatMoney(100, currency)}`} errors={errors.rewardCents}>
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
          <input type="checkbox" name="confirmProduction" /> I confirm publishing to the production crowd with real money.
        </label>
      ) : null}
      <FormMessage ok={false} message={last === "estimate" ? estimateState.message : undefined} />
      {estimate ? <EstimateTable estimate={estimate} /> : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" variant="secondary" formAction={(fd) => { setDirty(false); setLast("estimate"); return estimateAction(fd); }} disabled={estimating}>
          {estimating ? "Estimating…" : "Estimate cost"}
        </Button>
        <Button type="submit" formAction={(fd) => { setLast("publish"); return publishAction(fd); }} disabled={!canPublish || publishing} aria-describedby="publish-why">
          {publishing ? "Publishing…" : estimate ? `Publish ${hitsText(estimate.hits)}` : "Publish"}
        </Button>
      </div>
      <p id="publish-why" className="text-xs text-slate-600" data-testid="publish-why">
        {publishWhy({ estimate, dirty, publishing, published })}
      </p>
    </form>
  );
}

/** One line under the buttons: what Publish needs before it can be pressed, or what it will do. */
function publishWhy({ estimate, dirty, publishing, published }: { estimate?: BatchEstimate; dirty: boolean; publishing: boolean; published: { ok: boolean; message?: string } | null }): string {
  const money = (minor: number) => formatMoney(minor, estimate?.currency ?? DEFAULT_CURRENCY);
  if (publishing) return "Sending the batch to the publish job…";
  if (published?.ok) return "Batch sent. For another batch, press “Estimate cost” again: Publish is enabled after a new estimate.";
  if (published && !published.ok) return "Publish was refused (the message above says why): change the form and press “Estimate cost” again.";
  if (!estimate) return "Publish is enabled after “Estimate cost”: it sends exactly the estimated batch, never more.";
  if (dirty) return "The form changed since the estimate: press “Estimate cost” again to enable Publish.";
  if (!estimate.ok) return "Publish stays disabled until the problem above is fixed (fewer HITs, a lower reward, or a higher cap), then estimate again.";
  return `Ready: publishes ${hitsText(estimate.hits)} that may cost up to ${money(estimate.worstCaseCents)} in all.`;
}

const hitsText = (n: number) => `${formatInt(n)} HIT${n === 1 ? "" : "s"}`;

/** The estimate with its scope on every row: this batch, this event's cap and spend, all events, the provider. */
function EstimateTable({ estimate }: { estimate: BatchEstimate }) {
  const ev = estimate.event;
  const eventLeft = ev.capCents === null ? null : Math.max(0, ev.capCents - ev.committedCents);
  const allLeft = estimate.budgetCapCents === null ? null : Math.max(0, estimate.budgetCapCents - estimate.committedCents);
  const money = (minor: number) => formatMoney(minor, estimate.currency);
  return (
    <table className="w-full text-sm" data-testid="cost-estimate">
      <caption className="sr-only">Cost estimate of this batch against the budget caps</caption>
      <tbody className="tabular">
        <Row label={`This batch: ${formatInt(estimate.hits)} HITs × ${estimate.assignmentsPerHit} assignments × (${money(estimate.rewardCents)} reward + ${money(estimate.feePerAssignmentCents)} fee${estimate.feeBasis?.source === "estimate" ? ", an estimate" : ""})`} value={money(estimate.baseCents)} />
        <Row label={`This batch: extra assignments that may be needed (up to ${estimate.maxAssignmentsPerHit} per HIT)`} value={money(estimate.extraReserveCents)} />
        <Row label={`This batch: worst case (${estimate.currency})`} value={money(estimate.worstCaseCents)} strong />
        <Row label="This event: budget cap" value={ev.capCents === null ? "no cap" : money(ev.capCents)} testId="estimate-event-cap" />
        <Row label={`This event: spent so far in ${estimate.currency} (rewards, fees, bonuses)`} value={money(ev.spentCents)} testId="estimate-event-spent" />
        <Row label="This event: committed (spent + worst case of its open HITs)" value={money(ev.committedCents)} testId="estimate-event-committed" />
        {eventLeft !== null ? <Row label="This event: left under its cap" value={money(eventLeft)} warn={estimate.worstCaseCents > eventLeft} testId="estimate-event-left" /> : null}
        {estimate.budgetCapCents !== null && allLeft !== null ? (
          estimate.budgetCapCurrency === estimate.currency ? (
            <Row label={`All events: budget cap ${money(estimate.budgetCapCents)} (${estimate.budgetCapCurrency} spend only), committed ${money(estimate.committedCents)}; left`} value={money(allLeft)} warn={estimate.worstCaseCents > allLeft} testId="estimate-all-left" />
          ) : (
            <Row label={`All events: budget cap ${formatMoney(estimate.budgetCapCents, estimate.budgetCapCurrency)} counts ${estimate.budgetCapCurrency} spend only`} value={`does not apply to ${estimate.currency}`} testId="estimate-all-left" />
          )
        ) : null}
        {estimate.feeBasis ? <Row label={`Prolific fees: ${estimate.feeBasis.note}`} value={estimate.feeBasis.source === "estimate" ? "estimate" : "quoted"} testId="estimate-fee-basis" /> : null}
        <Row label="Provider balance" value={estimate.balanceCents === null ? "no money involved" : money(estimate.balanceCents)} warn={estimate.balanceCents !== null && estimate.worstCaseCents > estimate.balanceCents} />
      </tbody>
    </table>
  );
}

function Row({ label, value, strong, warn, testId }: { label: string; value: string; strong?: boolean; warn?: boolean; testId?: string }) {
  return (
    <tr className="border-t border-slate-100" data-testid={testId}>
      <th scope="row" className="py-1 pr-2 text-left font-normal text-slate-600">{label}</th>
      <td className={`py-1 text-right ${strong ? "font-semibold text-slate-900" : ""} ${warn ? "font-semibold text-red-700" : ""}`}>
        {value}
        {warn ? <span className="sr-only"> (not enough for this batch)</span> : null}
      </td>
    </tr>
  );
}
