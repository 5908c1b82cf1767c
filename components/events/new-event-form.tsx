"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, FormMessage, SelectInput, TextArea, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { createEventAction } from "@/lib/actions/events";
import { EVENT_TYPES, NEW_EVENT_DEFAULTS } from "@/lib/events/events.validation";
import { ProcedureFields } from "./procedure-fields";

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
        <ProcedureFields values={v} defaults={d} errors={e} paperHints labels={schemes.find((s) => s.id === (v.schemeId ?? defaultSchemeId))?.labels ?? 11} />
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
          <Field label="Labels in tweet files outside the scheme" name="outsideScheme" hint="e.g. CrisisLex's information types in a HumAID event. Gold labels must always be in the scheme (or mapped to it)." errors={e.outsideScheme}>
            <SelectInput name="outsideScheme" defaultValue={v.outsideScheme ?? d.outsideScheme}>
              <option value="error">ask me to map them at upload (to a scheme label, a new label, or drop)</option>
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
