import type { IngestRow, RowError } from "./rows";

/** What a parser yields as it streams through a file: rows, per-row errors, progress. */
export type ParseBatch = {
  rows: IngestRow[];
  errors: RowError[];
  /** Records (rows, valid or not) met in this batch. */
  records: number;
  /** Bytes of the file read so far. */
  bytesRead: number;
  /** Rows that were not UTF-8 and were decoded as Windows-1252 (text-lines.ts). */
  windows1252Rows?: number;
};
