"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, SelectInput } from "@/components/ui/field";
import type { JudgmentMapping } from "@/lib/ingest/judgments/mapping";
import type { JudgmentPreview } from "@/lib/ingest/judgments/preview";

type Previewed = { upload: string; fileName: string; preview: JudgmentPreview; personalNote: string; scheme: string[] };

/**
 * Import judgments collected on another platform: the file is uploaded and previewed (format, columns, labels,
 * personal columns never stored), the researcher picks the label and text columns, the repeat policy and a
 * scheme label for each label outside the scheme, then the import runs as a job shown under Imports.
 */
export function JudgmentImportForm({ eventId }: { eventId: string }) {
  const router = useRouter();
  const fileInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [shown, setShown] = useState<Previewed | null>(null);

  async function preview(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const file = fileInput.current?.files?.[0];
    if (!file || file.size === 0) return setMessage({ ok: false, text: "Choose a file to preview (it must not be empty)." });
    setBusy(true);
    setMessage(null);
    try {
      const res = await fetch(`/api/judgment-imports/preview?${new URLSearchParams({ eventId, name: file.name })}`, { method: "POST", body: file, headers: { "Content-Type": "application/octet-stream" } });
      const body = (await res.json().catch(() => ({}))) as Partial<Previewed> & { error?: string };
      if (!res.ok) return setMessage({ ok: false, text: body.error ?? `The preview failed (HTTP ${res.status}).` });
      setShown(body as Previewed);
    } finally {
      setBusy(false);
    }
  }

  async function start(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!shown?.preview.mapping) return;
    const form = new FormData(e.currentTarget);
    const get = (k: string) => String(form.get(k) ?? "");
    const base = shown.preview.mapping;
    const labelColumn = get("labelColumn");
    const textColumn = get("textColumn");
    const mapping: JudgmentMapping = {
      ...base,
      repeats: get("repeats") as JudgmentMapping["repeats"],
      slots:
        base.slots.length === 1
          ? [{ ...base.slots[0], label: labelColumn || base.slots[0].label, text: textColumn || undefined, goldLabel: shown.preview.header.includes(`${labelColumn}_gold`) ? `${labelColumn}_gold` : base.slots[0].goldLabel }]
          : base.slots,
    };
    const labelMap: Record<string, string | null> = {};
    for (const l of shown.preview.unmappedLabels) {
      const v = get(`map:${l}`);
      if (v) labelMap[l] = v === "drop" ? null : v;
    }
    setBusy(true);
    try {
      const res = await fetch("/api/judgment-imports", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ eventId, upload: shown.upload, fileName: shown.fileName, mapping, labelMap }) });
      const body = (await res.json().catch(() => ({}))) as { message?: string; error?: string };
      if (res.status === 201) {
        setMessage({ ok: true, text: body.message ?? "The import is running." });
        setShown(null);
        if (fileInput.current) fileInput.current.value = "";
        router.refresh();
      } else setMessage({ ok: false, text: body.error ?? `The import failed (HTTP ${res.status}).` });
    } finally {
      setBusy(false);
    }
  }

  const p = shown?.preview;
  return (
    <div className="space-y-4">
      <form onSubmit={preview} className="space-y-3">
        <Field label="Judgments file" name="judgmentsFile" hint="MTurk batch results, a CrowdFlower / Figure Eight / Appen full report, or item,annotator,label[,submitted_at][,text] (CSV).">
          <input ref={fileInput} id="judgmentsFile" name="judgmentsFile" type="file" accept=".csv,text/csv" className="block text-sm" />
        </Field>
        <Button type="submit" variant="secondary" disabled={busy}>
          Preview
        </Button>
      </form>
      {p ? (
        <form onSubmit={start} className="space-y-3 rounded border border-slate-200 p-3" aria-label="Judgment import preview">
          <p className="text-sm">
            {p.formatName ? <strong>{p.formatName}</strong> : <strong>Not a judgment export Accord recognises</strong>}: {p.rowsNote}, columns {p.header.filter((h) => !p.personalColumns.includes(h)).join(", ")}.
          </p>
          <p className="text-sm text-slate-700" data-testid="personal-columns-note">
            {shown.personalNote}
          </p>
          {p.mapping ? (
            <>
              {p.mapping.slots.length === 1 ? (
                <div className="grid gap-3 sm:grid-cols-2">
                  <Field label="Label column" name="labelColumn">
                    <SelectInput name="labelColumn" id="labelColumn" defaultValue={p.mapping.slots[0].label}>
                      {p.header.filter((h) => !p.personalColumns.includes(h)).map((h) => <option key={h} value={h}>{h}</option>)}
                    </SelectInput>
                  </Field>
                  <Field label="Tweet text column" name="textColumn">
                    <SelectInput name="textColumn" id="textColumn" defaultValue={p.mapping.slots[0].text ?? ""}>
                      <option value="">(none: the tweets are already in the event)</option>
                      {p.header.filter((h) => !p.personalColumns.includes(h)).map((h) => <option key={h} value={h}>{h}</option>)}
                    </SelectInput>
                  </Field>
                </div>
              ) : (
                <p className="text-sm">{p.mapping.slots.length} tweets per row: {p.mapping.slots.map((s) => `${s.label} ← ${s.item ?? "(text)"}`).join("; ")}.</p>
              )}
              <Field label="Repeat judgments (a worker judged a tweet twice)" name="repeats">
                <SelectInput name="repeats" id="repeats" defaultValue="refuse">
                  <option value="refuse">Refuse the file (name them)</option>
                  <option value="first">Keep each worker&apos;s first judgment</option>
                  <option value="last">Keep each worker&apos;s last judgment</option>
                </SelectInput>
              </Field>
              {p.unmappedLabels.length ? (
                <fieldset className="space-y-2">
                  <legend className="text-sm font-medium">Labels outside the scheme</legend>
                  {p.complete ? null : <p className="text-sm text-slate-700">Seen in {p.rowsNote}; a label first found later in the file is asked for when the import runs.</p>}
                  {p.unmappedLabels.map((l) => (
                    <Field key={l} label={`"${l}" (${p.labels[l]})`} name={`map:${l}`}>
                      <SelectInput name={`map:${l}`} id={`map:${l}`} aria-label={`Map ${l}`} defaultValue="">
                        <option value="">(choose)</option>
                        <option value="drop">Drop these judgments</option>
                        {shown.scheme.map((s) => <option key={s} value={s}>{s}</option>)}
                      </SelectInput>
                    </Field>
                  ))}
                </fieldset>
              ) : null}
              <Button type="submit" disabled={busy}>
                Import judgments
              </Button>
            </>
          ) : null}
        </form>
      ) : null}
      {message ? <FormMessage ok={message.ok} message={message.text} /> : null}
    </div>
  );
}
