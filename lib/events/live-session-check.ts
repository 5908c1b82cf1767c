import "server-only";
import { type Access, roleAllows } from "@/lib/auth/roles";
import { findSessionUser } from "@/lib/auth/sessions";
import type { Db } from "@/lib/db/client";
import type { SessionCheck } from "./live-sessions";

/**
 * The re-check of a live stream's session: the session must still exist (not signed out, not expired, the account
 * not disabled), its user's role must still allow `access`, and be the role the stream was opened with (a changed
 * role reloads the page, which shows what the new role may see).
 */
export function liveSessionCheck(db: Db, token: string, openedAs: string, access: Access = "view"): SessionCheck {
  return async () => {
    const user = await findSessionUser(db, token);
    if (!user) return "signed-out";
    if (!roleAllows(user.role, access)) return "forbidden";
    return user.role === openedAs ? "ok" : "role-changed";
  };
}
