import { z } from "zod";
import { checkbox } from "@/lib/validation/form-fields";

// The admin's Prolific form: an empty token keeps the stored one; empty ids mean the token's first workspace/project.
const prolificId = z.string().trim().regex(/^[0-9a-f]{0,64}$/i, "A Prolific id: the hexadecimal id in the workspace's or project's address (or empty).");

export const prolificSettingsFormSchema = z.object({
  mode: z.enum(["simulator", "production"], { message: "Choose the simulator or production." }),
  simulatorUrl: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.url({ protocol: /^https?$/, message: "An http(s) address, e.g. http://127.0.0.1:9410." }).optional()),
  workspaceId: prolificId.optional().default(""),
  projectId: prolificId.optional().default(""),
  token: z.string().trim().max(512, "At most 512 characters.").optional(),
  /** Write-only like the token: empty keeps the stored one. */
  webhookSecret: z.string().trim().max(512, "At most 512 characters.").optional(),
  testMode: checkbox,
  testParticipantEmail: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.email({ message: "An email address, e.g. tester@example.org." }).optional()),
  confirmProduction: checkbox,
});
export type ProlificSettingsForm = z.infer<typeof prolificSettingsFormSchema>;
