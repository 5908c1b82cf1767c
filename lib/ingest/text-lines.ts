import iconv from "iconv-lite";
import { UserError } from "@/lib/errors";
import { formatBytes, type IngestLimits } from "./limits";

/**
 * Splits a byte stream into physical lines and decodes them. The encoding comes from the byte-order mark:
 * UTF-8 (the mark dropped), UTF-16 LE or BE (transcoded as it streams); without a mark, lines are UTF-8, and
 * a line that is not falls back to Windows-1252 (a superset of Latin-1), flagged so that the import can say
 * how many rows were decoded so. A line that is neither becomes a per-row error naming its bytes, while the
 * rest of the file imports. Binary files are refused. Lines end at \n (a trailing \r is removed). Decoding
 * is TextDecoder's (UTF-8, UTF-16) and iconv-lite's (Windows-1252), no tables of our own.
 */
export type TextLine = {
  /** 1-based line number. */
  line: number;
  text: string;
  /** The line is neither UTF-8 nor Windows-1252: why, naming the bytes (text holds a lenient decoding, for the report). */
  encodingError?: string;
  /** The line is not UTF-8 and was decoded as Windows-1252. */
  windows1252?: boolean;
};

export type LineBatch = { lines: TextLine[]; bytesRead: number };

const LF = 0x0a;
const CR = 0x0d;

export type FileEncoding = "utf-8" | "utf-16le" | "utf-16be";

/** The encoding named by the file's byte-order mark (UTF-8 when there is none). */
export function detectEncoding(head: Uint8Array): { encoding: FileEncoding; bomBytes: number } {
  if (hasUtf8Bom(head)) return { encoding: "utf-8", bomBytes: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: "utf-16le", bomBytes: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: "utf-16be", bomBytes: 2 };
  return { encoding: "utf-8", bomBytes: 0 };
}

/** The start of a file as text (for format detection), in its encoding. */
export function decodeHead(head: Uint8Array): string {
  const { encoding, bomBytes } = detectEncoding(head);
  return new TextDecoder(encoding, { ignoreBOM: true }).decode(head.subarray(bomBytes));
}

/**
 * Decodes a line that is not valid UTF-8: as Windows-1252 (iconv-lite: Node's own TextDecoder decodes the
 * "windows-1252" label as ISO-8859-1), or the reason it is neither, naming the bytes Windows-1252 leaves undefined.
 */
function decodeFallback(bytes: Uint8Array, lenient: TextDecoder): { text: string; encodingError?: string; windows1252?: boolean } {
  const text = iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), "windows-1252");
  if (!text.includes("\ufffd")) return { text, windows1252: true };
  // Each byte is one character in a single-byte encoding: the replacement characters sit at the bad bytes.
  const bad: string[] = [];
  for (let i = text.indexOf("\ufffd"); i >= 0 && bad.length < 3; i = text.indexOf("\ufffd", i + 1)) {
    bad.push(`0x${bytes[i].toString(16).padStart(2, "0")} at byte ${i + 1}`);
  }
  return { text: lenient.decode(bytes), encodingError: `neither UTF-8 nor Windows-1252 (byte ${bad.join(", ")} of the line)` };
}

/** Checks the first bytes of a file for containers and binary data that are not text (UTF-16 with its mark is text). */
export function assertTextFile(head: Uint8Array, fileLabel = "the file"): void {
  const subject = capitalize(fileLabel);
  if (detectEncoding(head).encoding !== "utf-8") return;
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) {
    throw new UserError(
      `${subject} is a ZIP container (for example an Excel .xlsx workbook), not a text file; export it as CSV or TSV.`,
      "binary",
    );
  }
  const n = Math.min(head.length, 8192);
  for (let i = 0; i < n; i++) {
    if (head[i] === 0) {
      throw new UserError(`${subject} looks like a binary file (it contains NUL bytes); upload CSV, TSV, JSON or JSONL text.`, "binary");
    }
  }
}

export function hasUtf8Bom(head: Uint8Array): boolean {
  return head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
}

