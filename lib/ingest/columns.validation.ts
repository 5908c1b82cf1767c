import { z } from "zod";
import { UserError } from "@/lib/errors";
import { missingColumns, UPLOAD_COLUMN_KEYS, type UploadColumnKey, type UploadColumns } from "./columns";

// The column mapping's shape (settings `columns`), the upload page's column preview and `accord import --columns`.

const columnName = z.string().trim().min(1, "Choose a column.").max(200);
const optionalColumn = z
  .string()
  .trim()
  .max(200)
  .nullish()
  .transform((v) => (v ? v : null));

export const uploadColumnsSchema = z
  .object({ id: columnName, text: columnName, label: optionalColumn, date: optionalColumn, location: optionalColumn })
  .superRefine((c, ctx) => {
    const seen = new Map<string, UploadColumnKey>();
    for (const key of UPLOAD_COLUMN_KEYS) {
      const name = c[key];
      if (!name) continue;
      const other = seen.get(name.toLowerCase());
      if (other) ctx.addIssue({ code: "custom", path: [key], message: `"${name}" is already the ${other} column.` });
      else seen.set(name.toLowerCase(), key);
    }
  }) satisfies z.ZodType<UploadColumns, unknown>;

/** The upload page's second step: the researcher's columns for a file uploaded before (named by its upload token). */
export const mapColumnsRequestSchema = z.object({
  eventId: z.string().min(1).max(60),
  kind: z.enum(["tweets", "gold"]),
  upload: z.string().regex(/^[0-9a-f-]{36}\.upload$/, "Unknown upload."),
  fileName: z.string().trim().min(1).max(200),
  columns: uploadColumnsSchema,
});

/** Checks a mapping against a file's header: refused with the first column the file does not have. */
export function checkColumnsInHeader(columns: UploadColumns, header: readonly string[], fileName: string): void {
  const missing = missingColumns(header, columns);
  if (missing.length > 0) {
    throw new UserError(
      `"${fileName}" has no column "${missing[0]}"${missing.length > 1 ? ` (nor ${missing.slice(1).map((m) => `"${m}"`).join(", ")})` : ""}: its columns are ${header.map((h) => `"${h}"`).join(", ")}.`,
      "missing_column",
    );
  }
}

/** `id=tweet_no,text=tweet,label=choose_one,date=,location=` (the CLI's --columns; date/time and place are aliases). */
export function parseColumnsOption(text: string): UploadColumns {
  const raw: Record<string, string> = {};
  const alias: Record<string, UploadColumnKey> = { id: "id", text: "text", label: "label", date: "date", time: "date", location: "location", place: "location" };
  for (const part of text.split(",")) {
    if (!part.trim()) continue;
    const eq = part.indexOf("=");
    const key = eq > 0 ? alias[part.slice(0, eq).trim().toLowerCase()] : undefined;
    if (!key) throw new UserError(`--columns: "${part.trim()}" should be FIELD=COLUMN with FIELD one of ${UPLOAD_COLUMN_KEYS.join(", ")}.`, "columns");
    raw[key] = part.slice(eq + 1);
  }
  const parsed = uploadColumnsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`--columns: ${issue?.path.join(".") || "columns"}: ${issue?.message ?? "invalid"}${raw.id && raw.text ? "" : " (id= and text= are required)"}`, "columns");
  }
  return parsed.data;
}
