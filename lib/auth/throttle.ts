import "server-only";
import type { Db } from "@/lib/db/client";

/**
 * Slows down password guessing. Failed sign-ins are counted per key: the email tried (`email:…`) and the client's
 * address (`ip:…`). Past a key's free failures, each further failure locks the key for 2^(n - free) seconds, up to
 * 15 minutes; an attempt on a locked key is refused, even with the right password.
 *  - An email has FREE_FAILURES_PER_EMAIL: a person mistyping their own password three times waits a second.
 *  - An address has more, FREE_FAILURES_PER_ADDRESS: it is shared by everyone behind one NAT (a lab, an office),
 *    and by every client when Accord sees no forwarded address ("ip:local"), so a few typos of one person must not
 *    lock the others out. It still stops one address from guessing across many emails.
 *  - A success clears the email's count (not the address's: one valid account must not reset the guessing of
 *    others from the same address).
 *  - A count is forgotten FAILURE_MEMORY_MS after its last failure, so old typos never add up to a lock.
 */
export const FREE_FAILURES_PER_EMAIL = 3;
export const FREE_FAILURES_PER_ADDRESS = 10;
export const FAILURE_MEMORY_MS = 60 * 60 * 1000;
const MAX_LOCK_MS = 15 * 60 * 1000;

function freeFailures(key: string): number {
  return key.startsWith("ip:") ? FREE_FAILURES_PER_ADDRESS : FREE_FAILURES_PER_EMAIL;
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

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.loginThrottle.deleteMany({ where: { key } });
}
