import { z } from "zod";

// The import schemas: the upload route's query and the cancel form's action.

export const importKindSchema = z.enum(["tweets", "gold"]);
export type ImportKind = z.infer<typeof importKindSchema>;

/** The upload route's query: POST /api/imports?eventId=…&kind=tweets|gold&name=<file name>, the file as the raw body. */
export const uploadQuerySchema = z.object({
  eventId: z.string().min(1).max(60),
  kind: importKindSchema,
  name: z.string().trim().min(1, "The file needs a name.").max(500),
});

export const cancelImportSchema = z.object({ importId: z.string().min(1).max(60) });
