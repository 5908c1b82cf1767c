"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { writeAudit } from "@/lib/audit/write-audit";
import { requireActionUser } from "@/lib/auth/current-user";
import { hashPassword } from "@/lib/auth/password";
import { endUserSessions } from "@/lib/auth/sessions";
import { roleSchema } from "@/lib/auth/roles";
import { createUserSchema } from "@/lib/auth/schemas";
import { getDb } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { type ActionState, errorState, parseForm } from "./action-state";

export async function createUser(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const admin = await requireActionUser("admin");
    const parsed = parseForm(createUserSchema, formData);
    if (!parsed.ok) return parsed.state;
    const db = getDb();
    if (await db.user.findUnique({ where: { email: parsed.data.email }, select: { id: true } })) {
      throw new UserError("An account with this email already exists.", "exists", { email: ["An account with this email already exists."] });
    }
    const user = await db.user.create({
      data: { email: parsed.data.email, name: parsed.data.name, role: parsed.data.role, passwordHash: await hashPassword(parsed.data.password) },
    });
    await writeAudit(db, { actorType: "user", actorId: admin.id, entityType: "user", entityId: user.id, action: "create-user", details: { role: user.role } });
    revalidatePath("/settings");
    return { ok: true, message: `Created ${user.email} (${user.role}).` };
  } catch (err) {
    return errorState(err, formData);
  }
}

const updateUserSchema = z.object({
  userId: z.string().min(1),
  role: roleSchema.optional(),
  disabled: z.enum(["true", "false"]).optional(),
});

export async function updateUser(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const admin = await requireActionUser("admin");
    const parsed = parseForm(updateUserSchema, formData);
    if (!parsed.ok) return parsed.state;
    const { userId, role, disabled } = parsed.data;
    if (userId === admin.id && (role && role !== "admin" || disabled === "true")) {
      throw new UserError("You cannot demote or disable your own account.");
    }
    const db = getDb();
    const before = await db.user.findUnique({ where: { id: userId }, select: { role: true, disabled: true } });
    if (!before) throw new UserError("No such account.");
    const user = await db.user.update({
      where: { id: userId },
      data: {
        ...(role ? { role } : {}),
        ...(disabled ? { disabled: disabled === "true" } : {}),
      },
    });
    // A role change or disabling signs the user out everywhere: the next request meets the new role or none.
    if ((role && role !== before.role) || (disabled && (disabled === "true") !== before.disabled)) await endUserSessions(db, userId);
    await writeAudit(db, { actorType: "user", actorId: admin.id, entityType: "user", entityId: userId, action: "update-user", details: { role, disabled } });
    revalidatePath("/settings");
    return { ok: true, message: `Updated ${user.email}.` };
  } catch (err) {
    return errorState(err, formData);
  }
}
