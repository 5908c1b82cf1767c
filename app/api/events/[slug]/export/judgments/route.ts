import { judgmentsCsv } from "@/lib/export/judgments";
import { eventCsvRoute, stamp } from "@/lib/export/route-helpers";

/** Every judgment of an event (one row per worker × tweet) as CSV. */
export const GET = eventCsvRoute(({ db, event }) => ({ fileName: `${event.slug}_judgments_${stamp()}.csv`, chunks: judgmentsCsv(db, { eventId: event.id }) }));
