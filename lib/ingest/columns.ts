/**
 * Column mapping for delimited files: header names are matched (case-, space- and punctuation-
 * insensitively) against known names for each field, the first listed name winning.
 */
export const ROW_FIELDS = [
  "id",
  "text",
  "label",
  "lang",
  "createdAt",
  "userLocation",
  "placeName",
  "placeCountry",
  "latitude",
  "longitude",
] as const;
export type RowField = (typeof ROW_FIELDS)[number];

export const COLUMN_ALIASES: Record<RowField, readonly string[]> = {
  id: ["tweet_id", "id", "id_str", "tweetid", "status_id"],
  text: ["tweet_text", "text", "full_text", "tweet", "content", "message"],
  label: ["class_label", "label", "gold_label", "class", "category", "information_type"],
  lang: ["lang", "language"],
  createdAt: ["created_at", "tweeted_at", "date", "datetime", "timestamp", "time"],
  userLocation: ["user_location", "location"],
  placeName: ["place_full_name", "place_name", "place"],
  placeCountry: ["place_country", "country", "place_country_code", "country_code"],
  latitude: ["latitude", "lat"],
  longitude: ["longitude", "lon", "lng", "long"],
};

/** "Tweet ID" → "tweet_id", " tweet" → "tweet", "user.location" → "user_location". */
export function normalizeHeader(name: string): string {
  return name
    .trim()
    .replace(/^["']|["']$/g, "")
    .toLowerCase()
    .replace(/[\s.\-/]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** Field → index of its column in the header, for the fields present. */
export type ColumnMap = Partial<Record<RowField, number>>;

export function mapColumns(header: readonly string[]): ColumnMap {
  const normalized = header.map(normalizeHeader);
  const map: ColumnMap = {};
  for (const field of ROW_FIELDS) {
    for (const alias of COLUMN_ALIASES[field]) {
      const index = normalized.indexOf(alias);
      if (index >= 0 && !Object.values(map).includes(index)) {
        map[field] = index;
        break;
      }
    }
  }
  return map;
}

export const HUMAID_TSV_HEADER = ["tweet_id", "tweet_text", "class_label"];
export const CRISISLEX_HEADER = ["tweet_id", "tweet_text", "information_source", "information_type", "informativeness"];

export function isHumaidHeader(header: readonly string[]): boolean {
  const n = header.map(normalizeHeader);
  return n.length === 3 && HUMAID_TSV_HEADER.every((h, i) => n[i] === h);
}

export function isCrisisLexHeader(header: readonly string[]): boolean {
  const n = header.map(normalizeHeader);
  return n.length === CRISISLEX_HEADER.length && CRISISLEX_HEADER.every((h, i) => n[i] === h);
}

/**
 * The researcher's column mapping for delimited files whose header Accord does not recognise (the upload page's
 * column preview, `accord import --columns`): header names for the id and text columns, and optionally the label,
 * date and location columns. Saved per event (ingest settings `columns`) and used for every later upload whose
 * header has the named columns, and for re-runs. For those five fields the mapping is authoritative (a field it
 * leaves out is not read); the other fields (language, place, coordinates) are still recognised by name.
 */
export type UploadColumns = { id: string; text: string; label?: string | null; date?: string | null; location?: string | null };

/** The mapping's keys and the row field each fills. */
export const UPLOAD_COLUMN_FIELDS = { id: "id", text: "text", label: "label", date: "createdAt", location: "userLocation" } as const satisfies Record<keyof UploadColumns, RowField>;
export type UploadColumnKey = keyof typeof UPLOAD_COLUMN_FIELDS;
export const UPLOAD_COLUMN_KEYS = Object.keys(UPLOAD_COLUMN_FIELDS) as UploadColumnKey[];

/** The index of the column named `name` in `header` (compared as normalizeHeader does), or -1. */
export function findColumn(header: readonly string[], name: string): number {
  const wanted = normalizeHeader(name);
  return header.findIndex((h) => normalizeHeader(h) === wanted);
}

/** The columns a mapping names that `header` does not have (empty: the mapping fits the file). */
export function missingColumns(header: readonly string[], columns: UploadColumns): string[] {
  const missing: string[] = [];
  for (const key of UPLOAD_COLUMN_KEYS) {
    const name = columns[key];
    if (name && findColumn(header, name) < 0) missing.push(name);
  }
  return missing;
}

/**
 * The column map for a file: the saved mapping when the header has every column it names (the other fields
 * recognised by name among the remaining columns), else recognition by name alone.
 */
export function resolveColumns(header: readonly string[], columns: UploadColumns | null | undefined): { map: ColumnMap; mapped: boolean } {
  if (!columns || missingColumns(header, columns).length > 0) return { map: mapColumns(header), mapped: false };
  const map: ColumnMap = {};
  for (const key of UPLOAD_COLUMN_KEYS) {
    const name = columns[key];
    if (name) map[UPLOAD_COLUMN_FIELDS[key]] = findColumn(header, name);
  }
  const used = new Set(Object.values(map));
  const byName = mapColumns(header.map((h, i) => (used.has(i) ? "" : h)));
  const owned = new Set<RowField>(Object.values(UPLOAD_COLUMN_FIELDS));
  for (const field of ROW_FIELDS) {
    if (owned.has(field) || byName[field] === undefined) continue;
    map[field] = byName[field];
  }
  return { map, mapped: true };
}

/** The mapping Accord proposes for a header (what recognition by name finds), for the preview's defaults. */
export function proposeColumns(header: readonly string[]): Partial<Record<UploadColumnKey, string>> {
  const map = mapColumns(header);
  const out: Partial<Record<UploadColumnKey, string>> = {};
  for (const key of UPLOAD_COLUMN_KEYS) {
    const index = map[UPLOAD_COLUMN_FIELDS[key]];
    if (index !== undefined) out[key] = header[index];
  }
  return out;
}
