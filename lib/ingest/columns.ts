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
