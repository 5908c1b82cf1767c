import { type FunnelStep, skippedStep, StepCounter } from "../funnel";
import type { IngestRow } from "../rows";
import type { TargetLocation } from "../settings";

/**
 * Step 2 (offline, no geocoding service): coordinates inside one of the event's areas; else a place
 * whose box centre is inside an area or whose name matches a target location; else a free-text user
 * location that mentions a target location (case- and accent-insensitive, whole words, with aliases).
 * Rows with no location information are kept or dropped by a setting.
 */
type Box = [number, number, number, number];

/** "São Paulo, BR" → "sao paulo br". */
export function normalizePlaceText(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function inBox(lon: number, lat: number, b: Box): boolean {
  if (lat < b[1] || lat > b[3]) return false;
  return b[0] <= b[2] ? lon >= b[0] && lon <= b[2] : lon >= b[0] || lon <= b[2];
}

export type LocationMatcher = {
  hasAreas: boolean;
  hasNames: boolean;
  /** Whether the point is inside one of the areas. */
  inAreas(lon: number, lat: number): boolean;
  /** Whether the text mentions a target name or alias (whole words). */
  mentions(text: string): boolean;
};

export function createLocationMatcher(targets: readonly TargetLocation[]): LocationMatcher {
  const boxes = targets.flatMap((t) => (t.bbox ? [t.bbox as Box] : []));
  const phrases = new Set<string>();
  let longest = 0;
  for (const t of targets) {
    for (const name of [t.name, ...t.aliases]) {
      const p = normalizePlaceText(name);
      if (!p) continue;
      phrases.add(p);
      longest = Math.max(longest, p.split(" ").length);
    }
  }
  return {
    hasAreas: boxes.length > 0,
    hasNames: phrases.size > 0,
    inAreas: (lon, lat) => boxes.some((b) => inBox(lon, lat, b)),
    mentions(text) {
      const words = normalizePlaceText(text).split(" ").filter(Boolean);
      for (let i = 0; i < words.length; i++) {
        let phrase = "";
        for (let k = i; k < Math.min(words.length, i + longest); k++) {
          phrase = k === i ? words[k] : `${phrase} ${words[k]}`;
          if (phrases.has(phrase)) return true;
        }
      }
      return false;
    },
  };
}

export function filterByLocation(
  rows: IngestRow[],
  { targets, noLocation = "keep", enabled = true }: { targets: readonly TargetLocation[]; noLocation?: "keep" | "drop"; enabled?: boolean },
): { rows: IngestRow[]; step: FunnelStep } {
  if (!enabled) return { rows, step: skippedStep("location", rows.length, "switched off") };
  const m = createLocationMatcher(targets);
  if (!m.hasAreas && !m.hasNames) return { rows, step: skippedStep("location", rows.length, "the event has no target locations") };
  const counter = new StepCounter();
  const kept: IngestRow[] = [];
  for (const row of rows) {
    if (row.latitude !== undefined && row.longitude !== undefined && m.hasAreas) {
      if (m.inAreas(row.longitude, row.latitude)) {
        counter.count("kept by coordinates");
        kept.push(row);
      } else counter.remove("coordinates outside the event's areas", row);
      continue;
    }
    if (row.placeName || row.placeCountry || row.placeBbox) {
      const b = row.placeBbox;
      const centreInside = b && m.hasAreas ? m.inAreas((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) : false;
      if (centreInside || (row.placeName && m.mentions(row.placeName)) || (row.placeCountry && m.mentions(row.placeCountry))) {
        counter.count("kept by place");
        kept.push(row);
      } else counter.remove("place outside the event's locations", row, `place "${row.placeName ?? row.placeCountry ?? "?"}"`);
      continue;
    }
    if (row.userLocation && normalizePlaceText(row.userLocation)) {
      if (m.mentions(row.userLocation)) {
        counter.count("kept by user location");
        kept.push(row);
      } else counter.remove("user location not among the event's locations", row, `user location "${row.userLocation.slice(0, 60)}"`);
      continue;
    }
    if (noLocation === "keep") {
      counter.count("no location information (kept)");
      kept.push(row);
    } else counter.remove("no location information", row);
  }
  return { rows: kept, step: counter.step("location", rows.length) };
}
