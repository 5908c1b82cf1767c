import { z } from "zod";
import { checkbox, optionalInt, optionalNumber } from "@/lib/validation/form-fields";

// The admin's MTurk settings form, shared by the form and its server action.

export const MTURK_MODES = ["simulator", "sandbox", "production"] as const;
export type MturkModeSetting = (typeof MTURK_MODES)[number];

export const providerSettingsFormSchema = z.object({
  mode: z.enum(MTURK_MODES, { message: "Choose simulator, sandbox or production." }),
  accessKeyId: z.string().trim().max(128).optional(),
  secretAccessKey: z.string().trim().max(256).optional(),
  budgetCapDollars: optionalNumber(z.number({ message: "Enter the budget cap in dollars, e.g. 250." }).min(0, "The budget cap cannot be negative.").max(1_000_000)),
  defaultRewardCents: optionalInt(1, 10_000),
  confirmProduction: checkbox,
});
export type ProviderSettingsForm = z.infer<typeof providerSettingsFormSchema>;
