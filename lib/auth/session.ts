import "server-only";
import { getIronSession, type SessionOptions } from "iron-session";
import { cookies } from "next/headers";
import { env } from "@/lib/config/env";
import { deriveKey } from "@/lib/secrets/derive-key";

export type SessionData = { userId?: string; version?: number };

export const SESSION_COOKIE = "accord_session";

function sessionOptions(): SessionOptions {
  return {
    cookieName: SESSION_COOKIE,
    password: deriveKey("session-cookie").toString("hex"),
    ttl: 60 * 60 * 24 * 7, // a week
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
