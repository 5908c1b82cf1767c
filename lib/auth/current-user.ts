import "server-only";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { AuthError } from "@/lib/errors";
import { type Access, roleAllows } from "./roles";
import { getSession } from "./session";
import { findSessionUser, type SessionUser } from "./sessions";

export type CurrentUser = SessionUser;

/** The signed-in user, or null (no session, an ended or expired one, or a disabled account). */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  const session = await getSession();
  if (!session.token) return null;
  return findSessionUser(getDb(), session.token);
}

/** For pages: redirects to the sign-in page when signed out, and to a "not allowed" page when the role falls short. */
export async function requirePageUser(access: Access = "view"): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) redirect("/signin");
  if (!roleAllows(user.role, access)) redirect(user.role === "annotator" ? "/task" : "/forbidden");
  return user;
}

/** For server actions: throws AuthError (shown as a message) when signed out or not allowed. */
export async function requireActionUser(access: Access = "edit"): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) throw new AuthError("Your session has ended. Please sign in again.", "unauthenticated");
  if (!roleAllows(user.role, access)) throw new AuthError("Your role does not allow this action.", "forbidden");
  return user;
}

/** For route handlers: the user, or a 401/403 Response to return as is. */
export async function requireRouteUser(access: Access = "view"): Promise<CurrentUser | Response> {
  const user = await getCurrentUser();
  if (!user) return Response.json({ error: "Sign in required." }, { status: 401 });
  if (!roleAllows(user.role, access)) return Response.json({ error: "Your role does not allow this." }, { status: 403 });
  return user;
}

/** For route handlers that keep watching the session (live streams): the user and the session's token, or a 401/403. */
export async function requireRouteSession(access: Access = "view"): Promise<{ user: CurrentUser; token: string } | Response> {
  const session = await getSession();
  const user = session.token ? await findSessionUser(getDb(), session.token) : null;
  if (!user || !session.token) return Response.json({ error: "Sign in required." }, { status: 401 });
  if (!roleAllows(user.role, access)) return Response.json({ error: "Your role does not allow this." }, { status: 403 });
  return { user, token: session.token };
}
