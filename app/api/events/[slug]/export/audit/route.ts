import { auditCsv } from "@/lib/export/audit";
import { eventCsvRoute, stamp } from "@/lib/export/route-helpers";

/** The audit log of an event (every decision and action with its reason) as CSV. */
export const GET = eventCsvRoute(({ db, event }) => ({ fileName: `${event.slug}_audit_${stamp()}.csv`, chunks: auditCsv(db, { eventId: event.id }) }));
