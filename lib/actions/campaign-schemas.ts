import { z } from "zod";

// Shared by the campaign forms (hints) and their server actions (validation).
const csvList = z.preprocess(
  (v) => (typeof v === "string" ? v.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean) : v),
  z.array(z.string()).optional(),
);
const optionalInt = (min: number, max: number, message: string) =>
  z.preprocess((v) => (v === "" || v === undefined ? undefined : Number(v)), z.number({ message }).int(message).min(min, message).max(max, message).optional());

export const qualificationFormSchema = z.object({
  eventId: z.string().min(1),
  goldTweetIds: csvList,
  reuseTestId: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  locales: z.preprocess(
    (v) => (typeof v === "string" ? v.split(/[\s,]+/).map((s) => s.trim().toUpperCase()).filter(Boolean) : v),
    z.array(z.string().regex(/^[A-Z]{2}$/, "Use two-letter country codes, e.g. US, GB.")).optional(),
  ),
  minApprovalPercent: optionalInt(0, 100, "Enter a percentage from 0 to 100."),
  minApprovedHits: optionalInt(0, 1_000_000, "Enter a whole number of HITs."),
});

export const publishFormSchema = z.object({
  eventId: z.string().min(1),
  hitCount: z.preprocess(
    (v) => (v === "all" ? "all" : v === "" || v === undefined ? undefined : Number(v)),
    z.union([z.literal("all"), z.number({ message: 'Enter a number of HITs or "all".' }).int().min(1, "At least 1 HIT.").max(100_000)]),
  ),
  rewardCents: z.coerce.number({ message: "Enter the reward in cents." }).int().min(1, "The reward must be at least 1 cent.").max(10_000, "At most $100 per assignment."),
  lifetimeHours: z.coerce.number().min(1, "At least 1 hour.").max(24 * 365),
  durationMinutes: z.coerce.number().min(5, "Give workers at least 5 minutes.").max(24 * 60),
  autoApprovalHours: z.coerce.number().min(1, "At least 1 hour, so that Accord decides before MTurk auto-approves.").max(720),
  title: z.string().trim().min(1, "Enter a title.").max(128),
  description: z.string().trim().min(1, "Enter a description.").max(2000),
  keywords: z.string().trim().max(999).default(""),
  confirmProduction: z.preprocess((v) => v === "on" || v === "true", z.boolean()),
});
