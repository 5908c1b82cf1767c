import { getProvider } from "@/lib/campaign/providers";
import { ProlificProvider } from "@/lib/crowd/prolific/prolific-provider";
import { getDb } from "@/lib/db/client";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { prolificTaskHandlers } from "@/lib/task/prolific-route";

export const dynamic = "force-dynamic";

/**
 * Accord's page for Prolific participants (the external study URL of every Prolific study Accord publishes).
 * Participants are not Accord users: their Prolific session, checked with Prolific on every request, is the
 * credential (lib/task/prolific-work.ts).
 */
const handlers = prolificTaskHandlers({
  db: getDb,
  provider: async () => {
    const provider = await getProvider(getDb(), PROVIDER_KIND.prolific);
    if (!(provider instanceof ProlificProvider)) throw new Error("the Prolific provider is not configured");
    return provider;
  },
});

export const GET = handlers.GET;
export const POST = handlers.POST;
