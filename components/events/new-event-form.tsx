"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, FormMessage, SelectInput, TextArea, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { createEventAction } from "@/lib/actions/events";
import { EVENT_TYPES, NEW_EVENT_DEFAULTS } from "@/lib/events/events.validation";
import { IngestFields } from "./ingest-fields";
import { ProcedureFields } from "./procedure-fields";

type Scheme = { id: string; name: string; labels: number };

/** "New event": the event, its target locations and label scheme, and the HumAID rules with the paper's defaults. */
/** `crowds`: the crowd registry's choices (lib/crowd/registry.ts crowdChoices), the default first. */
export function NewEventForm({ schemes, defaultSchemeId, crowds }: { schemes: Scheme[]; defaultSchemeId: string | null; crowds: Array<{ value: string; label: string }> }) {
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
          <Field label="Crowd" name="provider" hint="MTurk and Prolific use the mode chosen for them in Settings (their local simulators by default)." errors={e.provider}>
            <SelectInput name="provider" defaultValue={v.provider ?? crowds[0]?.value}>
              {crowds.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </SelectInput>
          </Field>
          <Field label="Budget cap for this event ($, optional)" name="budgetCapDollars" hint="Publishing refuses to go beyond it (the global cap in Settings applies too, to spend in US dollars only). In the crowd's currency: dollars for MTurk and the in-house crowd, the workspace's currency for Prolific." errors={e.budgetCapDollars}>
            <TextInput name="budgetCapDollars" inputMode="decimal" defaultValue={v.budgetCapDollars} errors={e.budgetCapDollars} placeholder="e.g. 500" />
          </Field>
        </div>
      </Card>
      <Card title="Rules" description="The HumAID procedure (Alam et al. 2021, §4). The defaults are the paper's; change them only with a reason.">
        <ProcedureFields values={v} defaults={d} errors={e} paperHints labels={schemes.find((s) => s.id === (v.schemeId ?? defaultSchemeId))?.labels ?? 11} />
      </Card>
      <Card title="Filtering of uploads" description="The HumAID pipeline (§3.1): each upload goes through these steps in order, and its funnel shows what each removed.">
        <IngestFields values={v} defaults={d} errors={e} posted={Boolean(state.values)} paperHints withSampling={false} />
      </Card>
      <Button type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create event"}
      </Button>
    </form>
  );
}
