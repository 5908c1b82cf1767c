import "server-only";
import { CSV_TEXT_NOTES, type CsvTextMode } from "./csv";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Db } from "@/lib/db/client";
import { readEventSettings } from "@/lib/events/event-settings";
import { listSettingChanges } from "@/lib/events/setting-changes";
import type { ProcedureSettings } from "@/lib/procedure/settings";
import { IMPORT_STATUS, TWEET_ROLE } from "@/lib/db/enums";

/**
 * The procedure manifest of an export: what produced the labels, so a reader can reproduce or audit them — the
 * event's settings, hashes of its gold set and qualification tests, the seeds, Accord's version, and every change
 * of a setting during the campaign with its time and author: the event's creation (with its first settings), each
 * recorded SettingChange of the event (procedure and ingest, old → new), and the global crowd settings' changes; and
 * the source files of its tweets and imported judgments with their SHA-256.
 */
export type ManifestSettingChange = { at: string; by: string; scope: string; key: string; from: unknown; to: unknown; reason: string | null };

export type ManifestSource = { kind: string; fileName: string; format: string | null; sha256: string; rowsStored: number; importedAt: string };

export type ProcedureManifest = {
  accordVersion: string;
  generatedAt: string;
  /** The split seed (HumAID zips); null for CSV exports, which have no split. */
  exportSeed: string | null;
  /** CSV exports: how the text cells were written (formula-protected by default, or raw), with what it means. */
  csvText?: { mode: CsvTextMode; note: string };
  events: Array<{
    slug: string;
    settings: ProcedureSettings;
    goldSha256: string;
    goldTweets: number;
    qualificationTests: Array<{ id: string; createdAt: string; sha256: string }>;
    /** The distinct seeds of the event's HITs (gold positions and packing). */
    hitSeeds: number[];
    /**
     * The files the event's tweets, gold and imported judgments came from (completed imports that stored rows), oldest
     * first, each with the SHA-256 of its bytes: an export of work run on another platform names the export it read.
     */
    sources: ManifestSource[];
    settingChanges: ManifestSettingChange[];
  }>;
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

let version: string | null = null;
/** Accord's version from package.json (read once). */
export function accordVersion(): string {
  if (version === null) {
    try {
      version = String((JSON.parse(readFileSync(path.join(process.cwd(), "package.json"), "utf8")) as { version?: unknown }).version ?? "unknown");
    } catch {
      version = "unknown";
    }
  }
  return version;
}

export async function buildManifest(
  db: Db,
  { eventIds, seed, generatedAt = new Date(), csvText }: { eventIds: string[]; seed: string | null; generatedAt?: Date; csvText?: CsvTextMode },
): Promise<ProcedureManifest> {
  const events = await db.event.findMany({ where: { id: { in: eventIds } }, orderBy: { slug: "asc" }, select: { id: true, slug: true, name: true, settings: true, createdAt: true } });
  const out = await Promise.all(
    events.map(async (e) => {
      const [gold, tests, audits, changes, batches, imports] = await Promise.all([
        db.tweet.findMany({ where: { eventId: e.id, role: TWEET_ROLE.gold }, orderBy: { externalId: "asc" }, select: { externalId: true, goldLabel: true } }),
        db.qualificationTest.findMany({ where: { eventId: e.id }, orderBy: { createdAt: "asc" }, select: { id: true, createdAt: true, questionFormXml: true, answerKeyXml: true } }),
        db.auditLog.findMany({
          where: { OR: [{ eventId: e.id, entityType: "event", action: "create-event" }, { eventId: null, entityType: "settings", at: { gte: e.createdAt } }] },
          orderBy: { at: "asc" },
          select: { at: true, actorType: true, actor: { select: { email: true } }, entityType: true, action: true, reason: true, details: true },
        }),
        listSettingChanges(db, { eventId: e.id }),
        db.hit.findMany({ where: { eventId: e.id }, distinct: ["seed"], orderBy: { seed: "asc" }, select: { seed: true } }),
        db.importBatch.findMany({
          where: { eventId: e.id, status: IMPORT_STATUS.completed, rowsStored: { gt: 0 } },
          orderBy: { createdAt: "asc" },
          select: { kind: true, fileName: true, format: true, fileHash: true, rowsStored: true, finishedAt: true, createdAt: true },
        }),
      ]);
      return {
        slug: e.slug,
        settings: readEventSettings(e),
        goldSha256: sha256(gold.map((g) => `${g.externalId}\t${g.goldLabel ?? ""}`).join("\n")),
        goldTweets: gold.length,
        qualificationTests: tests.map((t) => ({ id: t.id, createdAt: t.createdAt.toISOString(), sha256: sha256(`${t.questionFormXml}\n${t.answerKeyXml}`) })),
        hitSeeds: batches.map((b) => b.seed),
        sources: imports.map((b) => ({ kind: b.kind, fileName: b.fileName, format: b.format, sha256: b.fileHash, rowsStored: b.rowsStored, importedAt: (b.finishedAt ?? b.createdAt).toISOString() })),
        settingChanges: [
          ...audits.map((a): ManifestSettingChange => {
            const created = a.entityType === "event";
            const details = (a.details ?? null) as { settings?: unknown } | null;
            return { at: a.at.toISOString(), by: a.actor?.email ?? a.actorType, scope: created ? "event" : "crowd", key: a.action, from: null, to: created ? (details?.settings ?? null) : details, reason: a.reason };
          }),
          ...changes.map((c): ManifestSettingChange => ({ at: c.at.toISOString(), by: c.by, scope: c.scope, key: c.key, from: c.oldValue ?? null, to: c.newValue ?? null, reason: c.reason })),
        ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)),
      };
    }),
  );
  return { accordVersion: accordVersion(), generatedAt: generatedAt.toISOString(), exportSeed: seed, ...(csvText ? { csvText: { mode: csvText, note: CSV_TEXT_NOTES[csvText] } } : {}), events: out };
}
