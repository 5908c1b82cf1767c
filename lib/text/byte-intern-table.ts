/**
 * Distinct byte strings, each with a dense code in first-seen order, looked up by (hash, bytes of a range of a
 * buffer) without decoding first: open addressing, grows at half full. Each distinct value is decoded once.
 */
export class ByteInternTable {
  readonly values: string[] = [];
  private slots = new Int32Array(1024).fill(-1);
  private hashes = new Int32Array(1024);
  /** The bytes of value c are pool[offset[c], offset[c + 1]). */
  private pool = Buffer.allocUnsafe(4096);
  private offset = new Int32Array(1025);

  /** The code of bytes[from, to) (hashBytes is `hash`); a new value gets the next code. */
  code(bytes: Uint8Array, from: number, to: number, hash: number): number {
    const len = to - from;
    let mask = this.slots.length - 1;
    let k = hash & mask;
    for (let c = this.slots[k]; c >= 0; c = this.slots[(k = (k + 1) & mask)]) {
      if (this.hashes[k] === hash && this.offset[c + 1] - this.offset[c] === len && this.same(this.offset[c], bytes, from, len)) return c;
    }
    const code = this.values.length;
    const b = bytes instanceof Buffer ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const value = isAscii(b, from, to) ? b.latin1Slice(from, to) : b.utf8Slice(from, to);
    // invalid UTF-8 decodes to U+FFFD: such bytes take the code of their decoded text, so one text has one code
    if (value.includes("\uFFFD") && !Buffer.from(value, "utf8").equals(b.subarray(from, to))) return this.codeOfString(value);
    this.values.push(value);
    this.store(code, b, from, to);
    if (this.values.length * 2 > this.slots.length) {
      this.grow();
      mask = this.slots.length - 1;
      for (k = hash & mask; this.slots[k] >= 0; k = (k + 1) & mask);
    }
    this.slots[k] = code;
    this.hashes[k] = hash;
    return code;
  }

  /** Whether value `code` is bytes[from, from + len). */
  is(code: number, bytes: Uint8Array, from: number, len: number): boolean {
    return this.offset[code + 1] - this.offset[code] === len && this.same(this.offset[code], bytes, from, len);
  }

  /** The code of a string (its UTF-8 bytes). */
  codeOfString(s: string): number {
    const b = Buffer.from(s, "utf8");
    return this.code(b, 0, b.length, hashBytes(b, 0, b.length));
  }

  private store(code: number, b: Buffer, from: number, to: number): void {
    if (code + 2 > this.offset.length) {
      const o = new Int32Array(this.offset.length * 2);
      o.set(this.offset);
      this.offset = o;
    }
    const at = this.offset[code];
    if (at + (to - from) > this.pool.length) {
      const p = Buffer.allocUnsafe(Math.max(this.pool.length * 2, at + (to - from)));
      this.pool.copy(p, 0, 0, at);
      this.pool = p;
    }
    const pool = this.pool;
    for (let j = from; j < to; j++) pool[at + j - from] = b[j];
    this.offset[code + 1] = at + (to - from);
  }

  private same(at: number, bytes: Uint8Array, from: number, len: number): boolean {
    const pool = this.pool;
    for (let j = 0; j < len; j++) if (pool[at + j] !== bytes[from + j]) return false;
    return true;
  }

  private grow(): void {
    const { slots, hashes } = this;
    this.slots = new Int32Array(slots.length * 2).fill(-1);
    this.hashes = new Int32Array(slots.length * 2);
    const mask = this.slots.length - 1;
    for (let j = 0; j < slots.length; j++) {
      if (slots[j] < 0) continue;
      let k = hashes[j] & mask;
      while (this.slots[k] >= 0) k = (k + 1) & mask;
      this.slots[k] = slots[j];
      this.hashes[k] = hashes[j];
    }
  }
}

function isAscii(b: Uint8Array, from: number, to: number): boolean {
  for (let j = from; j < to; j++) if (b[j] >= 0x80) return false;
  return true;
}

/** The hash ByteInternTable expects: h = h·31 + byte, in 32 bits, over bytes[from, to). */
export function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let hash = 0;
  for (let i = from; i < to; i++) hash = (Math.imul(hash, 31) + bytes[i]) | 0;
  return hash;
}
