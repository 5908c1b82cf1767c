import type { Db } from "@/lib/db/client";

/**
 * Slows down password guessing: after FREE_FAILURES failed sign-ins for a key (the email, and the client
 * address), each further attempt must wait 2^(n - FREE_FAILURES) seconds, up to 15 minutes. A success
 * clears the email's counter.
 */
export const FREE_FAILURES = 3;
const MAX_LOCK_MS = 15 * 60 * 1000;

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
    const row = await db.loginThrottle.upsert({
      where: { key },
      create: { key, failures: 1, lastFailure: now },
      update: { failures: { increment: 1 }, lastFailure: now },
    });
    if (row.failures >= FREE_FAILURES) {
      const lockMs = Math.min(MAX_LOCK_MS, 1000 * 2 ** (row.failures - FREE_FAILURES));
      await db.loginThrottle.update({ where: { key }, data: { lockedUntil: new Date(now.getTime() + lockMs) } });
    }
  }
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.loginThrottle.deleteMany({ where: { key } });
}
