// How many bytes of a request body Accord reads, by path: enforced by the request guard (scripts/request-guard.mjs)
// before Next.js sees a request, and by the app where it reads a body itself. A plain .mjs module so that the guard
// and next.config.js load it without a TypeScript step (types in body-limits.d.mts). README "Request bodies" lists them.

const KiB = 1024;
const MiB = 1024 * KiB;

/** A request without a valid session cookie never carries more (the sign-in action's form is a few hundred bytes). */
export const ANONYMOUS_MAX_BODY_BYTES = 1 * MiB;

/**
 * Pages, server actions and route handlers, signed in or not (only the upload route looks at the session, so this
 * must stay within the anonymous limit): Next.js's server actions read at most this (next.config.js).
 */
export const DEFAULT_MAX_BODY_BYTES = 1 * MiB;

/** Prolific's participant pages and webhook: a task's form (30 answers and the Prolific ids) is a few KB. */
export const PARTICIPANT_FORM_MAX_BYTES = 64 * KiB;

/** The upload route for a signed-in user: the largest file an event's limits may allow (lib/ingest/settings.ts). */
export const MAX_UPLOAD_BYTES = 4 * 1024 * MiB;

/** The upload route: the file is the raw body, streamed to disk (app/api/imports/route.ts). */
export const UPLOAD_PATH = "/api/imports";

const PUBLIC_FORM_PATHS = new Set(["/prolific/task", "/prolific/screening", "/api/prolific/webhook"]);

/**
 * The limit for a request: `limit` for anyone, and `signedInLimit` (larger) when the request carries a valid
 * session, for the one route that takes large bodies. Every other path (a misspelt or encoded one too) gets the
 * default, never more.
 */
export function bodyLimitFor(method, pathname) {
  if (method === "POST" && pathname === UPLOAD_PATH) return { limit: ANONYMOUS_MAX_BODY_BYTES, signedInLimit: MAX_UPLOAD_BYTES };
  if (PUBLIC_FORM_PATHS.has(pathname)) return { limit: PARTICIPANT_FORM_MAX_BYTES };
  return { limit: DEFAULT_MAX_BODY_BYTES };
}

/** "1 MB", "64 KB", "4 GB" (binary units, as the limits are). */
export function formatLimit(bytes) {
  if (bytes >= 1024 * MiB) return `${+(bytes / (1024 * MiB)).toFixed(1)} GB`;
  if (bytes >= MiB) return `${+(bytes / MiB).toFixed(1)} MB`;
  if (bytes >= KiB) return `${+(bytes / KiB).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
