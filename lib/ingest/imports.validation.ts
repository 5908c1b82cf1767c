import { z } from "zod";

// The upload and import forms' schemas, shared by the forms and their server actions.

export const importKindSchema = z.enum(["tweets", "gold"]);
export type ImportKind = z.infer<typeof importKindSchema>;

export const uploadSchema = z.object({
  eventId: z.string().min(1).max(60),
  kind: importKindSchema,
  file: z.instanceof(File, { message: "Choose a file to upload." }).refine((f) => f.size > 0 && f.name !== "", "Choose a file to upload (it must not be empty)."),
});

export const cancelImportSchema = z.object({ importId: z.string().min(1).max(60) });
