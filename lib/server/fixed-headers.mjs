// The security headers every response carries, in one list for both sides of the server: next.config.js (Next.js's
// answers) and scripts/request-guard.mjs (the answers the guard gives before Next.js sees a request). A plain .mjs
// module because next.config.js and the guard load it without a TypeScript step.

/** On every response: no framing, no sniffing, no referrer to other sites, no powerful browser features. */
export const SECURITY_HEADERS = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Event slugs and search terms in URLs never travel to other sites.
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];

/** For answers that render nothing (route handlers' JSON, CSV, SSE; the guard's plain-text refusals). */
export const NOTHING_RENDERED_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";
