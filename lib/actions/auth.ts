"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { writeAudit } from "@/lib/audit/write-audit";
import { getCurrentUser } from "@/lib/auth/current-user";
import { dummyPasswordHash, hashPassword, verifyPassword } from "@/lib/auth/password";
import { setupSchema, signInSchema } from "@/lib/auth/schemas";
import { getSession } from "@/lib/auth/session";
import { checkThrottle, clearFailures, recordFailure } from "@/lib/auth/throttle";
import { getDb } from "@/lib/db/client";
import { type ActionState, errorState, formValues, isNavigationSignal, parseForm } from "./action-state";

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

export async function signIn(_prev: ActionState, formData: FormData): Promise<ActionState> {
  const parsed = parseForm(signInSchema, formData);
  if (!parsed.ok) return parsed.state;
  const { email, password, next } = parsed.data;
  const db = getDb();
  const keys = [`email:${email}`, await clientKey()];
  try {
    const waitMs = await checkThrottle(db, keys);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      return {
        ok: false,
        message: `Too many failed sign-ins. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
        values: formValues(formData),
      };
    }
    const user = await db.user.findUnique({ where: { email } });
    const valid = user ? await verifyPassword(user.passwordHash, password) : await verifyPassword(await dummyPasswordHash(), password).then(() => false);
    if (!user || !valid || user.disabled) {
      await recordFailure(db, keys);
      return {
        ok: false,
        message: user?.disabled ? "This account is disabled. Ask an admin to enable it." : "Wrong email or password.",
        values: formValues(formData),
      };
    }
    await clearFailures(db, `email:${email}`);
    const session = await getSession();
    session.userId = user.id;
    session.version = user.sessionVersion;
    await session.save();
    await writeAudit(db, { actorType: "user", actorId: user.id, entityType: "user", entityId: user.id, action: "sign-in" });
    redirect(user.role === "annotator" ? "/task" : safeNext(next));
  } catch (err) {
    if (isNavigationSignal(err)) throw err;
    return errorState(err, formData);
  }
}

export async function signOut(): Promise<void> {
  const user = await getCurrentUser();
  if (user) {
    const session = await getSession();
    session.destroy();
    await writeAudit(getDb(), { actorType: "user", actorId: user.id, entityType: "user", entityId: user.id, action: "sign-out" });
  }
  redirect("/signin");
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
    const session = await getSession();
    session.userId = user.id;
    session.version = user.sessionVersion;
    await session.save();
    redirect("/events");
  } catch (err) {
    if (isNavigationSignal(err)) throw err;
    return errorState(err, formData);
  }
}
