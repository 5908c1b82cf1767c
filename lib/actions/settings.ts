"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { writeAudit } from "@/lib/audit/write-audit";
import { requireActionUser } from "@/lib/auth/current-user";
import { resetProviderCache } from "@/lib/campaign/providers";
import { getDb } from "@/lib/db/client";
import { MTURK_MODES, saveCrowdSettings } from "@/lib/settings/crowd-settings";
import { type ActionState, errorState, parseForm } from "./action-state";

const optionalInt = (min: number, max: number) =>
  z.preprocess((v) => (v === "" || v === undefined || v === null ? undefined : Number(v)), z.number().int().min(min).max(max).optional());

const providerSettingsForm = z.object({
  mode: z.enum(MTURK_MODES, { message: "Choose simulator, sandbox or production." }),
  accessKeyId: z.string().trim().max(128).optional(),
  secretAccessKey: z.string().trim().max(256).optional(),
  budgetCapDollars: z.preprocess(
    (v) => (v === "" || v === undefined ? undefined : Number(v)),
    z.number({ message: "Enter the budget cap in dollars, e.g. 250." }).min(0, "The budget cap cannot be negative.").max(1_000_000).optional(),
  ),
  defaultRewardCents: optionalInt(1, 10_000),
  confirmProduction: z.preprocess((v) => v === "on" || v === "true", z.boolean()),
});

/** Admin: crowd provider mode, write-only credentials, budget cap and reward default. */
export async function saveProviderSettings(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const admin = await requireActionUser("admin");
    const parsed = parseForm(providerSettingsForm, formData);
    if (!parsed.ok) return parsed.state;
    const f = parsed.data;
    const db = getDb();
    await saveCrowdSettings(db, {
      mode: f.mode,
      accessKeyId: f.accessKeyId || undefined,
      secretAccessKey: f.secretAccessKey || undefined,
      budgetCapCents: f.budgetCapDollars === undefined ? null : Math.round(f.budgetCapDollars * 100),
      productionConfirmed: f.confirmProduction,
      defaults: f.defaultRewardCents ? { rewardCents: f.defaultRewardCents } : undefined,
    });
    resetProviderCache();
    await writeAudit(db, {
      actorType: "user",
      actorId: admin.id,
      entityType: "settings",
      entityId: "crowd",
      action: "update-provider-settings",
      // Never the secret values: only whether they changed.
      details: { mode: f.mode, credentialsChanged: Boolean(f.accessKeyId || f.secretAccessKey), budgetCapDollars: f.budgetCapDollars ?? null },
    });
    revalidatePath("/settings");
    return { ok: true, message: `Saved. Crowd provider: MTurk ${f.mode}.` };
  } catch (err) {
    return errorState(err, formData);
  }
}
