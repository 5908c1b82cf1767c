import { agreedLabelsCsv } from "@/lib/export/agreed-labels";
import { eventCsvRoute, stamp } from "@/lib/export/route-helpers";

/** The agreed-labels CSV of an event (?unresolved=1 adds the tweets without an agreed label). */
export const GET = eventCsvRoute(({ db, event, url }) => {
  const includeUnresolved = url.searchParams.get("unresolved") === "1";
  return {
    fileName: `${event.slug}_agreed_labels${includeUnresolved ? "_with_unresolved" : ""}_${stamp()}.csv`,
    chunks: agreedLabelsCsv(db, { eventId: event.id, includeUnresolved }),
  };
});
