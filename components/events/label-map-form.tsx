"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { initialActionState } from "@/lib/actions/action-state";
import { mapImportLabelsAction } from "@/lib/actions/imports";

type Choice = { from: string; count: number; current: string };

/**
 * An import paused because its file has labels outside the event's scheme: each label with its row count,
 * mapped to a scheme label, kept as a new label, or dropped. Saving stores the map for the event (later
 * uploads reuse it) and runs the import again.
 */
export function LabelMapForm({ importId, labels, scheme }: { importId: string; labels: Choice[]; scheme: Array<{ value: string; name: string }> }) {
  const [state, action, pending] = useActionState(mapImportLabelsAction, initialActionState);
  return (
    <form action={action} className="space-y-2" data-testid="label-map-form">
      <input type="hidden" name="importId" value={importId} />
      <FormMessage ok={state.ok} message={state.message} />
      <table className="w-full max-w-3xl text-sm">
        <thead>
          <tr className="text-left text-xs text-slate-500">
            <th className="py-1 pr-3 font-medium">Label in the file</th>
            <th className="py-1 pr-3 text-right font-medium">Rows</th>
            <th className="py-1 font-medium">Becomes</th>
          </tr>
        </thead>
        <tbody>
          {labels.map((l) => (
            <tr key={l.from} className="border-t border-slate-100">
              <td className="py-1 pr-3">{l.from}</td>
              <td className="tabular py-1 pr-3 text-right">{l.count.toLocaleString("en-US")}</td>
              <td className="py-1">
                <select
                  name={`map:${l.from}`}
                  defaultValue={l.current}
                  required
                  aria-label={`Map "${l.from}"`}
                  className="w-full rounded-md border border-slate-300 px-2 py-1"
                >
                  <option value="" disabled>
                    choose…
                  </option>
                  <option value="drop">drop these rows</option>
                  <option value="keep">keep as a new label</option>
                  {scheme.map((s) => (
                    <option key={s.value} value={`label:${s.value}`}>
                      {s.name}
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save the label map and import"}
      </Button>
    </form>
  );
}
