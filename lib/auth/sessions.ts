import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "@/lib/db/client";

/**
 * Server-side sessions: the cookie carries a random token, the Session table its SHA-256 (a copied database does not
 * yield usable cookies). A session ends when its row is gone: sign-out deletes one, a password or role change all of
 * the user's, so a copied cookie stops working at once.
 */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const sessionId = (token: string) => createHash("sha256").update(token).digest("base64url");

/** The session's id (what the Session table keys it by): names a session in memory without keeping its token. */
export const sessionKeyOf = sessionId;

export type SessionUser = { id: string; email: string; name: string; role: string };

/** Starts a session for the user; returns the token for the cookie. */
export async function createSession(db: Db, userId: string, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.session.create({ data: { id: sessionId(token), userId, createdAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) } });
  // Expired rows of this user go now, so the table never grows past the live sessions.
  await db.session.deleteMany({ where: { userId, expiresAt: { lte: now } } });
  return token;
}

/** The user of a live session, or null (no such session, expired, or the account disabled). */
export async function findSessionUser(db: Db, token: string, now = new Date()): Promise<SessionUser | null> {
  const row = await db.session.findUnique({
    where: { id: sessionId(token) },
    select: { expiresAt: true, user: { select: { id: true, email: true, name: true, role: true, disabled: true } } },
  });
  if (!row || row.expiresAt <= now || row.user.disabled) return null;
  const { id, email, name, role } = row.user;
  return { id, email, name, role };
}

export async function endSession(db: Db, token: string): Promise<void> {
  await db.session.deleteMany({ where: { id: sessionId(token) } });
}

/** Ends every session of the user, except the one whose token is given (the browser that made the change). */
export async function endUserSessions(db: Db, userId: string, keepToken?: string): Promise<number> {
  const res = await db.session.deleteMany({ where: { userId, ...(keepToken ? { id: { not: sessionId(keepToken) } } : {}) } });
  return res.count;
}
