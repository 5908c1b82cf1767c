import { getProlificProvider } from "@/lib/campaign/providers";
import { getDb } from "@/lib/db/client";
import { prolificScreeningHandlers } from "@/lib/task/prolific-route";

export const dynamic = "force-dynamic";

/**
 * Accord's screening page for Prolific participants (the external study URL of a qualification's screening study).
 * Participants are not Accord users: their Prolific session, checked with Prolific on every request, is the
 * credential (lib/task/prolific-work.ts).
 */
const handlers = prolificScreeningHandlers({ db: getDb, provider: () => getProlificProvider(getDb()) });

export const GET = handlers.GET;
export const POST = handlers.POST;
