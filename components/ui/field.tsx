import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

const CONTROL =
  "block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-sm placeholder:text-slate-500 focus:border-accent-500 focus:outline-none focus:ring-1 focus:ring-accent-500 aria-[invalid=true]:border-red-500";

/** `id`: the control's id when it is not the field's name (two forms on one page with a field of the same name). */
type FieldProps = { label: string; name: string; id?: string; hint?: ReactNode; errors?: string[] };

/** A labelled control with its hint and the zod errors of its field next to it. */
export function Field({ label, name, id, hint, errors, children }: FieldProps & { children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id ?? name} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint && !errors?.length ? <p className="text-xs text-slate-500">{hint}</p> : null}
      {errors?.length ? (
        <p id={`${name}-error`} className="text-xs text-red-700" role="alert">
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

export function TextInput({ name, errors, ...props }: InputHTMLAttributes<HTMLInputElement> & { name: string; errors?: string[] }) {
  return (
    <input
      id={name}
      name={name}
      aria-invalid={errors?.length ? true : undefined}
      aria-describedby={errors?.length ? `${name}-error` : undefined}
      className={CONTROL}
      {...props}
    />
  );
}

export function SelectInput({ name, errors, children, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { name: string; errors?: string[] }) {
  return (
    <select id={name} name={name} aria-invalid={errors?.length ? true : undefined} className={CONTROL} {...props}>
      {children}
    </select>
  );
}

export function TextArea({ name, errors, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement> & { name: string; errors?: string[] }) {
  return <textarea id={name} name={name} aria-invalid={errors?.length ? true : undefined} className={CONTROL} {...props} />;
}

export function FormMessage({ ok, message }: { ok?: boolean; message?: string }) {
  if (!message) return null;
  return (
    <div
      role={ok ? "status" : "alert"}
      className={`rounded-md border px-3 py-2 text-sm ${ok ? "border-emerald-200 bg-emerald-50 text-emerald-800" : "border-red-200 bg-red-50 text-red-800"}`}
    >
      {message}
    </div>
  );
}
