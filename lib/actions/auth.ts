"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { writeAudit } from "@/lib/audit/write-audit";
import { setupSchema, signInSchema } from "@/lib/auth/auth.validation";
import { dummyPasswordHash, verifyPassword } from "@/lib/auth/password";
import { getSession } from "@/lib/auth/session";
import { checkThrottle, clearFailures, recordFailure } from "@/lib/auth/throttle";
import { createFirstAdmin } from "@/lib/auth/users";
import { getDb } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { formAction, submitAction } from "./define-action";

// Public actions (no session needed): signIn, signOut, setupFirstAdmin. Every other action checks the user.

function safeNext(next: string | undefined): string {
  // Only same-site paths: never redirect to another origin.
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/events";
}

async function clientKey(): Promise<string> {
  const h = await headers();
  const ip = h.get("x-forwarded-for")?.split(",")[0]?.trim() || h.get("x-real-ip") || "local";
  return `ip:${ip}`;
}

async function startSession(user: { id: string; sessionVersion: number }) {
  const session = await getSession();
  session.userId = user.id;
  session.version = user.sessionVersion;
  await session.save();
}

export const signIn = formAction({ access: "public", input: signInSchema }, async ({ input: { email, password, next } }) => {
  const db = getDb();
  const keys = [`email:${email}`, await clientKey()];
  const waitMs = await checkThrottle(db, keys);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new UserError(`Too many failed sign-ins. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`, "throttled");
  }
  const user = await db.user.findUnique({ where: { email } });
  const valid = user ? await verifyPassword(user.passwordHash, password) : await verifyPassword(await dummyPasswordHash(), password).then(() => false);
  if (!user || !valid || user.disabled) {
    await recordFailure(db, keys);
    throw new UserError(user?.disabled ? "This account is disabled. Ask an admin to enable it." : "Wrong email or password.", "unauthenticated");
  }
  await clearFailures(db, `email:${email}`);
  await startSession(user);
  await writeAudit(db, { actorType: "user", actorId: user.id, entityType: "user", entityId: user.id, action: "sign-in" });
  redirect(user.role === "annotator" ? "/task" : safeNext(next));
});

export const signOut = submitAction({ access: "public", input: z.object({}) }, async ({ user }) => {
  if (user) {
    const session = await getSession();
    session.destroy();
    await writeAudit(getDb(), { actorType: "user", actorId: user.id, entityType: "user", entityId: user.id, action: "sign-out" });
  }
  redirect("/signin");
});

/** First run: creates the first admin, only while no account exists. */
export const setupFirstAdmin = formAction({ access: "public", input: setupSchema }, async ({ input }) => {
  const user = await createFirstAdmin(getDb(), input);
  if (!user) throw new UserError("Accord is already set up. Sign in instead.", "exists");
  await startSession(user);
  redirect("/events");
});
