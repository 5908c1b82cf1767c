import "server-only";
import { Prisma } from "@/generated/sqlite/client";
import type { Db } from "@/lib/db/client";
import { DEFAULT_CURRENCY } from "@/lib/text/format";
import { num } from "@/lib/db/sql";
import { crowdCurrencyTable } from "@/lib/crowd/registry";

/**
 * The ledger summed per currency: an entry is in its HIT's batch currency (recorded when the batch was created), and
 * an entry without one (a batch older than the column, a HIT of a fixture) in its event crowd's currency today.
 */
export type LedgerFilter = { eventId?: string; eventIds?: string[]; workerIds?: string[]; kinds?: string[] };
export type LedgerTotal = { key: string | null; currency: string; minor: number };

/** A batch's currency, else its crowd's today (`currencyOf`, see crowdCurrencies). */
export function batchCurrency(batch: { currency: string | null } | null | undefined, provider: string, currencyOf: (kind: string) => string): string {
  return batch?.currency ?? currencyOf(provider);
}

/** The ledger `c` with what its currency is read from: its event `e`, HIT `h` and batch `hb`. */
export const LEDGER_FROM = Prisma.sql`"CostEntry" c JOIN "Event" e ON e."id" = c."eventId" LEFT JOIN "Hit" h ON h."id" = c."hitId" LEFT JOIN "HitBatch" hb ON hb."id" = h."batchId"`;

/** SQL for the currency of a ledger entry over LEDGER_FROM: its batch's, else its event crowd's now (`currencies`, crowdCurrencyTable). */
export function entryCurrency(currencies: ReadonlyMap<string, string>): Prisma.Sql {
  const cases = [...currencies].map(([kind, currency]) => Prisma.sql`WHEN ${kind} THEN CAST(${currency} AS TEXT)`);
  if (cases.length === 0) return Prisma.sql`COALESCE(hb."currency", CAST(${DEFAULT_CURRENCY} AS TEXT))`;
  return Prisma.sql`COALESCE(hb."currency", CASE e."provider" ${Prisma.join(cases, " ")} ELSE CAST(${DEFAULT_CURRENCY} AS TEXT) END)`;
}

/** Sums of the ledger per currency, grouped by event or worker (`key`; null when `by` is not given). */
export async function ledgerByCurrency(db: Db, filter: LedgerFilter = {}, by?: "eventId" | "workerId"): Promise<LedgerTotal[]> {
  const currencies = await crowdCurrencyTable(db);
  const conditions: Prisma.Sql[] = [];
  if (filter.eventId !== undefined) conditions.push(Prisma.sql`c."eventId" = ${filter.eventId}`);
  if (filter.eventIds) conditions.push(filter.eventIds.length ? Prisma.sql`c."eventId" IN (${Prisma.join(filter.eventIds)})` : Prisma.sql`1 = 0`);
  if (filter.workerIds) conditions.push(filter.workerIds.length ? Prisma.sql`c."workerId" IN (${Prisma.join(filter.workerIds)})` : Prisma.sql`1 = 0`);
  if (filter.kinds) conditions.push(Prisma.sql`c."kind" IN (${Prisma.join(filter.kinds)})`);
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
  const key = by === "workerId" ? Prisma.sql`c."workerId"` : by === "eventId" ? Prisma.sql`c."eventId"` : Prisma.sql`NULL`;
  const rows = await db.$queryRaw<Array<{ key: string | null; currency: string; minor: unknown }>>`
    SELECT ${key} AS "key", ${entryCurrency(currencies)} AS "currency", SUM(c."amountCents") AS "minor" FROM ${LEDGER_FROM} ${where} GROUP BY 1, 2`;
  return rows.map((r) => ({ key: r.key, currency: r.currency, minor: num(r.minor) }));
}
