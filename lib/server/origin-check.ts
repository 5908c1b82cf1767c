/**
 * Cross-site request refusal for route handlers that change state (Next.js checks server actions' Origin itself,
 * route handlers it does not): a browser sends the cookie with a request another site makes (a `no-cors` fetch, a
 * form), so a handler that acts on the session must first know the request came from Accord's own pages.
 * Accord's origin is the request's Host (or X-Forwarded-Host, as Next.js compares for server actions), or
 * ACCORD_PUBLIC_URL's. Requests without any browser marker (the CLI, curl) carry no ambient cookie and pass.
 */

type Env = Record<string, string | undefined>;

const hostOf = (url: string): string | null => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
};

/** The hosts a request to Accord may come from. */
function ownHosts(headers: Headers, env: Env): Set<string> {
  const hosts = new Set<string>();
  const forwarded = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  if (forwarded) hosts.add(forwarded.toLowerCase());
  const host = headers.get("host");
  if (host) hosts.add(host.toLowerCase());
  const publicHost = env.ACCORD_PUBLIC_URL ? hostOf(env.ACCORD_PUBLIC_URL) : null;
  if (publicHost) hosts.add(publicHost);
  return hosts;
}

/** Why the request is from another site, or null when it is Accord's own (or not a browser's). */
export function crossSiteReason(headers: Headers, env: Env = process.env): string | null {
  const own = ownHosts(headers, env);
  const origin = headers.get("origin");
  if (origin !== null) {
    const host = origin === "null" ? null : hostOf(origin);
    return host && own.has(host) ? null : `it came from ${origin === "null" ? "an opaque origin" : origin}`;
  }
  // Browsers that send no Origin still say where a request came from.
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none" ? null : `it came from a ${site} page`;
  const referer = headers.get("referer");
  if (referer !== null) {
    const host = hostOf(referer);
    return host && own.has(host) ? null : `it came from ${host ?? "an unknown page"}`;
  }
  return null;
}

/** 403 with a message for a request from another site, else null. */
export function refuseCrossSite(request: Request, env: Env = process.env): Response | null {
  const reason = crossSiteReason(request.headers, env);
  if (!reason) return null;
  return Response.json({ error: `Refused: ${reason}, not from Accord's own pages. Make this change on Accord's page itself.` }, { status: 403 });
}

/** Wraps a state-changing route handler (POST, PUT, PATCH, DELETE): a cross-site request gets 403 before it runs. */
export function sameOriginOnly<A extends unknown[]>(handler: (request: Request, ...rest: A) => Promise<Response>): (request: Request, ...rest: A) => Promise<Response> {
  return async (request, ...rest) => refuseCrossSite(request) ?? handler(request, ...rest);
}
