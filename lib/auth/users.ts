import "server-only";
import { writeAudit } from "@/lib/audit/write-audit";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { hashPassword, verifyPassword } from "./password";
import type { Role } from "./roles";
import { endUserSessions } from "./sessions";

// Accounts: creating and changing them, each write audited with the admin who made it.

export async function createUserAccount(
  db: Db,
  { email, name, role, password, actorId }: { email: string; name: string; role: Role; password: string; actorId: string },
) {
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) {
    throw new UserError("An account with this email already exists.", "exists", { email: ["An account with this email already exists."] });
  }
  const user = await db.user.create({ data: { email, name, role, passwordHash: await hashPassword(password) } });
  await writeAudit(db, { actorType: "user", actorId, entityType: "user", entityId: user.id, action: "create-user", details: { role: user.role } });
  return user;
}

/** Changes a role or disables an account; either signs the user out everywhere. Nobody demotes or disables themselves. */
export async function updateUserAccount(
  db: Db,
  { userId, role, disabled, actorId }: { userId: string; role?: Role; disabled?: boolean; actorId: string },
) {
  if (userId === actorId && ((role && role !== "admin") || disabled === true)) {
    throw new UserError("You cannot demote or disable your own account.");
  }
  const before = await db.user.findUnique({ where: { id: userId }, select: { role: true, disabled: true } });
  if (!before) throw new UserError("No such account.", "not_found");
  const user = await db.user.update({
    where: { id: userId },
    data: { ...(role ? { role } : {}), ...(disabled !== undefined ? { disabled } : {}) },
  });
  // A role change or disabling ends the user's sessions: the next request meets the new role or none.
  if ((role && role !== before.role) || (disabled !== undefined && disabled !== before.disabled)) await endUserSessions(db, userId);
  await writeAudit(db, {
    actorType: "user",
    actorId,
    entityType: "user",
    entityId: userId,
    action: "update-user",
    details: { role, disabled: disabled === undefined ? undefined : String(disabled) },
  });
  return user;
}

/** First run: the first admin, only while no account exists (null when one does). */
export async function createFirstAdmin(db: Db, { email, name, password }: { email: string; name: string; password: string }) {
  const passwordHash = await hashPassword(password);
  const user = await db.$transaction(async (tx) => {
    if ((await tx.user.count()) > 0) return null;
    return tx.user.create({ data: { email, name, passwordHash, role: "admin" } });
  });
  if (user) await writeAudit(db, { actorType: "user", actorId: user.id, entityType: "user", entityId: user.id, action: "setup-admin" });
  return user;
}

/**
 * The signed-in user changes their own password after proving the current one; every other session of theirs ends
 * (the one whose token is kept stays). Returns how many ended.
 */
export async function changeOwnPassword(
  db: Db,
  { userId, currentPassword, newPassword, keepToken }: { userId: string; currentPassword: string; newPassword: string; keepToken?: string },
): Promise<number> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    throw new UserError("Please correct the highlighted fields.", "invalid_input", { currentPassword: ["That is not your current password."] });
  }
  await db.user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(newPassword) } });
  const ended = await endUserSessions(db, userId, keepToken);
  await writeAudit(db, { actorType: "user", actorId: userId, entityType: "user", entityId: userId, action: "change-password", details: { sessionsEnded: ended } });
  return ended;
}

/** Whether anyone has an account yet (before the first admin exists, sign-in sends people to set-up). */
export async function hasUsers(db: Db): Promise<boolean> {
  return (await db.user.count()) > 0;
}
