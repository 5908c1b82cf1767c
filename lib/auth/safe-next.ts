/**
 * Where to go after signing in: `next` only when, parsed as a URL against this site, it stays on this site and is a
 * plain path. Browsers treat `\` as `/` and drop tabs and newlines, so `/\evil.example` or `/<TAB>/evil.example` would
 * leave the site; they are refused, as is any control character, percent-encoded slash or backslash, or a
 * protocol-relative or absolute URL. Anything refused falls back to the events page.
 */
export const DEFAULT_AFTER_SIGN_IN = "/events";
const BASE = "http://accord.invalid";

export function safeNext(next: string | null | undefined): string {
  if (!next || next.length > 2000) return DEFAULT_AFTER_SIGN_IN;
  // Control characters (tabs, newlines, NUL…) and backslashes, raw or percent-encoded, never appear in Accord's paths.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (/[\u0000-\u001f\u007f\\]/.test(next) || /%(?:0[0-9a-f]|1[0-9a-f]|7f|5c|2f)/i.test(next)) return DEFAULT_AFTER_SIGN_IN;
  if (!next.startsWith("/") || next.startsWith("//")) return DEFAULT_AFTER_SIGN_IN;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
  if (url.origin !== BASE || url.username || url.password) return DEFAULT_AFTER_SIGN_IN;
  // The parsed path, re-serialised: what the browser will follow is exactly what was checked.
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("/") && !path.startsWith("//") ? path : DEFAULT_AFTER_SIGN_IN;
}
