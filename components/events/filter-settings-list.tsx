import { formatDate } from "@/lib/text/format";
import type { IngestSettings } from "@/lib/ingest/settings";

/** The event's upload filtering, step by step (the Data tab's summary; the Settings page edits it). */
export function FilterSettingsList({ ingest, event }: { ingest: IngestSettings; event: { startDate: Date | null; endDate: Date | null; locations: Array<{ name: string }> } }) {
  const map = Object.entries(ingest.labels.map);
  return (
    <ul className="space-y-1 text-sm text-slate-700" data-testid="filter-settings">
      <li>Dates: {ingest.date.enabled ? `${formatDate(event.startDate)} – ${formatDate(event.endDate)}` : "off"}</li>
      <li>
        Locations: {ingest.location.enabled ? (event.locations.length ? event.locations.map((l) => l.name).join(", ") : "no target locations set") : "off"}
        {ingest.location.enabled ? `; rows without any: ${ingest.location.noLocation}` : ""}
      </li>
      <li>Language: {ingest.language.enabled ? `${ingest.language.languages.join(", ")}; undetermined: ${ingest.language.undetermined}` : "off"}</li>
      <li>Words: {ingest.wordCount.enabled ? `at least ${ingest.wordCount.minWords}` : "off"}</li>
      <li>Near-duplicates: {ingest.duplicates.enabled ? `cosine > ${ingest.duplicates.threshold}${ingest.duplicates.againstStored ? ", also against stored tweets" : ""}` : "off"}</li>
      <li>Labels outside the scheme in tweet files: {ingest.labels.outsideScheme === "error" ? "ask for a mapping" : ingest.labels.outsideScheme}</li>
      <li>Label map: {map.length ? map.map(([from, to]) => `${from} → ${to ?? "drop"}`).join("; ") : "none"}</li>
      <li data-testid="column-mapping">
        Columns of CSV/TSV files:{" "}
        {ingest.columns
          ? (["id", "text", "label", "date", "location"] as const)
              .flatMap((k) => (ingest.columns?.[k] ? [`${k} ← ${ingest.columns[k]}`] : []))
              .join(", ")
          : "recognised by name"}
      </li>
      <li>Sampling: {ingest.sampling.enabled ? `${ingest.sampling.perClass ?? "–"} per ${ingest.sampling.by}, budget ${ingest.sampling.budget ?? "none"}` : "off"}</li>
    </ul>
  );
}
