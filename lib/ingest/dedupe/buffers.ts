/** Growable typed arrays and an integer-keyed hash table: compact storage for millions of features. */

export class GrowableInt32 {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(16, capacity));
  }
  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }
  /** Makes room for `n` more values. */
  reserve(n: number): void {
    if (this.length + n > this.data.length) this.grow(this.length + n);
  }
  private grow(min: number): void {
    let cap = this.data.length * 2;
    while (cap < min) cap *= 2;
    const next = new Int32Array(cap);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

export class GrowableFloat64 {
  data: Float64Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Float64Array(Math.max(16, capacity));
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

const EMPTY = -1;

/**
 * Maps pairs of non-negative 32-bit integers (hi, lo) to dense ids 0, 1, 2, … Open addressing with
 * linear probing; each slot is [hi, lo, id] in one Int32Array (one cache line per probe); the table
 * doubles at half load.
 */
export class PairIdTable {
  private slots: Int32Array;
  private mask: number;
  size = 0;

  constructor(capacity = 1 << 16) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.slots = new Int32Array(cap * 3).fill(EMPTY);
    this.mask = cap - 1;
  }

  private static slot(hi: number, lo: number, mask: number): number {
    let h = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    return h & mask;
  }

  /** The id of (hi, lo), inserting it with the next id when absent. */
  idOf(hi: number, lo: number): number {
    const mask = this.mask;
    const slots = this.slots;
    let i = PairIdTable.slot(hi, lo, mask);
    for (;;) {
      const at = i * 3;
      const h = slots[at];
      if (h === EMPTY) break;
      if (h === hi && slots[at + 1] === lo) return slots[at + 2];
      i = (i + 1) & mask;
    }
    const id = this.size++;
    slots[i * 3] = hi;
    slots[i * 3 + 1] = lo;
    slots[i * 3 + 2] = id;
    if (this.size * 2 > mask + 1) this.rehash();
    return id;
  }

  private rehash(): void {
    const old = this.slots;
    const cap = (this.mask + 1) * 2;
    const slots = new Int32Array(cap * 3).fill(EMPTY);
    const mask = cap - 1;
    for (let j = 0; j < old.length; j += 3) {
      if (old[j] === EMPTY) continue;
      let i = PairIdTable.slot(old[j], old[j + 1], mask);
      while (slots[i * 3] !== EMPTY) i = (i + 1) & mask;
      slots[i * 3] = old[j];
      slots[i * 3 + 1] = old[j + 1];
      slots[i * 3 + 2] = old[j + 2];
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/**
 * Interns ASCII tokens given as a range of a string, without allocating a string per token: known
 * tokens are found by hash and compared with their bytes, kept in one pool. Each slot holds
 * [hash, id, pool offset, length].
 */
export class TokenTable {
  private slots: Int32Array;
  private mask: number;
  private pool: Uint8Array;
  private poolLength = 0;
  size = 0;

  constructor(capacity = 1 << 16) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.slots = new Int32Array(cap * 4).fill(EMPTY);
    this.mask = cap - 1;
    this.pool = new Uint8Array(capacity * 8);
  }

  /** FNV-1a over the char codes, as idOf expects it. */
  static hash(str: string, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let k = start; k < end; k++) h = Math.imul(h ^ str.charCodeAt(k), 0x01000193);
    return h;
  }

  /** The id of str[start, end) (chars below 256), whose hash is `h` (TokenTable.hash). */
  idOf(str: string, start: number, end: number, h: number): number {
    const slots = this.slots;
    const mask = this.mask;
    const pool = this.pool;
    const len = end - start;
    let i = (h ^ (h >>> 16)) & mask;
    for (;;) {
      const at = i * 4;
      const id = slots[at + 1];
      if (id === EMPTY) break;
      if (slots[at] === h && slots[at + 3] === len) {
        const off = slots[at + 2];
        let k = 0;
        while (k < len && pool[off + k] === str.charCodeAt(start + k)) k++;
        if (k === len) return id;
      }
      i = (i + 1) & mask;
    }
    if (this.poolLength + len > pool.length) {
      const bigger = new Uint8Array(Math.max(pool.length * 2, this.poolLength + len));
      bigger.set(pool.subarray(0, this.poolLength));
      this.pool = bigger;
    }
    const off = this.poolLength;
    for (let k = 0; k < len; k++) this.pool[off + k] = str.charCodeAt(start + k);
    this.poolLength += len;
    const id = this.size++;
    const at = i * 4;
    slots[at] = h;
    slots[at + 1] = id;
    slots[at + 2] = off;
    slots[at + 3] = len;
    if (this.size * 2 > mask + 1) this.rehash();
    return id;
  }

  private rehash(): void {
    const old = this.slots;
    const cap = (this.mask + 1) * 2;
    const slots = new Int32Array(cap * 4).fill(EMPTY);
    const mask = cap - 1;
    for (let j = 0; j < old.length; j += 4) {
      if (old[j + 1] === EMPTY) continue;
      const h = old[j];
      let i = (h ^ (h >>> 16)) & mask;
      while (slots[i * 4 + 1] !== EMPTY) i = (i + 1) & mask;
      slots.set(old.subarray(j, j + 4), i * 4);
    }
    this.slots = slots;
    this.mask = mask;
  }
}
