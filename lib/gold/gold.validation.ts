import { z } from "zod";
import { TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";

// The gold forms of the Data tab (mark/unmark one tweet, all tweets matching the filters, N per class from an
// upload's labels) and the payload of the job that runs the large ones. zod only: lib/jobs/job-types.ts imports it.

const id = z.string().trim().min(1).max(60);
const labelValue = z.string().trim().max(100).regex(/^[A-Za-z0-9_:-]*$/);
const optionalText = (max: number) => z.string().trim().max(max).transform((v) => v || undefined).optional();

export const markGoldSchema = z.object({ tweetId: id, label: labelValue.min(1, "Choose the expert label.") });
export const unmarkGoldSchema = z.object({ tweetId: id });

/** The Data tab's filters (the same names as its search form). */
export const goldFilterSchema = z.object({
  q: optionalText(200),
  role: z.enum(TWEET_ROLE).optional().or(z.literal("").transform(() => undefined)),
  status: z.enum(TWEET_STATUS).optional().or(z.literal("").transform(() => undefined)),
  label: labelValue.transform((v) => v || undefined).optional(),
});
export type GoldFilter = z.infer<typeof goldFilterSchema>;

export const bulkGoldSchema = goldFilterSchema.extend({
  eventId: id,
  mode: z.enum(["mark", "unmark"]),
  /** The expert label for all; empty: each tweet's label from its file. */
  goldLabel: labelValue.optional().transform((v) => v || null),
});

export const makeGoldSchema = z.object({
  eventId: id,
  importId: id,
  perClass: z.coerce.number().int("A whole number.").min(1, "At least 1 per class.").max(100_000),
  seed: z.coerce.number().int().min(0).max(2 ** 31 - 1).default(1),
  /** The preview's fingerprint of its picks (lib/gold/gold-requests.ts planKeyOf): the change applies only to those. */
  planKey: z.string().regex(/^[0-9a-f]{24}$/).optional(),
});
export type MakeGoldInput = z.infer<typeof makeGoldSchema>;

export const goldRequestSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("filter"), mode: z.enum(["mark", "unmark"]), goldLabel: z.string().nullable(), filter: goldFilterSchema }),
  z.object({ kind: z.literal("fromImport"), importId: id, perClass: z.number().int().min(1), seed: z.number().int().min(0), planKey: z.string().optional() }),
]);
export type GoldRequest = z.infer<typeof goldRequestSchema>;

export const goldJobSchema = z.object({
  eventId: id,
  actorId: z.string().nullable(),
  request: goldRequestSchema,
  /** "Make gold" from an upload: the previewed picks (their planKey checked when queued), applied as they are by the job. */
  picks: z.array(z.object({ id, label: z.string().nullable() })).max(2_000_000).optional(),
});
export type GoldJobPayload = z.infer<typeof goldJobSchema>;
