import { importStartRoute } from "@/lib/actions/import-start-route";
import { startFromUpload } from "@/lib/ingest/judgments/judgment-upload";

/** Step two: POST /api/judgment-imports with { eventId, upload, fileName, mapping, labelMap } starts the import job. */
export const POST = importStartRoute(startFromUpload, "Invalid import.");
