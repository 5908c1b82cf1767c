import "server-only";
import type { Db } from "@/lib/db/client";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { getProlificCurrency } from "@/lib/crowd/prolific/currency";
import { DEFAULT_CURRENCY } from "@/lib/text/format";

/** The currency a crowd pays in: Prolific's workspace currency (as recorded), USD for MTurk and the in-house crowd. */
export async function crowdCurrency(db: Db, kind: string): Promise<string> {
  return kind === PROVIDER_KIND.prolific ? getProlificCurrency(db) : DEFAULT_CURRENCY;
}

/** A lookup of each crowd's currency for pages that list several crowds (events, workers): one settings read. */
export async function crowdCurrencies(db: Db): Promise<(kind: string) => string> {
  const prolific = await getProlificCurrency(db);
  return (kind) => (kind === PROVIDER_KIND.prolific ? prolific : DEFAULT_CURRENCY);
}
