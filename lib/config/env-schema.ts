import { z } from "zod";
import { parseWorkerMix } from "@/lib/crowd/simulator/workers";

/**
 * Every environment variable Accord reads, declared once: its zod schema (from the raw string), the value
 * when unset, what is allowed (for the one-line start-up error) and what it means (README.md, "Configuration").
 * An empty string counts as unset. Adding a variable is one entry here (and one row in the README table).
 */
type Entry<T> = {
  schema: z.ZodType<T, string>;
  /** The value when the variable is unset or empty (undefined: none, the reader decides). */
  fallback: T | undefined;
  /** What is allowed, as the error message says it: "a whole number of cents ≥ 0 (or unset)". */
  allowed: string;
  meaning: string;
  /** Secrets and URLs with passwords are never echoed in error messages. */
  sensitive?: boolean;
};

function entry<T, F extends T | undefined>(schema: z.ZodType<T, string>, fallback: F, doc: Omit<Entry<T>, "schema" | "fallback">) {
  return { schema, fallback, ...doc } as Entry<T> & { fallback: F };
}

// zod's stringbool: true/1/yes/on/y/enabled and false/0/no/off/n/disabled, any case.
const flag = z.stringbool();
const FLAG = "true/false, 1/0, yes/no or on/off";

const wholeNumber = (min: number, max: number) => z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(min).max(max));
const port = wholeNumber(1, 65_535);
const PORT = "a whole number from 1 to 65535";
const httpUrl = z.url({ protocol: /^https?$/ });
const path = z.string();

