"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { writeAudit } from "@/lib/audit/write-audit";
import { clientAddress } from "@/lib/auth/client-address";
import { getCurrentUser } from "@/lib/auth/current-user";
import { DEVICE_COOKIE, DEVICE_TTL_S, issueDeviceCookie, knownDeviceId } from "@/lib/auth/known-device";
import { dummyPasswordHash, hashPassword, verifyPassword } from "@/lib/auth/password";
import { safeNext } from "@/lib/auth/safe-next";
import { changePasswordSchema, setupSchema, signInSchema } from "@/lib/auth/schemas";
import { getSession } from "@/lib/auth/session";
import { createSession, endSession, endUserSessions } from "@/lib/auth/sessions";
import { checkThrottle, clearedOnSuccess, clearFailures, recordFailure, signInThrottleKeys } from "@/lib/auth/throttle";
import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { AuthError } from "@/lib/errors";
import { deriveKey } from "@/lib/server/secret";
import { type ActionState, errorState, formValues, isNavigationSignal, parseForm } from "./action-state";

// Public actions (no session needed): signIn, signOut, setupFirstAdmin. Every other action checks the user.

const deviceKey = () => deriveKey("known-device");

/** Starts a server-side session in the cookie, and marks the browser as a known device of the user. */
async function startSession(userId: string, deviceId?: string | null): Promise<void> {
  const session = await getSession();
  session.token = await createSession(getDb(), userId);
  await session.save();
  (await cookies()).set(DEVICE_COOKIE, issueDeviceCookie(deviceKey(), userId, deviceId ?? undefined), {
    httpOnly: true,
    sameSite: "lax",
    secure: env().ACCORD_SECURE_COOKIES,
    path: "/",
    maxAge: DEVICE_TTL_S,
  });
}

export async function signIn(_prev: ActionState, formData: FormData): Promise<ActionState> {
  const parsed = parseForm(signInSchema, formData);
  if (!parsed.ok) return parsed.state;
  const { email, password, next } = parsed.data;
  const db = getDb();
  try {
    const user = await db.user.findUnique({ where: { email } });
    const deviceId = user ? knownDeviceId(deviceKey(), (await cookies()).get(DEVICE_COOKIE)?.value, user.id) : null;
    const subject = { email, address: clientAddress(await headers()), deviceId };
    const keys = signInThrottleKeys(subject);
    const waitMs = await checkThrottle(db, keys);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      return {
        ok: false,
        message: `Too many failed sign-ins. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
        values: formValues(formData),
      };
    }
    const valid = user ? await verifyPassword(user.passwordHash, password) : await verifyPassword(await dummyPasswordHash(), password).then(() => false);
    if (!user || !valid || user.disabled) {
      await recordFailure(db, keys);
      return {
        ok: false,
        message: user?.disabled ? "This account is disabled. Ask an admin to enable it." : "Wrong email or password.",
        values: formValues(formData),
      };
    }
    await clearFailures(db, clearedOnSuccess(subject));
    await startSession(user.id, deviceId);
    await writeAudit(db, { actorType: "user", actorId: user.id, entityType: "user", entityId: user.id, action: "sign-in" });
    redirect(user.role === "annotator" ? "/task" : safeNext(next));
  } catch (err) {
    if (isNavigationSignal(err)) throw err;
    return errorState(err, formData);
  }
}

/** Ends the session on the server (a copy of the cookie stops working too) and clears the cookie. */
export async function signOut(): Promise<void> {
  const user = await getCurrentUser();
  const session = await getSession();
  if (session.token) await endSession(getDb(), session.token);
  session.destroy();
  if (user) await writeAudit(getDb(), { actorType: "user", actorId: user.id, entityType: "user", entityId: user.id, action: "sign-out" });
  redirect("/signin");
}

/** The signed-in user (any role) changes their own password; every other session of theirs ends. */
export async function changePassword(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const me = await getCurrentUser();
    if (!me) throw new AuthError("Your session has ended. Please sign in again.", "unauthenticated");
    const parsed = parseForm(changePasswordSchema, formData);
    if (!parsed.ok) return parsed.state;
    const db = getDb();
    const user = await db.user.findUniqueOrThrow({ where: { id: me.id }, select: { passwordHash: true } });
    if (!(await verifyPassword(user.passwordHash, parsed.data.currentPassword))) {
      return { ok: false, message: "Please correct the highlighted fields.", fieldErrors: { currentPassword: ["That is not your current password."] } };
    }
    await db.user.update({ where: { id: me.id }, data: { passwordHash: await hashPassword(parsed.data.newPassword) } });
    const ended = await endUserSessions(db, me.id, (await getSession()).token);
    await writeAudit(db, { actorType: "user", actorId: me.id, entityType: "user", entityId: me.id, action: "change-password", details: { sessionsEnded: ended } });
    return { ok: true, message: `Password changed. ${ended === 1 ? "1 other session was" : `${ended} other sessions were`} signed out.` };
  } catch (err) {
    return errorState(err);
  }
}

/** First run: creates the first admin, only while no account exists. */
export async function setupFirstAdmin(_prev: ActionState, formData: FormData): Promise<ActionState> {
  const parsed = parseForm(setupSchema, formData);
  if (!parsed.ok) return parsed.state;
  const db = getDb();
  try {
    const passwordHash = await hashPassword(parsed.data.password);
    const user = await db.$transaction(async (tx) => {
      if ((await tx.user.count()) > 0) return null;
      return tx.user.create({ data: { email: parsed.data.email, name: parsed.data.name, passwordHash, role: "admin" } });
    });
    if (!user) return { ok: false, message: "Accord is already set up. Sign in instead." };
    await writeAudit(db, { actorType: "user", actorId: user.id, entityType: "user", entityId: user.id, action: "setup-admin" });
    await startSession(user.id);
    redirect("/events");
  } catch (err) {
    if (isNavigationSignal(err)) throw err;
    return errorState(err, formData);
  }
}
