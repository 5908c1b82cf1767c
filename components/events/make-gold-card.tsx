import type { GoldFromImportPlan } from "@/lib/events/gold-requests";
import { formatInt } from "@/lib/text/format";
import { DataTable, Td, Th } from "@/components/tables/data-table";
import { buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { MakeGoldConfirm } from "./make-gold-form";

export type MakeGoldChoice = { importId: string | undefined; perClass: number; seed: number };

/**
 * "Make gold from labelled tweets": a GET form for the preview (the Data tab with mgImport/mgPer/mgSeed), the per-class
 * pick it would make, and the confirm button that applies exactly that.
 */
export function MakeGoldCard({
  path,
  eventId,
  uploads,
  choice,
  plan,
  planError,
  labelName,
}: {
  path: string;
  eventId: string;
  uploads: Array<{ id: string; fileName: string; rowsStored: number }>;
  choice: MakeGoldChoice;
  plan: GoldFromImportPlan | null;
  planError: string | null;
  labelName: ReadonlyMap<string, string>;
}) {
  return (
    <Card
      title="Make gold from labelled tweets"
      description="Pick N tweets per class from an upload's own labels (stratified, seeded: the same seed picks the same tweets) as gold with that label; the rest stay unknown tweets to annotate. Tweets already in a HIT are never picked."
      className="mt-6"
    >
      <form method="get" action={path} className="flex flex-wrap items-end gap-2 text-sm" data-testid="make-gold">
        <label className="flex min-w-0 max-w-full flex-col gap-1">
          <span className="text-xs text-slate-500">Upload</span>
          {/* a long file name must not widen the page at 390 px: the select shrinks to the column and cuts the name */}
          <select name="mgImport" defaultValue={choice.importId ?? uploads[0]?.id} className="w-full max-w-[calc(100vw-4rem)] truncate rounded-md border border-slate-300 px-2 py-1 sm:max-w-md">
            {uploads.map((i) => (
              <option key={i.id} value={i.id}>
                {i.fileName} ({formatInt(i.rowsStored)} stored)
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-500">Per class</span>
          <input name="mgPer" type="number" min={1} required defaultValue={Number.isInteger(choice.perClass) && choice.perClass > 0 ? choice.perClass : 10} className="w-24 rounded-md border border-slate-300 px-2 py-1" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-500">Seed</span>
          <input name="mgSeed" type="number" min={0} defaultValue={choice.seed} className="w-24 rounded-md border border-slate-300 px-2 py-1" />
        </label>
        <button type="submit" className={buttonClass("secondary")}>
          Preview
        </button>
      </form>
      {planError ? <p className="mt-2 text-sm text-red-700">{planError}</p> : null}
      {plan && choice.importId ? (
        <div className="mt-3" data-testid="make-gold-preview">
          {plan.classes.length === 0 ? (
            <p className="text-sm text-slate-600">No tweets of this upload carry a label of the event&apos;s scheme and are still waiting to be annotated.</p>
          ) : (
            <DataTable
              head={
                <tr>
                  <Th>Class (the file&apos;s label)</Th>
                  <Th align="right">Labelled, not yet in a HIT</Th>
                  <Th align="right">Becomes gold</Th>
                </tr>
              }
            >
              {plan.classes.map((c) => (
                <tr key={c.label} className="border-t border-slate-100">
                  <Td>{labelName.get(c.label) ?? c.label}</Td>
                  <Td align="right">{formatInt(c.available)}</Td>
                  <Td align="right">{formatInt(c.picked)}</Td>
                </tr>
              ))}
            </DataTable>
          )}
          <p className="mt-2 text-xs text-slate-600">
            {formatInt(plan.picks.length)} become gold; {formatInt(plan.remaining)} of the upload&apos;s unknown tweets stay to annotate.
          </p>
          {/* keyed by the choice, not the picks: the page refreshed after "Make" keeps it done; a new Preview starts afresh */}
          <MakeGoldConfirm key={`${choice.importId}:${choice.perClass}:${choice.seed}`} eventId={eventId} importId={choice.importId} perClass={choice.perClass} seed={choice.seed} total={plan.picks.length} planKey={plan.key} />
        </div>
      ) : null}
    </Card>
  );
}
