import { UserError } from "@/lib/errors";
import { formatBytes, type IngestLimits } from "./limits";

/**
 * Splits a byte stream into physical lines and decodes them as UTF-8. A UTF-8 byte-order mark is
 * dropped; other encodings and binary files are refused with a clear message. A line that is not valid
 * UTF-8 is still passed on (decoded leniently) but flagged, so the row it belongs to becomes a per-row
 * error while the rest of the file imports. Lines end at \n (a trailing \r is removed).
 */
export type TextLine = {
  /** 1-based line number. */
  line: number;
  text: string;
  /** The line's bytes are not valid UTF-8 (text holds a lenient decoding, for the error report). */
  invalidUtf8: boolean;
};

export type LineBatch = { lines: TextLine[]; bytesRead: number };

const LF = 0x0a;
const CR = 0x0d;

/** Checks the first bytes of a file for encodings and containers that are not UTF-8 text. */
export function assertTextFile(head: Uint8Array, fileLabel = "the file"): void {
  const subject = capitalize(fileLabel);
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    throw new UserError(`${subject} is UTF-16 encoded; save it as UTF-8 (with or without BOM) and upload it again.`, "encoding");
  }
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
      for (const p of parts) out.push({ line: ++lineNo, text: p.endsWith("\r") ? p.slice(0, -1) : p, invalidUtf8: false });
      return;
    }
    let start = 0;
    while (start < block.length) {
      const end = block.indexOf(LF, start);
      const stop = end < 0 ? block.length : end;
      let lineEnd = stop;
      if (lineEnd > start && block[lineEnd - 1] === CR) lineEnd--;
      const bytes = block.subarray(start, lineEnd);
      let lineText: string;
      let invalid = false;
      try {
        lineText = strict.decode(bytes);
      } catch {
        lineText = lenient.decode(bytes);
        invalid = true;
      }
      out.push({ line: ++lineNo, text: lineText, invalidUtf8: invalid });
      start = stop + 1;
    }
  };

  for await (const raw of source) {
    let chunk = raw instanceof Uint8Array ? raw : new Uint8Array(raw);
    bytesRead += chunk.length;
    if (bytesRead > limits.maxFileBytes) {
      throw new UserError(`${capitalize(fileLabel)} is larger than the ${formatBytes(limits.maxFileBytes)} limit.`, "file_too_large");
    }
    if (first) {
      first = false;
      assertTextFile(chunk, fileLabel);
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
