import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { register } from "@/instrumentation";
import { EXIT_BAD_CONFIG } from "./env";

// Each case starts Node once or twice through tsx: seconds each on a loaded machine.
const PROCESS_TIMEOUT = 120_000;

// A bad variable stops every entry point (CLI commands, the worker, npm start, the Next server) before it does
// anything, with one line per variable on stderr.
const BUDGET_LINE = `accord: ACCORD_BUDGET_CAP_CENTS="abc" is not valid: a whole number of cents ≥ 0 (or unset)\n`;
const MODE_LINE = `accord: ACCORD_MTURK_MODE="prod" is not valid: simulator, sandbox or production (or unset: the choice in Settings)\n`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "accord-config-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Outcome = { code: number | null; stdout: string; stderr: string };

function runNode(script: string, args: string[], bad: Record<string, string>): Promise<Outcome> {
  // A database of its own and a free port, so that a start that wrongly went on would touch nothing shared.
  const env = { ...process.env, DATABASE_URL: `file:${path.join(dir, "never.db")}`, PORT: "3999", ...bad };
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { cwd: process.cwd(), env, timeout: 100_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : null) : 0, stdout, stderr });
    });
  });
}

describe("a bad environment variable stops start-up with one line naming it", () => {
  it("accord agreement: ACCORD_BUDGET_CAP_CENTS=abc", async () => {
    const res = await runNode("scripts/accord.mjs", ["agreement", path.join(dir, "judgments.csv")], { ACCORD_BUDGET_CAP_CENTS: "abc" });
    expect(res).toEqual({ code: EXIT_BAD_CONFIG, stdout: "", stderr: BUDGET_LINE });
  }, PROCESS_TIMEOUT);

  it("accord worker: ACCORD_MTURK_MODE=prod", async () => {
    const res = await runNode("scripts/accord.mjs", ["worker"], { ACCORD_MTURK_MODE: "prod" });
    expect(res).toEqual({ code: EXIT_BAD_CONFIG, stdout: "", stderr: MODE_LINE });
    expect(fs.existsSync(path.join(dir, "never.db"))).toBe(false);
  }, PROCESS_TIMEOUT);

  it("npm start (scripts/start.mjs): both, before migrating or building", async () => {
    const res = await runNode("scripts/start.mjs", [], { ACCORD_BUDGET_CAP_CENTS: "abc", ACCORD_MTURK_MODE: "prod" });
    expect(res).toEqual({ code: EXIT_BAD_CONFIG, stdout: "", stderr: MODE_LINE + BUDGET_LINE });
    expect(fs.existsSync(path.join(dir, "never.db"))).toBe(false);
  }, PROCESS_TIMEOUT);

  it("npm start -- --port abc", async () => {
    const res = await runNode("scripts/start.mjs", ["--port", "abc"], {});
    expect(res).toEqual({ code: EXIT_BAD_CONFIG, stdout: "", stderr: `accord: PORT="abc" is not valid: a whole number from 1 to 65535\n` });
  }, PROCESS_TIMEOUT);
});

describe("the Next server's start (instrumentation.ts register)", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("exits with the one line before starting background work", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("ACCORD_BUDGET_CAP_CENTS", "abc");
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    vi.spyOn(process, "exit").mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    await expect(register()).rejects.toThrow(`exit ${EXIT_BAD_CONFIG}`);
    expect(lines).toEqual([BUDGET_LINE]);
  });
});
