import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { getCrowdCredentials, getCrowdSettings, saveCrowdSettings } from "./settings";

describe.each(testFlavors())("crowd settings from the environment over the stored ones (%s)", (flavor) => {
  let t: TestDb;
  afterEach(async () => {
    vi.unstubAllEnvs();
    await t?.cleanup();
  });

  it("takes the mode, the budget cap, the simulator URL and the credentials from valid variables, else the stored values", async () => {
    t = await createTestDb(flavor);
    for (const name of ["ACCORD_MTURK_MODE", "ACCORD_BUDGET_CAP_CENTS", "ACCORD_SIMULATOR_URL", "ACCORD_SIMULATOR_PORT", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]) {
      vi.stubEnv(name, "");
    }
    await saveCrowdSettings(t.db, { mode: "sandbox", budgetCapCents: 900 });
    expect(await getCrowdSettings(t.db)).toMatchObject({ mode: "sandbox", budgetCapCents: 900, simulatorUrl: "http://127.0.0.1:9400", credentialsSource: "none" });

    vi.stubEnv("ACCORD_MTURK_MODE", "simulator");
    vi.stubEnv("ACCORD_BUDGET_CAP_CENTS", "0");
    vi.stubEnv("ACCORD_SIMULATOR_PORT", "9503");
    vi.stubEnv("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "secret-example");
    expect(await getCrowdSettings(t.db)).toMatchObject({ mode: "simulator", budgetCapCents: 0, simulatorUrl: "http://127.0.0.1:9503", credentialsSource: "environment" });
    expect(await getCrowdCredentials(t.db)).toEqual({ accessKeyId: "AKIAEXAMPLE", secretAccessKey: "secret-example" });
  });

  it("refuses a mistyped mode or budget cap instead of falling back to the simulator or to no cap", async () => {
    t = await createTestDb(flavor);
    await saveCrowdSettings(t.db, { mode: "sandbox", budgetCapCents: 900 });
    vi.stubEnv("ACCORD_MTURK_MODE", "prod");
    await expect(getCrowdSettings(t.db)).rejects.toThrow(`ACCORD_MTURK_MODE="prod" is not valid`);
    vi.stubEnv("ACCORD_MTURK_MODE", "");
    vi.stubEnv("ACCORD_BUDGET_CAP_CENTS", "abc");
    await expect(getCrowdSettings(t.db)).rejects.toThrow(`ACCORD_BUDGET_CAP_CENTS="abc" is not valid`);
  });
});
