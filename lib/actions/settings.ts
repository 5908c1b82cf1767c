"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import { saveProviderSettings as saveSettings } from "@/lib/settings/crowd-settings";
import { providerSettingsFormSchema } from "@/lib/settings/settings.validation";
import { formAction } from "./define-action";

/** Admin: crowd provider mode, write-only credentials, budget cap and reward default. */
export const saveProviderSettings = formAction({ access: "admin", input: providerSettingsFormSchema }, async ({ user, input }) => {
  await saveSettings(getDb(), input, { actorId: user.id });
  revalidatePath("/settings");
  return { ok: true, message: `Saved. Crowd provider: MTurk ${input.mode}.` };
});
