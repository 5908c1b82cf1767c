import "server-only";
import type { Db } from "@/lib/db/client";
import { ensureHumaidScheme } from "@/lib/labels/schemes";

/** A test event on the HumAID scheme, named by its slug, with the given ingest filters (default: none). */
export async function createHumaidEvent(db: Db, slug: string, { type = "hurricane", filters = {} }: { type?: string; filters?: object } = {}) {
  const schemeId = await ensureHumaidScheme(db);
  return db.event.create({ data: { slug, name: slug, type, schemeId, settings: {}, filters, locations: [] } });
}
