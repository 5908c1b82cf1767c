import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import {
  checkThrottle,
  clearedOnSuccess,
  clearFailures,
  FAILURE_MEMORY_MS,
  FREE_FAILURES_PER_ACCOUNT,
  FREE_FAILURES_PER_ADDRESS,
  FREE_FAILURES_PER_EMAIL,
  recordFailure,
  signInThrottleKeys,
} from "./throttle";

const T0 = new Date("2026-06-01T12:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const keysOf = (email: string, address: string, deviceId?: string) => signInThrottleKeys({ email, address, deviceId });

describe.each(testFlavors())("sign-in throttle (%s)", (flavor) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(flavor);
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("locks an account from one address after its free failures for 2^(n - 3) s, up to 15 minutes; a success clears it", async () => {
    const subject = { email: "ada@example.org", address: "198.51.100.1" };
    const keys = signInThrottleKeys(subject);
    for (let i = 1; i < FREE_FAILURES_PER_EMAIL; i++) await recordFailure(t.db, keys, at(0));
    expect(await checkThrottle(t.db, keys, at(0))).toBe(0);
    await recordFailure(t.db, keys, at(0)); // the third: 2^0 s
    expect(await checkThrottle(t.db, keys, at(0))).toBe(1000);
    expect(await checkThrottle(t.db, keys, at(1000))).toBe(0);
    await recordFailure(t.db, keys, at(1000)); // the fourth: 2^1 s
    expect(await checkThrottle(t.db, keys, at(1000))).toBe(2000);
    for (let i = 0; i < 20; i++) await recordFailure(t.db, [keys[0]], at(2000));
    expect(await checkThrottle(t.db, keys, at(2000))).toBe(15 * 60 * 1000);
    await clearFailures(t.db, clearedOnSuccess(subject));
    expect(await checkThrottle(t.db, keys, at(2000))).toBe(0);
  });

  it("failures from another address never lock the admin out: 19 from one attacker, then 30 more from rotating addresses", async () => {
    const admin = "admin@example.org";
    const attacker = keysOf(admin, "203.0.113.9");
    for (let i = 0; i < 19; i++) await recordFailure(t.db, attacker, at(5000));
    expect(await checkThrottle(t.db, attacker, at(5000))).toBeGreaterThan(0); // the attacker waits…
    expect(await checkThrottle(t.db, keysOf(admin, "192.0.2.1"), at(5000))).toBe(0); // …the admin elsewhere does not
    for (let i = 0; i < 30; i++) await recordFailure(t.db, keysOf(admin, `203.0.113.${100 + i}`), at(5000));
    expect(await checkThrottle(t.db, keysOf(admin, "192.0.2.1"), at(5000))).toBe(0);
  });

  it("past the account's cap, unknown browsers wait but a known device of the account does not", async () => {
    const admin = "capped@example.org";
    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT + 10; i++) await recordFailure(t.db, keysOf(admin, `2001:db8::${i.toString(16)}`), at(0));
    expect(await checkThrottle(t.db, keysOf(admin, "192.0.2.1"), at(0))).toBeGreaterThan(0);
    expect(await checkThrottle(t.db, keysOf(admin, "192.0.2.1", "device-of-the-admin"), at(0))).toBe(0);
    // A known device has its own count: three mistakes there make it wait, and nobody else.
    const device = keysOf(admin, "192.0.2.1", "device-of-the-admin");
    for (let i = 0; i < FREE_FAILURES_PER_EMAIL; i++) await recordFailure(t.db, device, at(0));
    expect(await checkThrottle(t.db, device, at(0))).toBe(1000);
    expect(await checkThrottle(t.db, keysOf(admin, "192.0.2.1", "another-device"), at(0))).toBe(0);
  });

  it("an address shared by several people is locked only after more failures than an account", async () => {
    const address = "local";
    // Three people behind one address each mistype their password three times: each of them waits, the others do not.
    for (const who of ["a", "b", "c"]) {
      for (let i = 0; i < FREE_FAILURES_PER_EMAIL; i++) await recordFailure(t.db, keysOf(`${who}@example.org`, address), at(10_000));
      expect(await checkThrottle(t.db, keysOf(`${who}@example.org`, address), at(10_000))).toBe(1000);
    }
    expect(await checkThrottle(t.db, keysOf("d@example.org", address), at(10_000))).toBe(0);
    // Guessing across many emails from one address is still slowed down.
    for (let i = 3 * FREE_FAILURES_PER_EMAIL; i < FREE_FAILURES_PER_ADDRESS; i++) await recordFailure(t.db, keysOf(`guess${i}@example.org`, address), at(10_000));
    expect(await checkThrottle(t.db, keysOf("e@example.org", address), at(10_000))).toBe(1000);
  });

  it("forgets a count an hour after its last failure", async () => {
    const keys = keysOf("old@example.org", "198.51.100.50");
    for (let i = 0; i < FREE_FAILURES_PER_EMAIL - 1; i++) await recordFailure(t.db, keys, at(0));
    // Long after, one more typo does not lock: the old ones are forgotten.
    await recordFailure(t.db, keys, at(FAILURE_MEMORY_MS + 1));
    expect(await checkThrottle(t.db, keys, at(FAILURE_MEMORY_MS + 1))).toBe(0);
    // Within the memory, they add up as before.
    for (let i = 0; i < FREE_FAILURES_PER_EMAIL - 1; i++) await recordFailure(t.db, keys, at(FAILURE_MEMORY_MS + 2));
    expect(await checkThrottle(t.db, keys, at(FAILURE_MEMORY_MS + 2))).toBe(1000);
  });
});
