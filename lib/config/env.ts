import { type Config, ENV, type EnvName } from "./env-schema";

export type { Config } from "./env-schema";
export type EnvSource = Readonly<Record<string, string | undefined>>;

/** Exit status of a process stopped by a bad environment variable (sysexits' EX_CONFIG); npm start knows it. */
export const EXIT_BAD_CONFIG = 78;

const NAMES = Object.keys(ENV) as EnvName[];

function describe(name: EnvName, raw: string): string {
  const { allowed, sensitive } = ENV[name];
  const shown = sensitive ? ` (${raw.length} characters, not shown)` : `=${JSON.stringify(raw)}`;
  return `${name}${shown} is not valid: ${allowed}`;
}

function check(source: EnvSource): { config: Config; problems: string[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const name of NAMES) {
    const raw = source[name];
    const { schema, fallback } = ENV[name];
    if (raw === undefined || raw === "") {
      values[name] = fallback;
      continue;
    }
    const parsed = schema.safeParse(raw);
    if (parsed.success) values[name] = parsed.data;
    else problems.push(describe(name, raw));
  }
  return { config: values as Config, problems };
}

/** One line per invalid variable, e.g. `ACCORD_BUDGET_CAP_CENTS="abc" is not valid: a whole number of cents ≥ 0 (or unset)`. */
export function envProblems(source: EnvSource = process.env): string[] {
  return check(source).problems;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
    this.name = "ConfigError";
  }
}

/** The validated configuration of `source`; throws ConfigError naming every invalid variable. */
export function parseEnv(source: EnvSource): Config {
  const { config, problems } = check(source);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

let cached: { key: string; config: Config } | null = null;

/**
 * This process's configuration: the only reader of process.env for Accord's own variables. Parsed again
 * only when one of them changed (tests and benchmarks set process.env at run time).
 */
export function env(): Config {
  if (typeof window !== "undefined") throw new Error("Accord's configuration is read on the server only");
  const key = NAMES.map((n) => process.env[n] ?? "").join("\0");
  if (cached?.key !== key) cached = { key, config: parseEnv(process.env) };
  return cached.config;
}

/** Start-up check of the server, the worker and every CLI command: prints `accord: <problem>` lines; false when any. */
export function checkEnvAtStartup(write: (line: string) => void = (line) => process.stderr.write(line)): boolean {
  const problems = envProblems();
  for (const problem of problems) write(`accord: ${problem}\n`);
  return problems.length === 0;
}
