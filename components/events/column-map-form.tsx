"use client";

import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, SelectInput } from "@/components/ui/field";
import type { UploadColumnKey } from "@/lib/ingest/columns";
import type { ColumnPreviewBody } from "@/lib/ingest/column-preview";
import { IMPORT_KIND } from "@/lib/db/enums";

const FIELDS: Array<{ key: UploadColumnKey; label: string; required: boolean }> = [
  { key: "id", label: "Tweet id column", required: true },
  { key: "text", label: "Tweet text column", required: true },
  { key: "label", label: "Label column", required: false },
  { key: "date", label: "Date column", required: false },
  { key: "location", label: "Location column", required: false },
];

/**
 * The column preview of an upload whose columns Accord does not recognise: the file's header and first rows, and a
 * choice of column for the tweet id, text, label, date and location. The choice is saved for the event (later
 * uploads with these columns and re-runs use it) and the import starts on the file already uploaded. A gold file needs
 * its label column (the expert labels).
 */
export function ColumnMapForm({ eventId, shown, onDone, onCancel }: { eventId: string; shown: ColumnPreviewBody; onDone: (message: string) => void; onCancel: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { preview } = shown;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const columns: Record<string, string | null> = {};
    for (const f of FIELDS) {
      const v = String(form.get(`column:${f.key}`) ?? "");
      columns[f.key] = v || null;
    }
    if (!columns.id || !columns.text) return setError("Choose the tweet id and the tweet text columns.");
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/imports/columns", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ eventId, kind: shown.kind, upload: shown.upload, fileName: shown.fileName, columns }),
      });
      const body = (await res.json().catch(() => ({}))) as { message?: string; error?: string };
      if (res.status === 201) onDone(body.message ?? "The import is running.");
      else if (res.status === 401) setError("Your session has ended. Please sign in again.");
      else setError(body.error ?? `The import could not start (HTTP ${res.status}).`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-3 rounded border border-slate-200 p-3" aria-label="Column preview" data-testid="column-preview">
      <p className="text-sm text-slate-700">
        {shown.fileName} ({preview.format.toUpperCase()}): {preview.header.length} columns. Choose which column holds what; the choice is remembered for this
        event&apos;s later uploads with these columns.
      </p>
      <div className="overflow-x-auto">
        <table className="min-w-full text-xs" data-testid="column-preview-rows">
          <thead>
            <tr>
              {preview.header.map((h, i) => (
                <th key={i} className="border-b border-slate-200 px-2 py-1 text-left font-mono">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((r, i) => (
              <tr key={i} className="border-t border-slate-100">
                {preview.header.map((_, j) => (
                  <td key={j} className="max-w-xs truncate px-2 py-1" title={r[j] ?? ""}>
                    {r[j] ?? ""}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="grid gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {FIELDS.map((f) => ({ ...f, required: f.required || (f.key === "label" && shown.kind === IMPORT_KIND.gold) })).map((f) => (
          <Field key={f.key} label={f.label} name={`column:${f.key}`}>
            <SelectInput name={`column:${f.key}`} defaultValue={preview.proposed[f.key] ?? ""} required={f.required}>
              <option value="">{f.required ? "(choose)" : "(none)"}</option>
              {preview.header.map((h, i) => (
                <option key={i} value={h}>
                  {h}
                </option>
              ))}
            </SelectInput>
          </Field>
        ))}
      </div>
      {error ? <FormMessage ok={false} message={error} /> : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={busy}>
          Import with these columns
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
