/**
 * Tweet text as people read it. Tweets are stored exactly as uploaded (exports stay byte-faithful), and Twitter and
 * HumAID keep them HTML-escaped (`&amp;`, `&lt;`, `&gt;`, sometimes `&quot;` or numeric references); every view that
 * shows a tweet decodes them here, once (`&amp;lt;` → `&lt;`, not `<`). Views then escape as usual (React, or the
 * MTurk HTML/XML escapers), so decoding never lets markup through.
 */
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos|nbsp));/g;

function codePoint(n: number): string | null {
  if (!Number.isFinite(n) || n <= 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return null;
  return String.fromCodePoint(n);
}

export function displayText(raw: string): string {
  if (!raw.includes("&")) return raw;
  return raw.replace(ENTITY, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name) return NAMED[name];
    return codePoint(dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex as string, 16)) ?? whole;
  });
}
