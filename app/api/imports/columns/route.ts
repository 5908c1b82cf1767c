import { importStartRoute } from "@/lib/actions/import-start-route";
import { importWithColumns } from "@/lib/ingest/save-upload";

/**
 * The column preview's second step: POST /api/imports/columns with { eventId, kind, upload, fileName, columns }
 * (lib/ingest/columns.validation.ts) saves the event's column mapping and starts the import of the kept upload.
 */
export const POST = importStartRoute(importWithColumns, "Invalid columns.");
