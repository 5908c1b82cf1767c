import "server-only";
import type { Db } from "@/lib/db/client";
import { crowdCurrencyTable, findCrowd } from "@/lib/crowd/registry";
import { DEFAULT_CURRENCY } from "@/lib/text/format";

/** The currency a crowd pays in, from its descriptor (Prolific: the workspace's as recorded; MTurk, in-house: USD). */
export async function crowdCurrency(db: Db, kind: string): Promise<string> {
  return (await findCrowd(kind)?.currency(db)) ?? DEFAULT_CURRENCY;
}

/** A lookup of each crowd's currency for pages that list several crowds (events, workers): one settings read. */
export async function crowdCurrencies(db: Db): Promise<(kind: string) => string> {
  const table = await crowdCurrencyTable(db);
  return (kind) => table.get(kind) ?? DEFAULT_CURRENCY;
}
