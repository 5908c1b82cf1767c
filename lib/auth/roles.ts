import { z } from "zod";

export const ROLES = ["admin", "researcher", "viewer", "annotator"] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/**
 * What each role may do. Staff roles are ordered (admin ⊃ researcher ⊃ viewer); annotators only work on
 * the task page.
 */
const STAFF_RANK: Record<Role, number> = { admin: 3, researcher: 2, viewer: 1, annotator: 0 };

/** "account": any signed-in user (their own account page). */
export type Access = "view" | "edit" | "admin" | "annotate" | "account";

export function roleAllows(role: string, access: Access): boolean {
  const r = roleSchema.safeParse(role);
  if (!r.success) return false;
  if (access === "account") return true;
  if (access === "annotate") return r.data === "annotator" || r.data === "admin";
  const needed = access === "admin" ? 3 : access === "edit" ? 2 : 1;
  return STAFF_RANK[r.data] >= needed;
}

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: "everything, including accounts, credentials and budget",
  researcher: "create events, upload, publish, decide, export",
  viewer: "read-only access to events, workers and exports",
  annotator: "works on HITs on Accord's own task page (in-house crowd)",
};
