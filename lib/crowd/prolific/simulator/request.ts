import type { z } from "zod";
import { badRequest } from "./sim-error";

/** Ids are 24 hex characters (shaped like Mongo ObjectIds); any other path segment is part of the endpoint's name. */
export const isId = (segment: string) => /^[0-9a-f]{24}$/.test(segment);

/** A request body checked with zod; a failure is Prolific's 400 with `detail` as field → messages. */
export function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  const detail: Record<string, string[]> = {};
  for (const issue of r.error.issues) (detail[issue.path.join(".") || "body"] ??= []).push(issue.message);
  throw badRequest(detail);
}
