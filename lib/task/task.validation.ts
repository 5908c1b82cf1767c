import { z } from "zod";

// The task page's forms (the in-house crowd): each names what it acts on; the answers are read by lib/task/hit-content.ts.

const id = (what: string) => z.string().trim().min(1, `The ${what} is missing.`).max(200);

export const acceptTaskSchema = z.object({ hitId: id("HIT") });
export const assignmentTaskSchema = z.object({ assignmentId: id("assignment") });
export const qualificationTestSchema = z.object({ qualificationTypeId: id("qualification test") });
