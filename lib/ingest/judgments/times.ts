/**
 * Submission times as the platforms write them: ISO 8601; CrowdFlower's `10/30/2012 14:22:11` (UTC); MTurk's
 * `Sun Oct 28 10:12:13 PDT 2012` (US zone abbreviations). Returns epoch ms or null when unreadable.
 */
const ZONES: Record<string, number> = { UTC: 0, GMT: 0, Z: 0, PST: -8, PDT: -7, MST: -7, MDT: -6, CST: -6, CDT: -5, EST: -5, EDT: -4 };
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

export function parseSourceTime(value: string): number | null {
  const v = value.trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(v)) {
    const iso = /[zZ]|[+-]\d{2}:?\d{2}$/.test(v) || !v.includes("T") && !/\d:\d/.test(v) ? v : `${v.replace(" ", "T")}Z`;
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? null : ms;
  }
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(v);
  if (us) {
    const [, mo, d, y, h = "0", mi = "0", s = "0"] = us;
    return checked(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s), +mo, +d);
  }
  const mt = /^(?:[A-Za-z]{3},? )?([A-Za-z]{3}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) ([A-Z]{1,4}) (\d{4})$/.exec(v);
  if (mt) {
    const [, mon, d, h, mi, s, zone, y] = mt;
    const mo = MONTHS.indexOf(mon.toLowerCase());
    if (mo < 0 || !(zone in ZONES)) return null;
    return Date.UTC(+y, mo, +d, +h - ZONES[zone], +mi, +s);
  }
  return null;
}

function checked(ms: number, month: number, day: number): number | null {
  const d = new Date(ms);
  return d.getUTCMonth() + 1 === month && d.getUTCDate() === day ? ms : null;
}
