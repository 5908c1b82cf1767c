import fs from "node:fs";
import { parse as parseCsvSync } from "csv-parse/sync";
import { proposeColumns, resolveColumns, UPLOAD_COLUMN_KEYS, type UploadColumnKey, type UploadColumns } from "./columns";
import { delimitedCsvOptions } from "./format";
import { DEFAULT_LIMITS, type IngestLimits } from "./limits";
import { openTweetFile } from "./read-file";
import { decodeHead } from "./text-lines";
import type { ImportKind } from "@/lib/db/enums";

/**
 * The column preview of a delimited tweet file (the upload page's step between upload and import): its header, its
 * first rows and the columns Accord proposes, for the researcher to pick the id, text, label, date and location
 * columns. Shown when the file's columns are not recognised (no id or no text column, by name or by the event's
 * saved mapping), or when the researcher asks for it.
 */
export type ColumnPreview = {
  format: string;
  header: string[];
  /** The first rows (at most PREVIEW_ROWS), each cell cut to 200 characters. */
  rows: string[][];
  proposed: Partial<Record<UploadColumnKey, string>>;
  /** Why the preview is shown: the fields Accord could not find (empty: asked for). */
  missing: Array<"id" | "text">;
};

/** The upload route's reply with a preview: the upload is kept (named by `upload`) until the researcher's columns start its import. */
export type ColumnPreviewBody = { upload: string; fileName: string; kind: ImportKind; preview: ColumnPreview; message: string };

export const PREVIEW_ROWS = 5;
const HEAD_BYTES = 64 * 1024;

/** The preview, or null when the file is not a delimited file with a header (JSON, headerless TSV: nothing to map). */
export async function previewColumns(
  filePath: string,
  { fileName, limits = DEFAULT_LIMITS, saved = null }: { fileName: string; limits?: IngestLimits; saved?: UploadColumns | null },
): Promise<ColumnPreview | null> {
  const reader = await openTweetFile(filePath, { fileName, limits, columns: saved });
  const format = reader.format;
  if (format.kind !== "delimited" || format.headerless) return null;
  const handle = await fs.promises.open(filePath, "r");
  let text: string;
  try {
    const buf = Buffer.alloc(Math.min(HEAD_BYTES, reader.fileSize));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    text = decodeHead(buf.subarray(0, bytesRead));
    // A head cut inside a record: keep whole lines only.
    if (bytesRead < reader.fileSize) text = text.slice(0, text.lastIndexOf("\n") + 1);
  } finally {
    await handle.close();
  }
  let records: string[][] = [];
  try {
    records = parseCsvSync(text, {
      ...delimitedCsvOptions(format),
      skip_empty_lines: true,
      skip_records_with_error: true,
      to_line: 200,
    }) as string[][];
  } catch {
    records = [];
  }
  const { map, mapped } = resolveColumns(format.header, saved);
  const missing: ColumnPreview["missing"] = [];
  if (map.id === undefined) missing.push("id");
  if (map.text === undefined) missing.push("text");
  return {
    format: format.format,
    header: format.header,
    rows: records.slice(1, 1 + PREVIEW_ROWS).map((r) => r.map((cell) => cell.slice(0, 200))),
    proposed: mapped && saved ? savedColumns(saved) : proposeColumns(format.header),
    missing,
  };
}

function savedColumns(saved: UploadColumns): Partial<Record<UploadColumnKey, string>> {
  const out: Partial<Record<UploadColumnKey, string>> = {};
  for (const key of UPLOAD_COLUMN_KEYS) if (saved[key]) out[key] = saved[key] as string;
  return out;
}
