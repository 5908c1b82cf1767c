import { z } from "zod";

/**
 * Server configuration from the environment (documented in README.md, "Configuration").
 * Read once; invalid values stop the server with a message naming the variable.
 */
const boolish = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

const envSchema = z.object({
  ACCORD_DEMO: boolish.default(false),
  ACCORD_WORKER: z.enum(["on", "off"]).default("on"),
  ACCORD_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Run the local MTurk simulator inside the server when the crowd mode is "simulator". */
  ACCORD_SIMULATOR: z.enum(["on", "off"]).default("on"),
  ACCORD_SIMULATOR_SPEEDUP: z.coerce.number().min(1).max(10_000).optional(),
  ACCORD_SIMULATOR_WORKERS: z.string().default("careful:12,average:10,sloppy:4,spammer-random:2,spammer-constant:2"),
});

export type ServerConfig = z.infer<typeof envSchema>;

let cached: ServerConfig | null = null;

export function serverConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  if (cached && env === process.env) return cached;
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid environment variable ${String(issue.path[0])}: ${issue.message}`);
  }
  if (env === process.env) cached = parsed.data;
  return parsed.data;
}
