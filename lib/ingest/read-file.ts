import fs from "node:fs";
import { UserError } from "@/lib/errors";
import { type DetectedFormat, detectFormat } from "./format";
import type { UploadColumns } from "./columns";
import { DEFAULT_LIMITS, formatBytes, type IngestLimits } from "./limits";
import type { ParseBatch } from "./parse-batch";
import { parseDelimited } from "./parse-delimited";
import { parseJson } from "./parse-json";
import type { IngestRow, RowError } from "./rows";
import { assertTextFile, decodeHead, readTextLines } from "./text-lines";

export type TweetFileReader = {
  format: DetectedFormat;
  fileSize: number;
  /** Streams the file: rows and per-row errors in batches, with the bytes read so far. */
  batches(): AsyncGenerator<ParseBatch>;
};

const HEAD_BYTES = 64 * 1024;
const CHUNK_BYTES = 256 * 1024;

/**
 * Opens a tweet file of any supported format (detected from its content, the extension breaking ties),
 * refusing files over the size limit and files that are not text (encodings: text-lines.ts).
 */
export async function openTweetFile(
  filePath: string,
  { fileName, limits = DEFAULT_LIMITS, columns = null }: { fileName: string; limits?: IngestLimits; columns?: UploadColumns | null },
): Promise<TweetFileReader> {
  const label = `"${fileName}"`;
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(filePath);
  } catch {
    throw new UserError(`${label} cannot be read (no such file).`, "file_missing");
  }
  if (!stat.isFile()) throw new UserError(`${label} is not a file.`, "file_missing");
  if (stat.size > limits.maxFileBytes) {
    throw new UserError(`${label} is ${formatBytes(stat.size)}, above the ${formatBytes(limits.maxFileBytes)} limit.`, "file_too_large");
  }
  if (stat.size === 0) throw new UserError(`${label} is empty.`, "empty_file");
  const handle = await fs.promises.open(filePath, "r");
  let head: Uint8Array;
  try {
    const buf = Buffer.alloc(Math.min(HEAD_BYTES, stat.size));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  assertTextFile(head, label);
  const text = decodeHead(head);
  const format = detectFormat({ fileName, head: text });
  return {
    format,
    fileSize: stat.size,
    batches() {
      const lines = readTextLines(fs.createReadStream(filePath, { highWaterMark: CHUNK_BYTES }), { limits, fileLabel: label });
      return format.kind === "delimited" ? parseDelimited(lines, format, limits, columns) : parseJson(lines, format, limits);
    },
  };
}

/** The import's notice for rows that were not UTF-8 and were decoded as Windows-1252 (null: none). */
export function windows1252Note(rows: number): string | null {
  return rows > 0 ? `decoded as Windows-1252: ${rows.toLocaleString("en-US")} row${rows === 1 ? "" : "s"}` : null;
}

/** Reads a whole tweet file into memory (the dedupe command, tests). */
export async function readTweetFile(
  filePath: string,
  options: { fileName: string; limits?: IngestLimits; columns?: UploadColumns | null },
): Promise<{ format: DetectedFormat; rows: IngestRow[]; errors: RowError[]; records: number; windows1252Rows: number }> {
  const reader = await openTweetFile(filePath, options);
  const rows: IngestRow[] = [];
  const errors: RowError[] = [];
  let records = 0;
  let windows1252Rows = 0;
  for await (const batch of reader.batches()) {
    for (const r of batch.rows) rows.push(r);
    for (const e of batch.errors) errors.push(e);
    records += batch.records;
    windows1252Rows += batch.windows1252Rows ?? 0;
  }
  errors.sort((a, b) => a.line - b.line);
  return { format: reader.format, rows, errors, records, windows1252Rows };
}
