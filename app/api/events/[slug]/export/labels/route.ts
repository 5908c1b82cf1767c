import { agreedLabelsCsv } from "@/lib/export/agreed-labels";
import { eventCsvRoute, stamp } from "@/lib/export/route-helpers";

/**
 * The agreed-labels CSV of an event (?unresolved=1 adds the tweets without an agreed label). Text cells are
 * formula-protected; ?raw=1 writes the tweet text exactly as stored (for code, not spreadsheets), and the manifest
 * (?bundle=zip) says which.
 */
export const GET = eventCsvRoute(({ db, event, url }) => {
  const includeUnresolved = url.searchParams.get("unresolved") === "1";
  const raw = url.searchParams.get("raw") === "1";
  return {
    fileName: `${event.slug}_agreed_labels${includeUnresolved ? "_with_unresolved" : ""}${raw ? "_raw_text" : ""}_${stamp()}.csv`,
    chunks: agreedLabelsCsv(db, { eventId: event.id, includeUnresolved, raw }),
    csvText: raw ? "raw" : "formula-protected",
  };
});
