import { z } from "zod";

// The import schemas: the upload route's query and the actions on one import (cancel, re-run, delete its file).

export const importKindSchema = z.enum(["tweets", "gold"]);
export type ImportKind = z.infer<typeof importKindSchema>;

/** The upload route's query: POST /api/imports?eventId=…&kind=tweets|gold&name=<file name>, the file as the raw body. */
export const uploadQuerySchema = z.object({
  eventId: z.string().min(1).max(60),
  kind: importKindSchema,
  name: z.string().trim().min(1, "The file needs a name.").max(500),
  /** "check": show the column preview even when Accord recognises the file's columns. */
  columns: z.literal("check").optional(),
});

export const cancelImportSchema = z.object({ importId: z.string().min(1).max(60) });
/** Re-run with the event's current settings, or delete the kept file: the same one field. */
export const importActionSchema = cancelImportSchema;

/** An imported event's "collect more judgments on a crowd" (lib/ingest/judgments/collect-more.ts). */
export const collectMoreSchema = z.object({ eventId: z.string().min(1).max(60) });
