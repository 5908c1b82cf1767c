/**
 * Tweet times as they appear in exports: Twitter API v1.1 ("Wed Oct 10 20:19:24 +0000 2018"), ISO 8601
 * (API v2 "2018-10-10T20:19:24.000Z"; a time without an offset is read as UTC), "YYYY-MM-DD HH:MM:SS"
 * (UTC), and epoch seconds or milliseconds. Returns null for anything else.
 */
const MONTHS: Record<string, number> = { jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11 };
const V1_RE = /^[A-Za-z]{3} ([A-Za-z]{3}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2}) (\d{4})$/;
const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

export function parseTweetDate(input: string): Date | null {
  const s = input.trim();
  if (!s) return null;
  let m = V1_RE.exec(s);
  if (m) {
    const month = MONTHS[m[1].toLowerCase()];
    if (month === undefined) return null;
    const offsetMin = (m[6] === "-" ? -1 : 1) * (Number(m[7]) * 60 + Number(m[8]));
    const ms = Date.UTC(Number(m[9]), month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])) - offsetMin * 60_000;
    return valid(ms);
  }
  m = ISO_RE.exec(s);
  if (m) {
    const [, y, mo, d, h = "0", mi = "0", sec = "0", frac = "0", zone] = m;
    const msPart = Number(frac.padEnd(3, "0").slice(0, 3));
    let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec), msPart);
    if (zone && zone.toUpperCase() !== "Z") {
      const z = zone.replace(":", "");
      ms -= (z[0] === "-" ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5))) * 60_000;
    }
    // Reject impossible dates and times (e.g. 2018-02-31, 25:00) instead of rolling them over.
    const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
    if (day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d)) return null;
    if (Number(h) > 23 || Number(mi) > 59 || Number(sec) > 60) return null;
    return valid(ms);
  }
  if (/^\d{10}(\.\d+)?$/.test(s)) return valid(Math.round(Number(s) * 1000));
  if (/^\d{13}$/.test(s)) return valid(Number(s));
  return null;
}

function valid(ms: number): Date | null {
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/** Twitter's snowflake epoch (2010-11-04T01:42:54.657Z). */
const TWITTER_EPOCH_MS = 1288834974657;
/** Ids below this are pre-snowflake sequential ids (before Nov 2010) or made-up ids: no time in them. */
const MIN_SNOWFLAKE = 2n ** 22n * 3_600_000n;

/**
 * The creation time encoded in a tweet id (ids since November 2010 are "snowflakes": milliseconds since
 * Twitter's epoch shifted left by 22 bits). Null when the id is not a plausible snowflake.
 */
export function snowflakeTime(id: string, now: number = Date.now()): Date | null {
  if (!/^\d{15,20}$/.test(id)) return null;
  const n = BigInt(id);
  if (n < MIN_SNOWFLAKE) return null;
  const ms = Number(n >> 22n) + TWITTER_EPOCH_MS;
  if (ms > now + 86_400_000) return null;
  return new Date(ms);
}
