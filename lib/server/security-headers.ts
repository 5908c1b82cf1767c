import { env } from "@/lib/config/env";

/**
 * The pages' Content-Security-Policy, set per request by proxy.ts (next.config.js adds the fixed headers: framing,
 * sniffing, referrer, and a deny-all policy for route handlers).
 * Scripts: only Next.js's own, each with the request's nonce ('strict-dynamic' lets them load their chunks).
 * Styles: 'unsafe-inline' stays, as the charts (recharts) set style attributes, which a nonce cannot cover; a style
 * cannot run code. No page may be framed, no plugin loaded, and forms post only to Accord — whose Prolific pages
 * answer a post with a 303 back to Prolific (prolificReturnOrigins).
 */
export function contentSecurityPolicy(nonce: string, { dev = false }: { dev?: boolean } = {}): string {
  return [
    "default-src 'self'",
    // React's development build evaluates code (source maps, fast refresh); production never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self' ${prolificReturnOrigins().join(" ")}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Browsers apply form-action to a form's redirects too: Accord's Prolific participant pages send the participant back
 * with a 303 to Prolific's completion URL (the local simulator's in simulator mode), which 'self' alone blocks.
 */
export function prolificReturnOrigins(simulatorUrl = env().ACCORD_PROLIFIC_SIMULATOR_URL ?? "http://127.0.0.1:9410"): string[] {
  const origins = ["https://app.prolific.com"];
  try {
    origins.push(new URL(simulatorUrl).origin);
  } catch {
    // not a URL: only Prolific itself
  }
  return origins;
}
