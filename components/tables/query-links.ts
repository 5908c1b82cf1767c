/** Builds a URL for the same page with some query parameters changed (undefined or "" removes one). */
export function queryHref(path: string, params: Record<string, string | undefined>, changes: Record<string, string | undefined> = {}): string {
  const merged: Record<string, string | undefined> = { ...params, ...changes };
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(merged)) if (v !== undefined && v !== "") search.set(k, v);
  const s = search.toString();
  return s ? `${path}?${s}` : path;
}

/** Next's searchParams (string | string[] | undefined) as single strings. */
export function firstValues(searchParams: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(searchParams)) out[k] = Array.isArray(v) ? v[0] : v;
  return out;
}
