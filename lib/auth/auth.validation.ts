import { z } from "zod";
import { roleSchema } from "./roles";

// Shared by the forms (field hints) and the server actions (validation).
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "Enter your email address.")
  .max(254, "That email address is too long.")
  .pipe(z.email("Enter a valid email address, like name@example.org."));

export const PASSWORD_MIN = 10;
export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters for the password.`)
  .max(200, "Use at most 200 characters for the password.");

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, "Enter your password.").max(200, "That password is too long."),
  next: z.string().optional(),
});

export const setupSchema = z.object({
  name: z.string().trim().min(1, "Enter your name.").max(100),
  email: emailSchema,
  password: newPasswordSchema,
});

export const createUserSchema = z.object({
  name: z.string().trim().min(1, "Enter a name.").max(100),
  email: emailSchema,
  password: newPasswordSchema,
  role: roleSchema,
});

export const updateUserSchema = z.object({
  userId: z.string().min(1),
  role: roleSchema.optional(),
  disabled: z.enum(["true", "false"]).optional(),
});

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password.").max(200, "That password is too long."),
    newPassword: newPasswordSchema,
  })
  .refine((v) => v.newPassword !== v.currentPassword, { path: ["newPassword"], message: "Choose a password different from the current one." });
