import "server-only";
import type { Db } from "@/lib/db/client";

/**
 * Slows down password guessing without letting anyone lock out someone else. Failed sign-ins are counted per key;
 * past a key's free failures each further failure locks the key for 2^(n - free) seconds, up to 15 minutes, and an
 * attempt on a locked key is refused (not counted), even with the right password. Keys (signInThrottleKeys):
 *  - `email:E|ip:A` — the account from one address: a typist waits a second after three mistakes, and an attacker's
 *    failures lock only the attacker's address for that account.
 *  - `ip:A` — one address across accounts: more free failures, as a lab or office shares one address.
 *  - `email:E` — the cap per account over all addresses (a guesser rotating addresses), with many free failures.
 *  - `email:E|device:D` — instead of all three, for a browser that signed in to the account before (a signed device
 *    cookie, lib/auth/known-device.ts): failures elsewhere, even past the cap, never block it.
 * A success clears the account+address and device counts, never the address's or the account cap's, so a valid
 * sign-in does not reset anyone's guessing. A count is forgotten FAILURE_MEMORY_MS after its last failure.
 */
export const FREE_FAILURES_PER_EMAIL = 3;
export const FREE_FAILURES_PER_ADDRESS = 10;
export const FREE_FAILURES_PER_ACCOUNT = 50;
export const FAILURE_MEMORY_MS = 60 * 60 * 1000;
const MAX_LOCK_MS = 15 * 60 * 1000;

export type ThrottleSubject = { email: string; address: string; deviceId?: string | null };

export function signInThrottleKeys({ email, address, deviceId }: ThrottleSubject): string[] {
  if (deviceId) return [`email:${email}|device:${deviceId}`];
  return [`email:${email}|ip:${address}`, `ip:${address}`, `email:${email}`];
}

/** The keys a successful sign-in clears. */
export function clearedOnSuccess({ email, address, deviceId }: ThrottleSubject): string[] {
  return [`email:${email}|ip:${address}`, ...(deviceId ? [`email:${email}|device:${deviceId}`] : [])];
}

function freeFailures(key: string): number {
  if (key.startsWith("ip:")) return FREE_FAILURES_PER_ADDRESS;
  return key.includes("|") ? FREE_FAILURES_PER_EMAIL : FREE_FAILURES_PER_ACCOUNT;
}

/** How long the keys are still locked, in ms (0: not locked). */
export async function checkThrottle(db: Db, keys: string[], now = new Date()): Promise<number> {
  const rows = await db.loginThrottle.findMany({ where: { key: { in: keys } } });
  let waitMs = 0;
  for (const r of rows) {
    if (r.lockedUntil && r.lockedUntil > now) waitMs = Math.max(waitMs, r.lockedUntil.getTime() - now.getTime());
  }
  return waitMs;
}

export async function recordFailure(db: Db, keys: string[], now = new Date()): Promise<void> {
  for (const key of keys) {
    // A count whose last failure is older than the memory starts again (two statements, each atomic: concurrent
    // failures are all counted).
    await db.loginThrottle.updateMany({ where: { key, lastFailure: { lt: new Date(now.getTime() - FAILURE_MEMORY_MS) } }, data: { failures: 0, lockedUntil: null } });
    const row = await db.loginThrottle.upsert({
      where: { key },
      create: { key, failures: 1, lastFailure: now },
      update: { failures: { increment: 1 }, lastFailure: now },
    });
    const free = freeFailures(key);
    if (row.failures >= free) {
      const lockMs = Math.min(MAX_LOCK_MS, 1000 * 2 ** (row.failures - free));
      await db.loginThrottle.update({ where: { key }, data: { lockedUntil: new Date(now.getTime() + lockMs) } });
    }
  }
}

export async function clearFailures(db: Db, keys: string[]): Promise<void> {
  await db.loginThrottle.deleteMany({ where: { key: { in: keys } } });
}
