"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import { saveProviderSettings as saveSettings } from "@/lib/crowd/mturk/settings";
import { UserError } from "@/lib/errors";
import { syncLocalProlificSimulator } from "@/lib/startup/local-prolific-simulator";
import { checkProlificConnection } from "@/lib/crowd/prolific/connection-check";
import { saveProlificSettingsForm } from "@/lib/crowd/prolific/settings";
import { applyProlificTestMode } from "@/lib/crowd/prolific/test-participant";
import { providerSettingsFormSchema } from "@/lib/crowd/mturk/settings-form";
import { prolificSettingsFormSchema } from "@/lib/crowd/prolific/settings-form";
import { formAction } from "./define-action";

/** Admin: crowd provider mode, write-only credentials, budget cap and reward default. */
export const saveProviderSettings = formAction({ access: "admin", input: providerSettingsFormSchema }, async ({ user, input }) => {
  await saveSettings(getDb(), input, { actorId: user.id });
  revalidatePath("/settings");
  return { ok: true, message: `Saved. Crowd provider: MTurk ${input.mode}.` };
});

/** Admin: Prolific's mode, simulator address, workspace and project, write-only token and webhook secret; a connection check; then test mode. */
export const saveProlificSettings = formAction({ access: "admin", input: prolificSettingsFormSchema }, async ({ user, input }) => {
  if (input.mode === "production" && !input.confirmProduction) {
    throw new UserError("Production Prolific pays real participants: tick the confirmation to switch to it.", "confirm_production", { confirmProduction: ["Confirm to use production Prolific."] });
  }
  const db = getDb();
  await saveProlificSettingsForm(db, { mode: input.mode, simulatorUrl: input.simulatorUrl, workspaceId: input.workspaceId, projectId: input.projectId, token: input.token, webhookSecret: input.webhookSecret }, { actorId: user.id, testMode: input.testMode });
  // The embedded simulator follows the settings (started, moved or stopped) before the connection is tried.
  const started = await syncLocalProlificSimulator(db).then(
    () => "",
    (err: unknown) => `The local simulator did not start: ${err instanceof Error ? err.message : String(err)}. `,
  );
  const check = await checkProlificConnection(db);
  // Test mode last: creating the test participant needs the settings just saved (and a working connection).
  const test = await applyProlificTestMode(db, { enabled: input.testMode, email: check.ok ? input.testParticipantEmail : undefined });
  revalidatePath("/settings");
  const testText = input.testMode || input.testParticipantEmail || !test.ok ? ` ${test.message}` : "";
  if (started) return { ok: false, message: `Saved. ${started}${check.message}${testText}` };
  return { ok: check.ok && test.ok, message: `Saved. ${check.message}${testText}` };
});
