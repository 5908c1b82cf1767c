"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import { checkLlmConnection } from "@/lib/crowd/llm/connection-check";
import { saveLlmSettings } from "@/lib/crowd/llm/settings";
import { addLlmLabelsFormSchema, formToSettings, llmSettingsFormSchema } from "@/lib/crowd/llm/settings-form";
import { requireEventById } from "@/lib/events/event-lookup";
import { queueLlmRun } from "@/lib/jobs/llm-label-job";
import { syncLocalLlmSimulator } from "@/lib/startup/local-llm-simulator";
import { formAction } from "./define-action";

/** Admin: the language model endpoint (write-only key); the embedded simulator follows; then a connection check. */
export const saveLlmSettingsAction = formAction({ access: "admin", input: llmSettingsFormSchema }, async ({ user, input }) => {
  const db = getDb();
  await saveLlmSettings(db, formToSettings(input), { actorId: user.id });
  const started = await syncLocalLlmSimulator(db).then(
    () => "",
    (err: unknown) => `The local LLM simulator did not start: ${err instanceof Error ? err.message : String(err)}. `,
  );
  const check = await checkLlmConnection(db);
  revalidatePath("/settings");
  return { ok: !started && check.ok, message: `Saved. ${started}${check.message}` };
});

/** Researcher: queues an LLM run of the event (the llm-label job) with the endpoint of Settings. */
export const addLlmLabelsAction = formAction({ access: "edit", input: addLlmLabelsFormSchema }, async ({ user, input }) => {
  const db = getDb();
  const event = await requireEventById(db, input.eventId);
  await queueLlmRun(db, { eventId: event.id, createdById: user.id, overrides: { passes: input.passes } });
  revalidatePath(`/events/${event.slug}/data`);
  return { ok: true, message: "LLM labelling queued: its progress shows below." };
});
