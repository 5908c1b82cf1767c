"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { writeAudit } from "@/lib/audit/write-audit";
import { changePasswordSchema, setupSchema, signInSchema } from "@/lib/auth/auth.validation";
import { clientAddress } from "@/lib/auth/client-address";
import { DEVICE_COOKIE, DEVICE_TTL_S, issueDeviceCookie, knownDeviceId } from "@/lib/auth/known-device";
import { dummyPasswordHash, verifyPassword } from "@/lib/auth/password";
import { safeNext } from "@/lib/auth/safe-next";
import { getSession } from "@/lib/auth/session";
import { createSession, endSession } from "@/lib/auth/sessions";
import { checkThrottle, clearedOnSuccess, clearFailures, recordFailure, signInThrottleKeys } from "@/lib/auth/throttle";
import { changeOwnPassword, createFirstAdmin } from "@/lib/auth/users";
import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { deriveKey } from "@/lib/secrets/derive-key";
import { formAction, submitAction } from "./define-action";

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

export const signIn = formAction({ access: "public", input: signInSchema }, async ({ input: { email, password, next } }) => {
  const db = getDb();
  const user = await db.user.findUnique({ where: { email } });
  const deviceId = user ? knownDeviceId(deviceKey(), (await cookies()).get(DEVICE_COOKIE)?.value, user.id) : null;
  const subject = { email, address: clientAddress(await headers()), deviceId };
  const keys = signInThrottleKeys(subject);
  const waitMs = await checkThrottle(db, keys);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new UserError(`Too many failed sign-ins. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`, "throttled");
  }
  const valid = user ? await verifyPassword(user.passwordHash, password) : await verifyPassword(await dummyPasswordHash(), password).then(() => false);
  if (!user || !valid || user.disabled) {
    await recordFailure(db, keys);
    throw new UserError(user?.disabled ? "This account is disabled. Ask an admin to enable it." : "Wrong email or password.", "unauthenticated");
  }
  await clearFailures(db, clearedOnSuccess(subject));
  await startSession(user.id, deviceId);
  await writeAudit(db, { actorType: "user", actorId: user.id, entityType: "user", entityId: user.id, action: "sign-in" });
  redirect(user.role === "annotator" ? "/task" : safeNext(next));
});

/** Ends the session on the server (a copy of the cookie stops working too) and clears the cookie. */
export const signOut = submitAction({ access: "public", input: z.object({}) }, async ({ user }) => {
  const session = await getSession();
  if (session.token) await endSession(getDb(), session.token);
  session.destroy();
  if (user) await writeAudit(getDb(), { actorType: "user", actorId: user.id, entityType: "user", entityId: user.id, action: "sign-out" });
  redirect("/signin");
});

/** The signed-in user (any role) changes their own password; every other session of theirs ends. */
export const changePassword = formAction(
  { access: "account", input: changePasswordSchema, echo: false },
  async ({ user, input: { currentPassword, newPassword } }) => {
    const ended = await changeOwnPassword(getDb(), { userId: user.id, currentPassword, newPassword, keepToken: (await getSession()).token });
    return { ok: true, message: `Password changed. ${ended === 1 ? "1 other session was" : `${ended} other sessions were`} signed out.` };
  },
);

/** First run: creates the first admin, only while no account exists. */
export const setupFirstAdmin = formAction({ access: "public", input: setupSchema }, async ({ input }) => {
  const user = await createFirstAdmin(getDb(), input);
  if (!user) throw new UserError("Accord is already set up. Sign in instead.", "exists");
  await startSession(user.id);
  redirect("/events");
});
