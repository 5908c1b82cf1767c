import { getProlificProvider } from "@/lib/campaign/providers";
import { getDb } from "@/lib/db/client";
import { prolificTaskHandlers } from "@/lib/task/prolific-route";

export const dynamic = "force-dynamic";

/**
 * Accord's page for Prolific participants (the external study URL of every Prolific study Accord publishes).
 * Participants are not Accord users: their Prolific session, checked with Prolific on every request, is the
 * credential (lib/task/prolific-work.ts).
 */
const handlers = prolificTaskHandlers({ db: getDb, provider: () => getProlificProvider(getDb()) });

export const GET = handlers.GET;
export const POST = handlers.POST;
