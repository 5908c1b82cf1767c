import { CrowdError } from "../errors";

/** MTurk's limit for Question, qualification Test and AnswerKey documents (bytes, UTF-8). */
export const MTURK_MAX_XML_BYTES = 65_535;

/**
 * Removes characters that XML 1.0 cannot carry at all (C0 controls other than tab/newline/carriage return,
 * U+FFFE/U+FFFF, and unpaired surrogates). Emoji (valid surrogate pairs) are kept.
 */
export function stripInvalidXmlChars(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "");
}

/** Escapes text for XML/HTML element content and double- or single-quoted attribute values. */
export function escapeXml(text: string): string {
  return stripInvalidXmlChars(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** HTML escaping is the same set (text and attributes); named separately for intent. */
export const escapeHtml = escapeXml;

/** Wraps text in a CDATA section, splitting any "]]>" so the section cannot be closed early. */
export function cdata(text: string): string {
  return `<![CDATA[${stripInvalidXmlChars(text).replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** Decodes the XML entities and numeric character references in one pass (no double decoding). */
export function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code < 0 || code > 0x10ffff) return whole;
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[ref] ?? whole;
  });
}

export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** Throws a CrowdError("too_large") when `xml` exceeds MTurk's 65,535-byte limit. */
export function assertMturkXmlSize(xml: string, what: string, hint: string): void {
  const bytes = utf8ByteLength(xml);
  if (bytes > MTURK_MAX_XML_BYTES) {
    throw new CrowdError(
      `The ${what} is ${bytes.toLocaleString("en-US")} bytes; MTurk accepts at most ${MTURK_MAX_XML_BYTES.toLocaleString("en-US")} bytes. ${hint}`,
      "too_large",
    );
  }
}
