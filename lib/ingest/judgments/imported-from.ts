import "server-only";
import type { Db } from "@/lib/db/client";
import { IMPORT_STATUS, JUDGMENTS_IMPORT_KIND } from "@/lib/db/enums";
import { FORMAT_NAMES, JUDGMENT_FORMATS, type JudgmentFormat } from "./mapping";
import { IMPORTED_HIT_PROVIDER } from "./store-judgments";
import { formatInt } from "@/lib/text/format";

/**
 * The Overview's sentence for an event whose work came from other platforms ("Imported from CrowdFlower … full
 * report sandy.csv: 7,107 judgments."), and whether it has HITs of its own (then the live status is shown too).
 */
export async function importedFrom(db: Db, eventId: string): Promise<{ text: string; ownHits: boolean } | null> {
  const batches = await db.importBatch.findMany({
    where: { eventId, kind: JUDGMENTS_IMPORT_KIND, status: IMPORT_STATUS.completed, rowsStored: { gt: 0 } },
    orderBy: { createdAt: "asc" },
    select: { fileName: true, format: true, rowsStored: true },
  });
  if (batches.length === 0) return null;
  const ownHits = (await db.hit.count({ where: { eventId, provider: { not: IMPORTED_HIT_PROVIDER } } })) > 0;
  const parts = batches.map((b) => {
    const name = (JUDGMENT_FORMATS as readonly string[]).includes(b.format ?? "") ? FORMAT_NAMES[b.format as JudgmentFormat] : "a judgment file";
    return `${name} ${b.fileName} (${formatInt(b.rowsStored)} judgments)`;
  });
  return { text: `Imported from ${parts.join("; ")}.`, ownHits };
}