export async function* readTextLines(
  source: AsyncIterable<Uint8Array>,
  { limits, fileLabel = "the file" }: { limits: IngestLimits; fileLabel?: string },
): AsyncGenerator<LineBatch> {
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const lenient = new TextDecoder("utf-8", { ignoreBOM: true });
  let carry: Uint8Array[] = [];
  let carryBytes = 0;
  let lineNo = 0;
  let bytesRead = 0;
  let first = true;

  const decodeLines = (block: Uint8Array, out: TextLine[]) => {
    // Fast path: the whole block (whole lines only) is valid UTF-8.
    let text: string | null = null;
    try {
      text = strict.decode(block);
    } catch {
      text = null;
    }
    if (text !== null) {
      const parts = text.split("\n");
      parts.pop(); // the block ends with \n
      for (const p of parts) out.push({ line: ++lineNo, text: p.endsWith("\r") ? p.slice(0, -1) : p });
      return;
    }
    let start = 0;
    while (start < block.length) {
      const end = block.indexOf(LF, start);
      const stop = end < 0 ? block.length : end;
      let lineEnd = stop;
      if (lineEnd > start && block[lineEnd - 1] === CR) lineEnd--;
      const bytes = block.subarray(start, lineEnd);
      let decoded: Omit<TextLine, "line">;
      try {
        decoded = { text: strict.decode(bytes) };
      } catch {
        decoded = decodeFallback(bytes, lenient);
      }
      out.push({ line: ++lineNo, ...decoded });
      start = stop + 1;
    }
  };

  for await (const { chunk: raw, rawBytes } of asUtf8(source, fileLabel)) {
    let chunk = raw;
    bytesRead += rawBytes;
    if (bytesRead > limits.maxFileBytes) {
      throw new UserError(`${capitalize(fileLabel)} is larger than the ${formatBytes(limits.maxFileBytes)} limit.`, "file_too_large");
    }
    if (first) {
      first = false;
      if (hasUtf8Bom(chunk)) chunk = chunk.subarray(3);
    }
    const lastLf = chunk.lastIndexOf(LF);
    if (lastLf < 0) {
      carry.push(chunk);
      carryBytes += chunk.length;
      if (carryBytes > limits.maxLineBytes) throw lineTooLong(lineNo + 1, limits, fileLabel);
      continue;
    }
    const whole = chunk.subarray(0, lastLf + 1);
    const block = carry.length > 0 ? concat([...carry, whole], carryBytes + whole.length) : whole;
    if (block.length > limits.maxLineBytes) checkLineLengths(block, lineNo, limits, fileLabel);
    const out: TextLine[] = [];
    decodeLines(block, out);
    carry = [];
    carryBytes = 0;
    const rest = chunk.subarray(lastLf + 1);
    if (rest.length > 0) {
      carry.push(rest);
      carryBytes = rest.length;
      if (carryBytes > limits.maxLineBytes) throw lineTooLong(lineNo + 1, limits, fileLabel);
    }
    yield { lines: out, bytesRead };
  }
  if (first) return; // empty file
  if (carryBytes > 0) {
    const out: TextLine[] = [];
    const block = concat([...carry, Uint8Array.of(LF)], carryBytes + 1);
    decodeLines(block, out);
    yield { lines: out, bytesRead };
  }
}

/**
 * The source as UTF-8 chunks, with how many of the file's bytes each stands for: UTF-8 passes through;
 * UTF-16 (by its mark) is transcoded as it streams. The first chunk is checked for binary content.
 */
async function* asUtf8(source: AsyncIterable<Uint8Array>, fileLabel: string): AsyncGenerator<{ chunk: Uint8Array; rawBytes: number }> {
  let utf16: TextDecoder | null = null;
  let first = true;
  let offset = 0;
  const encoder = new TextEncoder();
  for await (const raw of source) {
    const chunk = raw instanceof Uint8Array ? raw : new Uint8Array(raw);
    if (first) {
      first = false;
      assertTextFile(chunk, fileLabel);
      const { encoding } = detectEncoding(chunk);
      if (encoding !== "utf-8") utf16 = new TextDecoder(encoding, { fatal: true }); // drops the mark itself
    }
    if (!utf16) yield { chunk, rawBytes: chunk.length };
    else {
      let text: string;
      try {
        text = utf16.decode(chunk, { stream: true });
      } catch {
        throw new UserError(`${capitalize(fileLabel)} is marked as UTF-16 but is not valid UTF-16 (near byte ${offset + 1}).`, "encoding");
      }
      yield { chunk: encoder.encode(text), rawBytes: chunk.length };
    }
    offset += chunk.length;
  }
  if (utf16) {
    try {
      const rest = utf16.decode();
      if (rest) yield { chunk: encoder.encode(rest), rawBytes: 0 };
    } catch {
      throw new UserError(`${capitalize(fileLabel)} is marked as UTF-16 but ends in the middle of a character.`, "encoding");
    }
  }
}

function lineTooLong(line: number, limits: IngestLimits, fileLabel: string): UserError {
  return new UserError(
    `Line ${line} of ${fileLabel} is longer than the ${formatBytes(limits.maxLineBytes)} line limit; ` +
      "check the file's format (for JSON: one tweet per line, or a pretty-printed array) or raise the limit.",
    "line_too_long",
  );
}

/** Throws when a line of the block (whole lines, ending with \n) is longer than the limit. */
function checkLineLengths(block: Uint8Array, linesBefore: number, limits: IngestLimits, fileLabel: string): void {
  let start = 0;
  let line = linesBefore;
  while (start < block.length) {
    let end = block.indexOf(LF, start);
    if (end < 0) end = block.length;
    line++;
    if (end - start > limits.maxLineBytes) throw lineTooLong(line, limits, fileLabel);
    start = end + 1;
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
