import { getProlificProvider } from "@/lib/campaign/providers";
import { prolificWebhookHandlers } from "@/lib/crowd/prolific/webhook-handlers";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/**
 * Prolific's webhook deliveries (submission and study status changes). Public: Prolific is not an Accord user; the
 * HMAC signature with the workspace's secret is the credential (lib/crowd/prolific/webhook-receiver.ts).
 */
const handlers = prolificWebhookHandlers({ db: getDb, client: async () => (await getProlificProvider(getDb()).catch(() => null))?.client ?? null });

export const POST = handlers.POST;
