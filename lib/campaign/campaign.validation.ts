import { z } from "zod";
import { checkbox, csvList, optionalInt } from "@/lib/validation/form-fields";

// The campaign forms' schemas, shared by the forms (hints) and their server actions (validation).

export const qualificationFormSchema = z.object({
  eventId: z.string().min(1),
  goldTweetIds: csvList(z.array(z.string())),
  reuseTestId: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  locales: csvList(z.array(z.string().regex(/^[A-Z]{2}$/, "Use two-letter country codes, e.g. US, GB.")), (s) => s.toUpperCase()),
  minApprovalPercent: optionalInt(0, 100, "Enter a percentage from 0 to 100."),
  minApprovedHits: optionalInt(0, 1_000_000, "Enter a whole number of HITs."),
});

const HIT_COUNT = 'HITs must be a whole number from 1 to 100,000, or "all".';

export const publishFormSchema = z.object({
  eventId: z.string().min(1),
  hitCount: z.preprocess(
    (v) => (typeof v === "string" && v.trim().toLowerCase() === "all" ? "all" : typeof v === "string" && v.trim() !== "" ? Number(v) : undefined),
    z.union([z.literal("all"), z.number().int(HIT_COUNT).min(1, HIT_COUNT).max(100_000, HIT_COUNT)], { error: HIT_COUNT }),
  ),
  rewardCents: z.coerce.number({ message: "The reward must be a whole number of cents." }).int("The reward must be a whole number of cents.").min(1, "The reward must be at least 1 cent.").max(10_000, "At most $100 per assignment."),
  lifetimeHours: z.coerce.number({ message: "The lifetime must be a number of hours." }).min(1, "At least 1 hour.").max(24 * 365, "At most a year (8,760 hours)."),
  durationMinutes: z.coerce.number({ message: "The time per assignment must be a number of minutes." }).min(5, "Give workers at least 5 minutes.").max(24 * 60, "At most a day (1,440 minutes)."),
  autoApprovalHours: z.coerce.number({ message: "Auto-approval must be a number of hours." }).min(1, "At least 1 hour, so that Accord decides before MTurk auto-approves.").max(720, "At most 30 days (720 hours)."),
  title: z.string().trim().min(1, "Enter a title.").max(128),
  description: z.string().trim().min(1, "Enter a description.").max(2000),
  keywords: z.string().trim().max(999).default(""),
  confirmProduction: checkbox,
});

export const hitActionSchema = z.object({ hitId: z.string().min(1), op: z.enum(["expire", "extend", "delete"]), hours: z.coerce.number().min(1).max(24 * 365).optional() });

export const redecideSchema = z.object({
  assignmentId: z.string().min(1),
  decision: z.enum(["approve", "reject"], { message: "Choose approve or reject." }),
  reason: z.string().trim().min(5, "Give the worker a reason (at least 5 characters).").max(1000),
});

export const workerActionSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("block"), workerId: z.string().min(1), reason: z.string().trim().min(3, "Say why (the worker is told).").max(1000) }),
  z.object({ op: z.literal("unblock"), workerId: z.string().min(1), reason: z.string().trim().max(1000).optional() }),
  z.object({ op: z.literal("notify"), workerId: z.string().min(1), subject: z.string().trim().min(1, "Enter a subject.").max(200), message: z.string().trim().min(1, "Enter a message.").max(4096) }),
  z.object({
    op: z.literal("bonus"),
    workerId: z.string().min(1),
    amountCents: z.coerce.number({ message: "Enter the bonus in cents." }).int().min(1, "At least 1 cent.").max(10_000, "At most $100 per bonus."),
    reason: z.string().trim().min(3, "Say why (the worker sees it).").max(1000),
  }),
]);

/** The Publish panel's crowd-policy form (lib/crowd/policy.ts); the crowd's own rules are checked by the action. */
export const crowdPolicyFormSchema = z.object({
  eventId: z.string().min(1),
  belowGold: z.enum(["exclude", "reject"], { message: "Choose what happens below the gold rule." }),
  attentionChecks: checkbox,
  rejectFailedChecks: checkbox,
  rejectTooQuick: checkbox,
  rejectionCapPercent: z.coerce.number({ message: "The cap must be a percentage." }).min(0, "From 0%.").max(50, "At most 50%."),
});
