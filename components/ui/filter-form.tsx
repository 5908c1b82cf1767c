import type { ReactNode } from "react";
import { buttonClass } from "@/components/ui/button";

// A list page's search: a GET form (the filters stay in the address) of labelled text and select fields.

const FIELD = "rounded-md border border-slate-300 px-2 py-1";

export function FilterForm({ action, hidden = {}, children, className = "mb-3" }: { action: string; hidden?: Record<string, string>; children: ReactNode; className?: string }) {
  return (
    <form method="get" action={action} className={`${className} flex flex-wrap items-end gap-2 text-sm`} role="search">
      {children}
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={buttonClass("secondary")}>
        Filter
      </button>
    </form>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="flex flex-col gap-1">
      <span className="text-xs text-slate-500">{label}</span>
      {children}
    </label>
  );
}

export function FilterText({ label, name, value, className = "w-64" }: { label: string; name: string; value?: string; className?: string }) {
  return (
    <Field label={label}>
      <input name={name} defaultValue={value ?? ""} className={`${className} ${FIELD}`} />
    </Field>
  );
}

/** A select whose first option (value "") means no filter. */
export function FilterSelect({ label, name, value, any, options }: { label: string; name: string; value?: string; any: string; options: ReadonlyArray<{ value: string; name: string }> }) {
  return (
    <Field label={label}>
      <select name={name} defaultValue={value ?? ""} className={FIELD}>
        <option value="">{any}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
