import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError, env, envProblems, parseEnv } from "./env";

const problem = (name: string, value: string) => envProblems({ [name]: value });

describe("the configuration schema", () => {
  it("is all defaults on an empty environment", () => {
    const config = parseEnv({});
    expect(config.DATABASE_URL).toBe("file:./data/accord.db");
    expect(config.PORT).toBe(3000);
    expect(config.ACCORD_SIMULATOR_PORT).toBe(9400);
    expect(config.ACCORD_BUDGET_CAP_CENTS).toBeUndefined();
    expect(config.ACCORD_MTURK_MODE).toBeUndefined();
    expect(config.ACCORD_WORKER).toBe(true);
    expect(config.ACCORD_DEMO).toBe(false);
    expect(config.ACCORD_WORKER_CONCURRENCY).toBe(2);
  });

  it("takes the budget cap as a whole number of cents ≥ 0 and refuses anything else", () => {
    expect(parseEnv({ ACCORD_BUDGET_CAP_CENTS: "12500" }).ACCORD_BUDGET_CAP_CENTS).toBe(12_500);
    expect(parseEnv({ ACCORD_BUDGET_CAP_CENTS: "0" }).ACCORD_BUDGET_CAP_CENTS).toBe(0);
    expect(parseEnv({ ACCORD_BUDGET_CAP_CENTS: "" }).ACCORD_BUDGET_CAP_CENTS).toBeUndefined();
    expect(problem("ACCORD_BUDGET_CAP_CENTS", "abc")).toEqual([`ACCORD_BUDGET_CAP_CENTS="abc" is not valid: a whole number of cents ≥ 0 (or unset)`]);
    for (const bad of ["-1", "1.5", "1e3", " 5", "99999999999999999999"]) {
      expect(problem("ACCORD_BUDGET_CAP_CENTS", bad), bad).toEqual([`ACCORD_BUDGET_CAP_CENTS=${JSON.stringify(bad)} is not valid: a whole number of cents ≥ 0 (or unset)`]);
    }
  });

  it("takes the MTurk mode among simulator, sandbox and production only", () => {
    expect(parseEnv({ ACCORD_MTURK_MODE: "production" }).ACCORD_MTURK_MODE).toBe("production");
    expect(parseEnv({ ACCORD_MTURK_MODE: "sandbox" }).ACCORD_MTURK_MODE).toBe("sandbox");
    expect(parseEnv({ ACCORD_MTURK_MODE: "simulator" }).ACCORD_MTURK_MODE).toBe("simulator");
    expect(parseEnv({}).ACCORD_MTURK_MODE).toBeUndefined();
    const allowed = "simulator, sandbox or production (or unset: the choice in Settings)";
    expect(problem("ACCORD_MTURK_MODE", "prod")).toEqual([`ACCORD_MTURK_MODE="prod" is not valid: ${allowed}`]);
    expect(problem("ACCORD_MTURK_MODE", "Production")).toEqual([`ACCORD_MTURK_MODE="Production" is not valid: ${allowed}`]);
  });

  it("reads switches as booleans and refuses other words", () => {
    for (const on of ["1", "true", "TRUE", "yes", "on"]) expect(parseEnv({ ACCORD_SECURE_COOKIES: on }).ACCORD_SECURE_COOKIES, on).toBe(true);
    for (const off of ["0", "false", "no", "off"]) expect(parseEnv({ ACCORD_WORKER: off }).ACCORD_WORKER, off).toBe(false);
    expect(problem("ACCORD_DEMO", "maybe")).toEqual([`ACCORD_DEMO="maybe" is not valid: true/false, 1/0, yes/no or on/off`]);
  });

  it("takes ports from 1 to 65535", () => {
    expect(parseEnv({ PORT: "4000", ACCORD_SIMULATOR_PORT: "9503" })).toMatchObject({ PORT: 4000, ACCORD_SIMULATOR_PORT: 9503 });
    for (const bad of ["0", "65536", "80a", "-80"]) expect(problem("ACCORD_SIMULATOR_PORT", bad), bad).toHaveLength(1);
    expect(problem("PORT", "http")).toEqual([`PORT="http" is not valid: a whole number from 1 to 65535`]);
  });

  it("checks URLs, the database URL, the secret's length and the worker mix", () => {
    expect(parseEnv({ ACCORD_SIMULATOR_URL: "http://127.0.0.1:9503" }).ACCORD_SIMULATOR_URL).toBe("http://127.0.0.1:9503");
    expect(problem("ACCORD_PUBLIC_URL", "localhost:3000")).toHaveLength(1);
    expect(problem("ACCORD_SIMULATOR_URL", "ftp://example.org")).toHaveLength(1);
    expect(parseEnv({ DATABASE_URL: "postgresql://u@h:5432/db" }).DATABASE_URL).toBe("postgresql://u@h:5432/db");
    expect(parseEnv({ ACCORD_SIMULATOR_WORKERS: "careful:3,sloppy:1" }).ACCORD_SIMULATOR_WORKERS).toBe("careful:3,sloppy:1");
    expect(problem("ACCORD_SIMULATOR_WORKERS", "careful:3,lazy:2")).toHaveLength(1);
    expect(problem("ACCORD_WORKER_CONCURRENCY", "17")).toHaveLength(1);
    expect(parseEnv({ ACCORD_SIMULATOR_SPEEDUP: "2.5" }).ACCORD_SIMULATOR_SPEEDUP).toBe(2.5);
  });

  it("never echoes a secret or a database URL (it may hold a password)", () => {
    expect(problem("ACCORD_SECRET", "short-secret")).toEqual(["ACCORD_SECRET (12 characters, not shown) is not valid: at least 32 characters (or unset)"]);
    const [line] = problem("DATABASE_URL", "mysql://root:hunter2@db/accord");
    expect(line).toMatch(/^DATABASE_URL \(\d+ characters, not shown\) is not valid: /);
    expect(line).not.toContain("hunter2");
  });

  it("names every invalid variable, one line each", () => {
    const source = { ACCORD_BUDGET_CAP_CENTS: "abc", ACCORD_MTURK_MODE: "prod", PORT: "3000" };
    expect(envProblems(source)).toEqual([
      `ACCORD_MTURK_MODE="prod" is not valid: simulator, sandbox or production (or unset: the choice in Settings)`,
      `ACCORD_BUDGET_CAP_CENTS="abc" is not valid: a whole number of cents ≥ 0 (or unset)`,
    ]);
    expect(() => parseEnv(source)).toThrow(ConfigError);
  });
});

describe("env()", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("reads process.env again when a variable changes", () => {
    vi.stubEnv("ACCORD_BUDGET_CAP_CENTS", "100");
    expect(env().ACCORD_BUDGET_CAP_CENTS).toBe(100);
    vi.stubEnv("ACCORD_BUDGET_CAP_CENTS", "250");
    expect(env().ACCORD_BUDGET_CAP_CENTS).toBe(250);
    vi.stubEnv("ACCORD_BUDGET_CAP_CENTS", "abc");
    expect(() => env()).toThrow(`ACCORD_BUDGET_CAP_CENTS="abc" is not valid`);
  });
});
