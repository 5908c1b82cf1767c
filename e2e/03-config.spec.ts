import { execFile } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "./env";

// The built server (next start, as npm start runs it) stops at start-up on a bad variable: exit 78 and one
// line per variable on stderr, before it touches the database.
test("next start refuses ACCORD_MTURK_MODE=prod and ACCORD_BUDGET_CAP_CENTS=abc with one line each", async () => {
  const env = {
    ...process.env,
    DATABASE_URL: `file:${path.join(E2E_DATA_DIR, "config-never.db")}`,
    ACCORD_MTURK_MODE: "prod",
    ACCORD_BUDGET_CAP_CENTS: "abc",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  const outcome = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    // Port 0: any free port; the server exits before it answers a request.
    execFile(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", "0", "-H", "127.0.0.1"], { env, timeout: 100_000 }, (err, _stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : null) : 0, stderr });
    });
  });
  expect(outcome).toEqual({
    code: 78,
    stderr:
      `accord: ACCORD_MTURK_MODE="prod" is not valid: simulator, sandbox or production (or unset: the choice in Settings)\n` +
      `accord: ACCORD_BUDGET_CAP_CENTS="abc" is not valid: a whole number of cents ≥ 0 (or unset)\n`,
  });
});
