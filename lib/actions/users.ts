"use server";

import { revalidatePath } from "next/cache";
import { createUserSchema, updateUserSchema } from "@/lib/auth/auth.validation";
import { createUserAccount, updateUserAccount } from "@/lib/auth/users";
import { getDb } from "@/lib/db/client";
import { formAction } from "./define-action";

export const createUser = formAction({ access: "admin", input: createUserSchema }, async ({ user: admin, input }) => {
  const user = await createUserAccount(getDb(), { ...input, actorId: admin.id });
  revalidatePath("/settings");
  return { ok: true, message: `Created ${user.email} (${user.role}).` };
});

export const updateUser = formAction({ access: "admin", input: updateUserSchema }, async ({ user: admin, input: { userId, role, disabled } }) => {
  const user = await updateUserAccount(getDb(), { userId, role, disabled: disabled === undefined ? undefined : disabled === "true", actorId: admin.id });
  revalidatePath("/settings");
  return { ok: true, message: `Updated ${user.email}.` };
});
