import fs from "node:fs";
import path from "node:path";
import { E2E_DATA_DIR } from "./env";
import { e2eDb } from "./seed";

/**
 * What a failed wait in e2e/22-prolific.spec.ts adds to its error, so a CI log says where the loop stopped: the
 * event's HITs as Accord holds them, its decisions, each Prolific study's submissions by status (the embedded
 * simulator's state file) and the server's own log lines.
 */
export async function prolificDiagnosis(eventId: string): Promise<string> {
  const db = e2eDb();
  const lines: string[] = [];
  const hits = await db.hit.findMany({ where: { eventId }, select: { seq: true, status: true, providerHitId: true, lastSyncedAt: true, syncError: true, _count: { select: { assignments: true } } } });
  for (const h of hits) lines.push(`HIT #${h.seq} ${h.status} ${h.providerHitId ?? "-"}: ${h._count.assignments} assignments, synced ${h.lastSyncedAt?.toISOString() ?? "never"}${h.syncError ? `, error: ${h.syncError}` : ""}`);
  lines.push(`decisions: ${await db.assignment.count({ where: { hit: { eventId }, decision: { not: null } } })}`);
  const outages = await db.setting.findMany({ where: { key: { startsWith: "sync.outage." } }, select: { key: true, value: true } });
  for (const o of outages) lines.push(`${o.key}: ${JSON.stringify(o.value)}`);
  const stateFile = path.join(E2E_DATA_DIR, "prolific-simulator-state.json");
  if (fs.existsSync(stateFile)) {
    const state = JSON.parse(fs.readFileSync(stateFile, "utf8")) as {
      studies: Record<string, { id: string; internal_name: string; status: string; total_available_places: number }>;
      submissions: Record<string, { study_id: string; status: string }>;
    };
    for (const s of Object.values(state.studies)) {
      const counts: Record<string, number> = {};
      for (const sub of Object.values(state.submissions)) if (sub.study_id === s.id) counts[sub.status] = (counts[sub.status] ?? 0) + 1;
      lines.push(`study ${s.internal_name} ${s.status}, ${s.total_available_places} places: ${JSON.stringify(counts)}`);
    }
  }
  const log = path.join(E2E_DATA_DIR, "server.log");
  if (fs.existsSync(log)) lines.push(...fs.readFileSync(log, "utf8").split("\n").filter((l) => l.startsWith("[accord]")).slice(-30));
  return lines.join("\n");
}