export const ENV = {
  DATABASE_URL: entry(
    z.string().refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v)),
    "file:./data/accord.db",
    { allowed: "file:PATH (SQLite) or postgres(ql)://… (PostgreSQL)", meaning: "the database", sensitive: true },
  ),
  PORT: entry(port, 3000, { allowed: PORT, meaning: "the web port of npm start" }),
  ACCORD_PUBLIC_URL: entry(httpUrl, undefined, {
    allowed: "an http(s) URL",
    meaning: "the address people open, shown in the demo's sign-in banner (default http://localhost:PORT)",
  }),
  ACCORD_DEMO: entry(flag, false, { allowed: FLAG, meaning: "demo admin, demo data and a faster simulator" }),
  ACCORD_SECRET: entry(z.string().min(32), undefined, {
    allowed: "at least 32 characters (or unset)",
    meaning: "master secret for session cookies and encrypted settings",
    sensitive: true,
  }),
  ACCORD_SECRET_FILE: entry(path, "data/.accord-secret", { allowed: "a file path", meaning: "where the generated secret is kept" }),
  ACCORD_SECURE_COOKIES: entry(flag, false, { allowed: FLAG, meaning: "session cookie only over HTTPS" }),
  ACCORD_BACKGROUND: entry(flag, true, { allowed: FLAG, meaning: "any background work in the web process" }),
  ACCORD_WORKER: entry(flag, true, { allowed: FLAG, meaning: "the job runner and sync loop in the web process (npm start sets it off: its supervised worker runs them)" }),
  ACCORD_WORKER_CONCURRENCY: entry(wholeNumber(1, 16), 2, { allowed: "a whole number from 1 to 16", meaning: "jobs at once per process" }),
  ACCORD_HOST: entry(z.string(), undefined, { allowed: "an address to listen on", meaning: "npm start's listening address (default 127.0.0.1 in demo mode, else all)" }),
  ACCORD_TRUST_PROXY: entry(z.string().regex(/^(off|false|no|[0-9]{1,2})$/i), undefined, {
    allowed: "off or the number of proxies (0–10)",
    meaning: "reverse proxies whose X-Forwarded-For is believed (lib/auth/client-address.ts)",
  }),
  ACCORD_DATA_DIR: entry(path, undefined, { allowed: "a directory path", meaning: "where uploads wait (<dir>/uploads; default ./data)" }),
  ACCORD_UPLOAD_RETENTION_DAYS: entry(wholeNumber(0, 3650), undefined, {
    allowed: "a whole number of days from 0 to 3650 (or unset)",
    meaning: "days an uploaded file is kept after its import last ended (0: deleted at once, no re-runs); unset: a completed import's file is kept for re-runs until the researcher deletes it or its event is deleted",
  }),
  ACCORD_MTURK_MODE: entry(z.enum(["simulator", "sandbox", "production"]), undefined, {
    allowed: "simulator, sandbox or production (or unset: the choice in Settings)",
    meaning: "which MTurk Accord talks to",
  }),
  AWS_ACCESS_KEY_ID: entry(z.string(), undefined, { allowed: "an access key id", meaning: "MTurk requester credentials", sensitive: true }),
  AWS_SECRET_ACCESS_KEY: entry(z.string(), undefined, { allowed: "a secret access key", meaning: "MTurk requester credentials", sensitive: true }),
  ACCORD_BUDGET_CAP_CENTS: entry(wholeNumber(0, Number.MAX_SAFE_INTEGER), undefined, {
    allowed: "a whole number of cents ≥ 0 (or unset)",
    meaning: "the largest worst-case cost of a published batch",
  }),
  ACCORD_SIMULATOR: entry(flag, true, { allowed: FLAG, meaning: "the local MTurk and Prolific simulators inside the server (each when its mode is simulator)" }),
  ACCORD_SIMULATOR_URL: entry(httpUrl, undefined, { allowed: "an http(s) URL", meaning: "where the simulator listens" }),
  ACCORD_SIMULATOR_PORT: entry(port, 9400, { allowed: PORT, meaning: "the simulator's port when ACCORD_SIMULATOR_URL is unset" }),
  ACCORD_SIMULATOR_STATE: entry(path, "data/simulator-state.json", { allowed: "a file path", meaning: "the simulator's saved state" }),
  ACCORD_SIMULATOR_SPEEDUP: entry(z.string().regex(/^\d+(\.\d+)?$/).transform(Number).pipe(z.number().min(1).max(10_000)), undefined, {
    allowed: "a number from 1 to 10000 (or unset: 60 in demo mode, else 1)",
    meaning: "simulated seconds per real second",
  }),
  ACCORD_SIMULATOR_WORKERS: entry(
    z.string().refine((v) => {
      try {
        return Object.keys(parseWorkerMix(v)).length > 0;
      } catch {
        return false;
      }
    }),
    "careful:12,average:10,sloppy:4,spammer-random:2,spammer-constant:2",
    { allowed: "profile:count,… with profiles careful, average, sloppy, spammer-random, spammer-constant, llm-echo (answers as the LLM simulator most of the time)", meaning: "the simulated worker pool" },
  ),
  ACCORD_PROLIFIC_SIMULATOR_URL: entry(httpUrl, undefined, {
    allowed: "an http(s) URL",
    meaning: "where the Prolific simulator listens when Settings names no address (default http://127.0.0.1:9410)",
  }),
  ACCORD_LLM_SIMULATOR_URL: entry(httpUrl, undefined, {
    allowed: "an http(s) URL",
    meaning: "the language model endpoint's base URL when Settings names none: the embedded LLM simulator listens there (default http://127.0.0.1:9420/v1)",
  }),
  ACCORD_CROWD_OUTAGE_FAILURES: entry(wholeNumber(1, 1_000), 3, {
    allowed: "a whole number from 1 to 1000",
    meaning: "failed calls in a row (crowd unreachable or unavailable) after which a crowd is shown as down; its sync then only probes it",
  }),
  ACCORD_CROWD_OUTAGE_PROBE_MS: entry(wholeNumber(100, 600_000), 5_000, { allowed: "milliseconds from 100 to 600000", meaning: "how often a crowd shown as down is probed (one HIT's sync)" }),
  ACCORD_CROWD_CALL_TIMEOUT_MS: entry(wholeNumber(1_000, 600_000), 10_000, { allowed: "milliseconds from 1000 to 600000", meaning: "the longest an MTurk SDK call (connect and each read) may take before it counts as failed" }),
  ACCORD_DEBUG: entry(flag, false, { allowed: FLAG, meaning: "the CLI prints stack traces of unexpected errors" }),
};

export type EnvName = keyof typeof ENV;
type ValueOf<E> = E extends { schema: z.ZodType<infer T, string>; fallback: infer F } ? T | F : never;
export type Config = { readonly [K in EnvName]: ValueOf<(typeof ENV)[K]> };
