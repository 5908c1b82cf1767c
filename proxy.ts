import { type NextRequest, NextResponse } from "next/server";
import { contentSecurityPolicy } from "@/lib/server/security-headers";

/**
 * Every page gets a fresh nonce and its Content-Security-Policy (Next.js's documented nonce pattern): Next reads the
 * policy from the request headers and puts the nonce on its own scripts; the response carries the same policy.
 */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const policy = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  matcher: [
    {
      // Pages only: route handlers get a fixed policy (next.config.js), static files need none. Server action
      // calls (Next-Action header) answer with data, not a page, so they skip the proxy and Next.js does not copy
      // their body for it (scripts/request-guard.mjs has capped it already).
      source: "/((?!api/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
        { type: "header", key: "next-action" },
      ],
    },
  ],
};
