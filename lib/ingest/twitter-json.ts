import { mapColumns, ROW_FIELDS, type RowField } from "./columns";
import type { RawFields } from "./rows";

/**
 * Twitter/X API tweets → row fields.
 * - v1.1: text / full_text / extended_tweet.full_text, lang, created_at, coordinates (GeoJSON [lon, lat]) or
 *   geo ([lat, lon]), place (full_name, country, bounding_box), user.location.
 * - v2: a response page `{ data, includes: { users, places } }` (author and place resolved through the
 *   includes), or single tweets (id, text / note_tweet.text, lang, created_at, author_id, geo), also in
 *   the "flattened" shape with `author` and the place fields inside `geo`.
 * A `label` / `class_label` property, when present, is the row's label.
 * - flat rows with the CSV column names (`{"tweet_id": …, "tweet_text": …, "class_label": …}`), matched as a CSV
 *   header is (lib/ingest/columns.ts), when the object is not a tweet of the API.
 */
type Obj = Record<string, unknown>;

export type JsonTweet = { fields: RawFields; columnNames: Partial<Record<RowField, string>> };

const V1_COLUMNS: Partial<Record<RowField, string>> = {
  id: "id_str",
  text: "text",
  lang: "lang",
  createdAt: "created_at",
  userLocation: "user.location",
  placeName: "place.full_name",
  placeCountry: "place.country",
  latitude: "coordinates",
  longitude: "coordinates",
  label: "label",
};

const V2_COLUMNS: Partial<Record<RowField, string>> = {
  id: "id",
  text: "text",
  lang: "lang",
  createdAt: "created_at",
  userLocation: "includes.users.location",
  placeName: "includes.places.full_name",
  placeCountry: "includes.places.country",
  latitude: "geo.coordinates",
  longitude: "geo.coordinates",
  label: "label",
};

function obj(v: unknown): Obj | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** [minLon, minLat, maxLon, maxLat] of a GeoJSON polygon ring or a v2 bbox. */
function bboxOf(place: Obj | undefined): number[] | undefined {
  if (!place) return undefined;
  const v2 = obj(place.geo)?.bbox;
  if (Array.isArray(v2) && v2.length === 4 && v2.every((x) => typeof x === "number")) return v2 as number[];
  const ring = (obj(place.bounding_box)?.coordinates as unknown[] | undefined)?.[0];
  if (!Array.isArray(ring) || ring.length === 0) return undefined;
  const lons: number[] = [];
  const lats: number[] = [];
  for (const p of ring) {
    if (Array.isArray(p) && typeof p[0] === "number" && typeof p[1] === "number") {
      lons.push(p[0]);
      lats.push(p[1]);
    }
  }
  if (lons.length === 0) return undefined;
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}

function placeFields(place: Obj | undefined, fields: RawFields): void {
  if (!place) return;
  fields.placeName = str(place.full_name) ?? str(place.name);
  fields.placeCountry = str(place.country) ?? str(place.country_code);
  fields.placeBbox = bboxOf(place);
}

function labelOf(t: Obj): string | undefined {
  return str(t.label) ?? str(t.class_label);
}

function isV2Tweet(t: Obj): boolean {
  return !("id_str" in t) && !obj(t.user) && ("author_id" in t || "edit_history_tweet_ids" in t || obj(t.author) !== undefined || obj(t.note_tweet) !== undefined);
}

function v1Fields(t: Obj): RawFields {
  const fields: RawFields = {
    id: t.id_str ?? t.id,
    text: str(obj(t.extended_tweet)?.full_text) ?? str(t.full_text) ?? str(t.text),
    lang: str(t.lang),
    createdAt: str(t.created_at),
    userLocation: str(obj(t.user)?.location),
    label: labelOf(t),
  };
  const point = obj(t.coordinates);
  const geo = obj(t.geo);
  if (point && Array.isArray(point.coordinates)) {
    fields.longitude = num(point.coordinates[0]);
    fields.latitude = num(point.coordinates[1]);
  } else if (geo && Array.isArray(geo.coordinates)) {
    fields.latitude = num(geo.coordinates[0]);
    fields.longitude = num(geo.coordinates[1]);
  }
  placeFields(obj(t.place), fields);
  return fields;
}

