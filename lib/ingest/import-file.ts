import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs";

/** ImportBatch.activeKey while an import of this file for this event is queued or running (a re-run included). */
export function importActiveKey(eventId: string, fileHash: string): string {
  return `${eventId}:${fileHash}`;
}

/** The file's sha256, read in 1 MB chunks: an import's identity (importing the same file twice adds nothing). */
export async function sha256File(filePath: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(filePath, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The file an import reads, from its job's payload (null when unknown). */
export function importFilePathOf(payload: unknown): string | null {
  const p = payload as { filePath?: unknown } | null;
  return p && typeof p.filePath === "string" && p.filePath ? p.filePath : null;
}
