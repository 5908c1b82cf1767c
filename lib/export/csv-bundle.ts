import "server-only";
import { strToU8, zipSync } from "fflate";
import type { Db } from "@/lib/db/client";
import { attachmentHeaders, collectText, type CsvTextMode, textStream } from "./csv";
import { buildManifest } from "./manifest";

/**
 * The procedure manifest beside a CSV export. The CSV itself stays a plain CSV (pandas and spreadsheets load it as
 * is, formula cells neutralised), so the manifest travels next to it: in a zip with the CSV for downloads
 * (`?bundle=zip`), as a `FILE.manifest.json` sidecar for the command line.
 */
export const MANIFEST_FILE = "manifest.json";

/** "labels.csv" → "labels.manifest.json" (the CLI's sidecar). */
export function manifestSidecarPath(csvPath: string): string {
  return `${csvPath.replace(/\.csv$/i, "")}.manifest.json`;
}

/** The manifest as the JSON text exports write. */
export async function manifestText(db: Db, eventIds: string[], csvText: CsvTextMode = "formula-protected"): Promise<string> {
  return JSON.stringify(await buildManifest(db, { eventIds, seed: null, csvText }), null, 2) + "\n";
}

/** A zip holding the CSV under its own name and manifest.json. */
export async function csvBundleZip(db: Db, { csvName, chunks, eventIds, csvText }: { csvName: string; chunks: AsyncIterable<string>; eventIds: string[]; csvText?: CsvTextMode }): Promise<Uint8Array> {
  const [csv, manifest] = await Promise.all([collectText(chunks), manifestText(db, eventIds, csvText)]);
  const mtime = new Date();
  return zipSync({ [csvName]: [strToU8(csv), { mtime }], [MANIFEST_FILE]: [strToU8(manifest), { mtime }] }, { level: 6 });
}

/** A CSV download, or with `?bundle=zip` the CSV and its manifest zipped (file name .zip). */
export async function csvDownload(db: Db, { url, fileName, chunks, eventIds, csvText }: { url: URL; fileName: string; chunks: AsyncIterable<string>; eventIds: string[]; csvText?: CsvTextMode }): Promise<Response> {
  if (url.searchParams.get("bundle") === "zip") {
    const zip = await csvBundleZip(db, { csvName: fileName, chunks, eventIds, csvText });
    return new Response(zip as unknown as BodyInit, { headers: attachmentHeaders(fileName.replace(/\.csv$/i, "") + ".zip", "application/zip") });
  }
  return new Response(textStream(chunks), { headers: attachmentHeaders(fileName, "text/csv; charset=utf-8") });
}

/** The events a cross-event export covers: every unarchived event. */
export async function unarchivedEventIds(db: Db): Promise<string[]> {
  return (await db.event.findMany({ where: { archived: false }, select: { id: true } })).map((e) => e.id);
}
