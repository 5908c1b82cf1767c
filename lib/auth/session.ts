import "server-only";
import { getIronSession, type SessionOptions } from "iron-session";
import { cookies } from "next/headers";
import { env } from "@/lib/config/env";
import { deriveKey } from "@/lib/secrets/derive-key";
import { SESSION_TTL_MS } from "./sessions";

/** The cookie holds the session's token (lib/auth/sessions.ts), sealed by iron-session. */
export type SessionData = { token?: string };

export const SESSION_COOKIE = "accord_session";

function sessionOptions(): SessionOptions {
  return {
    cookieName: SESSION_COOKIE,
    password: deriveKey("session-cookie").toString("hex"),
    ttl: SESSION_TTL_MS / 1000,
    cookieOptions: {
      httpOnly: true,
      sameSite: "lax",
      secure: env().ACCORD_SECURE_COOKIES,
      path: "/",
    },
  };
}

/** The encrypted, httpOnly session cookie (iron-session). */
export async function getSession() {
  return getIronSession<SessionData>(await cookies(), sessionOptions());
}
