"use client";

import { EXTENSION_POLICIES, UNRESOLVED_HIT_POLICIES } from "@/lib/procedure/policies";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { describeGoldRuleRisk, goldRuleRisk } from "@/lib/procedure/wrong-decisions";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, FormMessage, SelectInput, TextArea, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { createEventAction } from "@/lib/actions/events";
import { EVENT_TYPES, NEW_EVENT_DEFAULTS } from "@/lib/events/events.validation";

type Scheme = { id: string; name: string; labels: number };

/** "New event": the event, its target locations and label scheme, and the HumAID rules with the paper's defaults. */
export function NewEventForm({ schemes, defaultSchemeId }: { schemes: Scheme[]; defaultSchemeId: string | null }) {
  const [state, action, pending] = useActionState(createEventAction, initialActionState);
  const v = state.values ?? {};
  const e = state.fieldErrors ?? {};
  const d = NEW_EVENT_DEFAULTS;
  return (
    <form key={formKey(state)} action={action} className="space-y-6" noValidate data-testid="new-event-form">
      <FormMessage ok={state.ok} message={state.message} />
      <Card title="The event" description="One disaster: the tweets sampled for it are labelled together and reported together.">
        <div className="grid gap-4 md:grid-cols-2">
          <Field label="Name" name="name" hint="e.g. Hurricane Maria 2017" errors={e.name}>
            <TextInput name="name" defaultValue={v.name} errors={e.name} required />
          </Field>
          <Field label="Short name (slug, optional)" name="slug" hint="Used in URLs and file names, e.g. hurricane_maria_2017; made from the name when empty." errors={e.slug}>
            <TextInput name="slug" defaultValue={v.slug} errors={e.slug} pattern="[a-z0-9][a-z0-9_-]*" />
          </Field>
          <Field label="Type" name="type" hint="Event-type splits group events by it." errors={e.type}>
            <TextInput name="type" list="event-types" defaultValue={v.type} errors={e.type} placeholder="e.g. earthquake, flood, hurricane" />
          </Field>
          <datalist id="event-types">
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
          <div className="grid grid-cols-2 gap-3">
            <Field label="Start date" name="startDate" hint="Tweets before are filtered out." errors={e.startDate}>
              <TextInput name="startDate" type="date" defaultValue={v.startDate} errors={e.startDate} />
            </Field>
            <Field label="End date" name="endDate" errors={e.endDate}>
              <TextInput name="endDate" type="date" defaultValue={v.endDate} errors={e.endDate} />
            </Field>
          </div>
          <div className="md:col-span-2">
            <Field
              label="Target locations"
              name="locations"
              hint={'One per line: Name | aliases, comma separated | optional box "minLon,minLat,maxLon,maxLat". Tweets are kept when their coordinates, place or user location match one.'}
              errors={e.locations}
            >
              <TextArea name="locations" rows={4} defaultValue={v.locations} errors={e.locations} placeholder={"Puerto Rico | PR, Borinquen | -67.5,17.8,-65.2,18.6\nSan Juan"} />
            </Field>
          </div>
          <Field label="Label scheme" name="schemeId" errors={e.schemeId}>
            <SelectInput name="schemeId" defaultValue={v.schemeId ?? defaultSchemeId ?? undefined}>
              {schemes.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.labels} labels)
                </option>
              ))}
            </SelectInput>
          </Field>
          <Field label="Crowd" name="provider" hint="MTurk uses the mode chosen in Settings (the local simulator by default)." errors={e.provider}>
            <SelectInput name="provider" defaultValue={v.provider ?? "mturk"}>
              <option value="mturk">MTurk (simulator / sandbox / production)</option>
              <option value="local">In-house annotators (Accord&apos;s task page)</option>
            </SelectInput>
          </Field>
          <Field label="Budget cap for this event ($, optional)" name="budgetCapDollars" hint="Publishing refuses to go beyond it (the global cap in Settings applies too)." errors={e.budgetCapDollars}>
            <TextInput name="budgetCapDollars" inputMode="decimal" defaultValue={v.budgetCapDollars} errors={e.budgetCapDollars} placeholder="e.g. 500" />
          </Field>
        </div>
      </Card>
      <Card title="Rules" description="The HumAID procedure (Alam et al. 2021, §4). The defaults are the paper's; change them only with a reason.">
        <div className="grid gap-4 md:grid-cols-3">
          <Field label="Tweets per HIT" name="hitSize" hint={`Paper: ${d.hitSize}`} errors={e.hitSize}>
            <TextInput name="hitSize" inputMode="numeric" defaultValue={v.hitSize ?? d.hitSize} errors={e.hitSize} />
          </Field>
          <Field label="Gold tweets per HIT" name="goldPerHit" hint={`Paper: ${d.goldPerHit} (the rest are unknown)`} errors={e.goldPerHit}>
            <TextInput name="goldPerHit" inputMode="numeric" defaultValue={v.goldPerHit ?? d.goldPerHit} errors={e.goldPerHit} />
          </Field>
          <Field label="Approve an assignment at (gold correct)" name="assignmentApproval" hint={`Paper: ${d.assignmentApproval} correct`} errors={e.assignmentApproval}>
            <TextInput name="assignmentApproval" defaultValue={v.assignmentApproval ?? d.assignmentApproval} errors={e.assignmentApproval} />
          </Field>
          <Field label="Judgments per tweet" name="judgmentsPerTweet" hint={`Paper: ${d.judgmentsPerTweet}`} errors={e.judgmentsPerTweet}>
            <TextInput name="judgmentsPerTweet" inputMode="numeric" defaultValue={v.judgmentsPerTweet ?? d.judgmentsPerTweet} errors={e.judgmentsPerTweet} />
          </Field>
          <Field label="At most (with extra assignments)" name="maxJudgmentsPerTweet" hint={`Paper: ${d.maxJudgmentsPerTweet}`} errors={e.maxJudgmentsPerTweet}>
            <TextInput name="maxJudgmentsPerTweet" inputMode="numeric" defaultValue={v.maxJudgmentsPerTweet ?? d.maxJudgmentsPerTweet} errors={e.maxJudgmentsPerTweet} />
          </Field>
          <Field label="Accept a tweet's label at (agreeing share)" name="tweetAcceptance" hint={`Paper: ${d.tweetAcceptance} of approved judgments`} errors={e.tweetAcceptance}>
            <TextInput name="tweetAcceptance" defaultValue={v.tweetAcceptance ?? d.tweetAcceptance} errors={e.tweetAcceptance} />
          </Field>
          <Field label="Approve a HIT at (accepted unknown tweets)" name="hitApproval" hint={`Paper: ${d.hitApproval}`} errors={e.hitApproval}>
            <TextInput name="hitApproval" defaultValue={v.hitApproval ?? d.hitApproval} errors={e.hitApproval} />
          </Field>
          <Field label="Qualification test questions" name="qualificationQuestions" hint={`Paper: ${d.qualificationQuestions} gold tweets`} errors={e.qualificationQuestions}>
            <TextInput name="qualificationQuestions" inputMode="numeric" defaultValue={v.qualificationQuestions ?? d.qualificationQuestions} errors={e.qualificationQuestions} />
          </Field>
          <Field label="Pass the test with at least" name="qualificationPass" hint={`Paper: ${d.qualificationPass} correct`} errors={e.qualificationPass}>
            <TextInput name="qualificationPass" inputMode="numeric" defaultValue={v.qualificationPass ?? d.qualificationPass} errors={e.qualificationPass} />
          </Field>
          <Field label="Below the approval threshold" name="belowThresholdAction" hint="Paper: reject, with the reason" errors={e.belowThresholdAction}>
            <SelectInput name="belowThresholdAction" defaultValue={v.belowThresholdAction ?? d.belowThresholdAction}>
              <option value="reject">reject with the reason</option>
              <option value="hold">hold for my review</option>
            </SelectInput>
          </Field>
          <Field label="More judgments are requested" name="extensionPolicy" hint={EXTENSION_POLICIES.find((p) => p.value === d.extensionPolicy)?.cost} errors={e.extensionPolicy}>
            <SelectInput name="extensionPolicy" defaultValue={v.extensionPolicy ?? d.extensionPolicy}>
              {EXTENSION_POLICIES.map((p) => (
                <option key={p.value} value={p.value} title={p.cost}>
                  {p.name}
                </option>
              ))}
            </SelectInput>
          </Field>
          <Field label="Accepted labels in HITs that end unresolved" name="unresolvedHitLabels" hint={UNRESOLVED_HIT_POLICIES.find((p) => p.value === d.unresolvedHitLabels)?.cost} errors={e.unresolvedHitLabels}>
            <SelectInput name="unresolvedHitLabels" defaultValue={v.unresolvedHitLabels ?? d.unresolvedHitLabels}>
              {UNRESOLVED_HIT_POLICIES.map((p) => (
                <option key={p.value} value={p.value} title={p.cost}>
                  {p.name}
                </option>
              ))}
            </SelectInput>
          </Field>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="keepDontKnow" defaultChecked={v.keepDontKnow === "on"} className="mt-1" />
            <span>
              Keep &ldquo;don&apos;t know or can&apos;t judge&rdquo; in exports
              <span className="block text-xs text-slate-500">The paper left it out of the released dataset (the default).</span>
            </span>
          </label>
        </div>
        <p className="mt-3 text-xs text-slate-600" data-testid="gold-rule-risk">
          The paper&apos;s gold rule, for 11 labels: {describeGoldRuleRisk(goldRuleRisk(DEFAULT_PROCEDURE_SETTINGS, { labels: 11 }))} The event page shows the figures for the rules you choose.
        </p>
        <ul className="mt-3 space-y-1 text-xs text-slate-500" data-testid="extension-costs">
          {EXTENSION_POLICIES.map((p) => (
            <li key={p.value}>
              <span className="font-medium text-slate-700">{p.name}:</span> {p.cost}
            </li>
          ))}
          {UNRESOLVED_HIT_POLICIES.map((p) => (
            <li key={p.value}>
              <span className="font-medium text-slate-700">Unresolved HITs&apos; labels, {p.name.toLowerCase()}:</span> {p.cost}
            </li>
          ))}
        </ul>
      </Card>
      <Card title="Filtering of uploads" description="The HumAID pipeline (§3.1): each upload goes through these steps in order, and its funnel shows what each removed.">
        <div className="grid gap-4 md:grid-cols-3">
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="filterDate" defaultChecked={state.values ? v.filterDate === "on" : true} className="mt-1" />
            <span>
              Keep only tweets inside the event&apos;s dates
              <span className="block text-xs text-slate-500">Uses the row&apos;s time, else the time encoded in the tweet id.</span>
            </span>
          </label>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="filterLocation" defaultChecked={state.values ? v.filterLocation === "on" : true} className="mt-1" />
            <span>
              Keep only tweets from the target locations
              <span className="block text-xs text-slate-500">Coordinates, then place, then the user&apos;s free-text location (offline, with the aliases).</span>
            </span>
          </label>
          <Field label="Tweets with no location information" name="noLocation" errors={e.noLocation}>
            <SelectInput name="noLocation" defaultValue={v.noLocation ?? d.noLocation}>
              <option value="keep">keep them</option>
              <option value="drop">drop them</option>
            </SelectInput>
          </Field>
          <Field label="Language not determined" name="languageUndetermined" hint="English is kept; other languages are removed." errors={e.languageUndetermined}>
            <SelectInput name="languageUndetermined" defaultValue={v.languageUndetermined ?? d.languageUndetermined}>
              <option value="keep">keep (counted separately)</option>
              <option value="drop">drop</option>
            </SelectInput>
          </Field>
          <Field label="Minimum words" name="minWords" hint={`Paper: ${d.minWords} (URLs, mentions and numbers do not count)`} errors={e.minWords}>
            <TextInput name="minWords" inputMode="numeric" defaultValue={v.minWords ?? d.minWords} errors={e.minWords} />
          </Field>
          <Field label="Near-duplicate threshold" name="dedupeThreshold" hint={`Paper: cosine > ${d.dedupeThreshold} of uni+bigram counts`} errors={e.dedupeThreshold}>
            <TextInput name="dedupeThreshold" inputMode="decimal" defaultValue={v.dedupeThreshold ?? d.dedupeThreshold} errors={e.dedupeThreshold} />
          </Field>
          <Field label="Labels in tweet files outside the scheme" name="outsideScheme" hint="e.g. CrisisLex's information types in a HumAID event. Gold labels must always be in the scheme." errors={e.outsideScheme}>
            <SelectInput name="outsideScheme" defaultValue={v.outsideScheme ?? d.outsideScheme}>
              <option value="error">report the row as an error</option>
              <option value="keep">import the tweet, keep the label as its source label</option>
              <option value="ignore">import the tweet, ignore the label</option>
            </SelectInput>
          </Field>
        </div>
      </Card>
      <Button type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create event"}
      </Button>
    </form>
  );
}
