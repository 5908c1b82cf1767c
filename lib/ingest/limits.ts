/** Upload limits: a file larger than maxFileBytes, or with a line longer than maxLineBytes, is refused. */
export type IngestLimits = {
  maxFileBytes: number;
  maxLineBytes: number;
};

export const DEFAULT_MAX_FILE_BYTES = 200 * 1024 * 1024;
/** Generous enough for a one-line JSON page of API results; far beyond any real CSV/TSV row. */
export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;

export const DEFAULT_LIMITS: IngestLimits = { maxFileBytes: DEFAULT_MAX_FILE_BYTES, maxLineBytes: DEFAULT_MAX_LINE_BYTES };

/** At most this many per-row errors are stored for the downloadable report (all are counted). */
export const MAX_STORED_ERRORS = 10_000;

/** The raw text kept with a per-row error is cut to this many characters. */
export const MAX_ERROR_RAW_CHARS = 500;

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