function v2Fields(t: Obj, users: Map<string, Obj>, places: Map<string, Obj>): RawFields {
  const author = obj(t.author) ?? users.get(str(t.author_id) ?? "");
  const fields: RawFields = {
    id: t.id,
    text: str(obj(t.note_tweet)?.text) ?? str(t.text),
    lang: str(t.lang),
    createdAt: str(t.created_at),
    userLocation: str(author?.location),
    label: labelOf(t),
  };
  const geo = obj(t.geo);
  const point = obj(geo?.coordinates);
  if (point && Array.isArray(point.coordinates)) {
    fields.longitude = num(point.coordinates[0]);
    fields.latitude = num(point.coordinates[1]);
  }
  const place = places.get(str(geo?.place_id) ?? "") ?? obj(geo?.place) ?? (geo && "full_name" in geo ? geo : undefined);
  placeFields(place, fields);
  return fields;
}

function byId(list: unknown): Map<string, Obj> {
  const map = new Map<string, Obj>();
  if (Array.isArray(list)) {
    for (const item of list) {
      const o = obj(item);
      const id = o && str(o.id);
      if (o && id) map.set(id, o);
    }
  }
  return map;
}

/** An object keyed by CSV column names, when its keys name at least an id and a text column. */
function flatRow(o: Obj): JsonTweet | null {
  const keys = Object.keys(o);
  const columns = mapColumns(keys);
  if (columns.id === undefined || columns.text === undefined) return null;
  const fields: RawFields = {};
  const columnNames: Partial<Record<RowField, string>> = {};
  for (const f of ROW_FIELDS) {
    const index = columns[f];
    if (index === undefined) continue;
    const value = o[keys[index]];
    // Nested values are not columns: left out, so the row's check names what is missing.
    fields[f] = typeof value === "string" || typeof value === "number" || value === null ? value : undefined;
    columnNames[f] = keys[index];
  }
  return { fields, columnNames };
}

/** The tweets in one parsed JSON value, or the reason there are none. */
export function tweetsFromJson(value: unknown): { tweets: JsonTweet[]; error?: undefined } | { tweets?: undefined; error: string } {
  if (Array.isArray(value)) {
    const tweets: JsonTweet[] = [];
    for (const item of value) {
      const r = tweetsFromJson(item);
      if (r.error) return r;
      tweets.push(...(r.tweets ?? []));
    }
    return { tweets };
  }
  const o = obj(value);
  if (!o) return { error: "not a JSON object" };
  if ("data" in o && (Array.isArray(o.data) || obj(o.data))) {
    const includes = obj(o.includes);
    const users = byId(includes?.users);
    const places = byId(includes?.places);
    const data = Array.isArray(o.data) ? o.data : [o.data];
    const tweets: JsonTweet[] = [];
    for (const item of data) {
      const t = obj(item);
      if (!t) return { error: "a data entry is not a JSON object" };
      tweets.push({ fields: v2Fields(t, users, places), columnNames: V2_COLUMNS });
    }
    return { tweets };
  }
  if ("errors" in o && !("id" in o) && !("id_str" in o)) return { error: "an API error response, not a tweet" };
  if (isV2Tweet(o)) return { tweets: [{ fields: v2Fields(o, new Map(), new Map()), columnNames: V2_COLUMNS }] };
  const v1 = v1Fields(o);
  const flat = v1.id === undefined || v1.text === undefined ? flatRow(o) : null;
  return { tweets: [flat ?? { fields: v1, columnNames: V1_COLUMNS }] };
}

const BIG_ID_SOURCE = '"(id|tweet_id|status_id|author_id|place_id|in_reply_to_status_id|conversation_id)"(\\s*:\\s*)(\\d{16,})';
const BIG_ID_TEST = new RegExp(BIG_ID_SOURCE);
const BIG_ID_ALL = new RegExp(BIG_ID_SOURCE, "g");

/** JSON.parse, keeping numeric ids above 2^53 exact (they become strings). */
export function parseJsonKeepingIds(text: string): unknown {
  return JSON.parse(BIG_ID_TEST.test(text) ? text.replace(BIG_ID_ALL, '"$1"$2"$3"') : text);
}
