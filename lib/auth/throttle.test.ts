import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { checkThrottle, clearFailures, FAILURE_MEMORY_MS, FREE_FAILURES_PER_ADDRESS, FREE_FAILURES_PER_EMAIL, recordFailure } from "./throttle";

const T0 = new Date("2026-06-01T12:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

describe.each(testFlavors())("sign-in throttle (%s)", (flavor) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(flavor);
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("locks an email after its free failures for 2^(n - 3) s, up to 15 minutes; a success clears it", async () => {
    const keys = ["email:ada@example.org", "ip:198.51.100.1"];
    for (let i = 1; i < FREE_FAILURES_PER_EMAIL; i++) await recordFailure(t.db, keys, at(0));
    expect(await checkThrottle(t.db, keys, at(0))).toBe(0);
    await recordFailure(t.db, keys, at(0)); // the third: 2^0 s
    expect(await checkThrottle(t.db, keys, at(0))).toBe(1000);
    expect(await checkThrottle(t.db, keys, at(1000))).toBe(0);
    await recordFailure(t.db, keys, at(1000)); // the fourth: 2^1 s
    expect(await checkThrottle(t.db, keys, at(1000))).toBe(2000);
    for (let i = 0; i < 20; i++) await recordFailure(t.db, ["email:ada@example.org"], at(2000));
    expect(await checkThrottle(t.db, ["email:ada@example.org"], at(2000))).toBe(15 * 60 * 1000);
    await clearFailures(t.db, "email:ada@example.org");
    expect(await checkThrottle(t.db, ["email:ada@example.org"], at(2000))).toBe(0);
  });

  it("an address shared by several people is locked only after more failures than an email", async () => {
    const address = "ip:local";
    // Three people behind one address each mistype their password three times: each of them waits, the others do not.
    for (const who of ["a", "b", "c"]) {
      for (let i = 0; i < FREE_FAILURES_PER_EMAIL; i++) await recordFailure(t.db, [`email:${who}@example.org`, address], at(10_000));
      expect(await checkThrottle(t.db, [`email:${who}@example.org`, address], at(10_000))).toBe(1000);
    }
    expect(await checkThrottle(t.db, ["email:d@example.org", address], at(10_000))).toBe(0);
    // Guessing across many emails from one address is still slowed down.
    for (let i = 3 * FREE_FAILURES_PER_EMAIL; i < FREE_FAILURES_PER_ADDRESS; i++) await recordFailure(t.db, [`email:guess${i}@example.org`, address], at(10_000));
    expect(await checkThrottle(t.db, ["email:e@example.org", address], at(10_000))).toBe(1000);
  });

  it("forgets a count an hour after its last failure", async () => {
    const keys = ["email:old@example.org"];
    for (let i = 0; i < FREE_FAILURES_PER_EMAIL - 1; i++) await recordFailure(t.db, keys, at(0));
    // Long after, one more typo does not lock: the old ones are forgotten.
    await recordFailure(t.db, keys, at(FAILURE_MEMORY_MS + 1));
    expect(await checkThrottle(t.db, keys, at(FAILURE_MEMORY_MS + 1))).toBe(0);
    // Within the memory, they add up as before.
    for (let i = 0; i < FREE_FAILURES_PER_EMAIL - 1; i++) await recordFailure(t.db, keys, at(FAILURE_MEMORY_MS + 2));
    expect(await checkThrottle(t.db, keys, at(FAILURE_MEMORY_MS + 2))).toBe(1000);
  });
});
