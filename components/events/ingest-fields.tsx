import { Field, SelectInput, TextInput } from "@/components/ui/field";

type Values = Partial<Record<string, string>>;

/**
 * The upload filtering fields (HumAID §3.1–3.2), shared by the "New event" form and the event's Settings page.
 * `values`: what was posted (after an error), else `defaults` (the paper's, or the event's stored settings).
 */
export function IngestFields({ values, defaults, errors, posted, paperHints, withSampling }: { values: Values; defaults: Values; errors: Record<string, string[] | undefined>; posted: boolean; paperHints: boolean; withSampling: boolean }) {
  const v = (k: string) => values[k] ?? defaults[k];
  const checked = (k: string) => (posted ? values[k] === "on" : defaults[k] === "on");
  const hint = (paper: string) => (paperHints ? `Paper: ${paper}` : undefined);
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" name="filterDate" defaultChecked={checked("filterDate")} className="mt-1" />
        <span>
          Keep only tweets inside the event&apos;s dates
          <span className="block text-xs text-slate-500">Uses the row&apos;s time, else the time encoded in the tweet id.</span>
        </span>
      </label>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" name="filterLocation" defaultChecked={checked("filterLocation")} className="mt-1" />
        <span>
          Keep only tweets from the target locations
          <span className="block text-xs text-slate-500">Coordinates, then place, then the user&apos;s free-text location (offline, with the aliases).</span>
        </span>
      </label>
      <Field label="Tweets with no location information" name="noLocation" errors={errors.noLocation}>
        <SelectInput name="noLocation" defaultValue={v("noLocation")}>
          <option value="keep">keep them</option>
          <option value="drop">drop them</option>
        </SelectInput>
      </Field>
      <Field label="Language not determined" name="languageUndetermined" hint="English is kept; other languages are removed." errors={errors.languageUndetermined}>
        <SelectInput name="languageUndetermined" defaultValue={v("languageUndetermined")}>
          <option value="keep">keep (counted separately)</option>
          <option value="drop">drop</option>
        </SelectInput>
      </Field>
      <Field label="Minimum words" name="minWords" hint={hint(`${defaults.minWords} (URLs, mentions and numbers do not count)`) ?? "URLs, mentions and numbers do not count."} errors={errors.minWords}>
        <TextInput name="minWords" inputMode="numeric" defaultValue={v("minWords")} errors={errors.minWords} />
      </Field>
      <Field label="Near-duplicate threshold" name="dedupeThreshold" hint={hint(`cosine > ${defaults.dedupeThreshold} of uni+bigram counts`) ?? "Cosine similarity of uni+bigram counts above which a tweet is a near-duplicate."} errors={errors.dedupeThreshold}>
        <TextInput name="dedupeThreshold" inputMode="decimal" defaultValue={v("dedupeThreshold")} errors={errors.dedupeThreshold} />
      </Field>
      <Field label="Labels in tweet files outside the scheme" name="outsideScheme" hint="e.g. CrisisLex's information types in a HumAID event. Gold labels must always be in the scheme (or mapped to it)." errors={errors.outsideScheme}>
        <SelectInput name="outsideScheme" defaultValue={v("outsideScheme")}>
          <option value="error">ask me to map them at upload (to a scheme label, a new label, or drop)</option>
          <option value="keep">import the tweet, keep the label as its source label</option>
          <option value="ignore">import the tweet, ignore the label</option>
        </SelectInput>
      </Field>
      {withSampling ? (
        <>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="sampling" defaultChecked={checked("sampling")} className="mt-1" />
            <span>
              Sample the kept tweets per class
              <span className="block text-xs text-slate-500">As evenly as the classes allow (by the file&apos;s labels), up to the budget.</span>
            </span>
          </label>
          <Field label="Tweets per class" name="samplingPerClass" hint="Empty: no limit per class (the budget decides)." errors={errors.samplingPerClass}>
            <TextInput name="samplingPerClass" inputMode="numeric" defaultValue={v("samplingPerClass")} errors={errors.samplingPerClass} />
          </Field>
          <Field label="Budget (tweets in all)" name="samplingBudget" hint="Empty: no overall limit." errors={errors.samplingBudget}>
            <TextInput name="samplingBudget" inputMode="numeric" defaultValue={v("samplingBudget")} errors={errors.samplingBudget} />
          </Field>
          <Field label="Sampling seed" name="samplingSeed" hint="The same seed picks the same tweets." errors={errors.samplingSeed}>
            <TextInput name="samplingSeed" inputMode="numeric" defaultValue={v("samplingSeed")} errors={errors.samplingSeed} />
          </Field>
        </>
      ) : null}
      {errors.filters ? (
        <p className="text-sm text-red-700 md:col-span-3" role="alert">
          {errors.filters.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
