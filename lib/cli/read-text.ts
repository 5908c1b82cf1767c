import { isAscii } from "node:buffer";
import { readFileSync } from "node:fs";

/**
 * readFileSync(file, "utf8"), faster for the usual all-ASCII file: Node 20 decodes UTF-8 at ~60 MB/s of CPU
 * here, while an ASCII buffer becomes a one-byte string by a copy (latin1 is the same bytes for ASCII).
 */
export function readTextFile(file: string): string {
  const buf = readFileSync(file);
  return buf.toString(isAscii(buf) ? "latin1" : "utf8");
}
