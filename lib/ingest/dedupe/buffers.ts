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
 * Maps non-negative integer keys below 2^53 (stored exactly as doubles) to dense ids 0, 1, 2, …
 * Open addressing with linear probing; the table doubles at half load.
 */
export class IntKeyIdTable {
  private keys: Float64Array;
  private ids: Int32Array;
  private mask: number;
  size = 0;

  constructor(capacity = 1 << 16) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.keys = new Float64Array(cap).fill(EMPTY);
    this.ids = new Int32Array(cap);
    this.mask = cap - 1;
  }

  private static slot(key: number, mask: number): number {
    const lo = key % 0x4000000; // low 26 bits
    const hi = (key - lo) / 0x4000000;
    let h = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    return h & mask;
  }

  /** The id of `key`, inserting it with the next id when absent. */
  idOf(key: number): number {
    let i = IntKeyIdTable.slot(key, this.mask);
    for (;;) {
      const k = this.keys[i];
      if (k === key) return this.ids[i];
      if (k === EMPTY) break;
      i = (i + 1) & this.mask;
    }
    const id = this.size++;
    this.keys[i] = key;
    this.ids[i] = id;
    if (this.size * 2 > this.keys.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const oldKeys = this.keys;
    const oldIds = this.ids;
    const cap = oldKeys.length * 2;
    this.keys = new Float64Array(cap).fill(EMPTY);
    this.ids = new Int32Array(cap);
    this.mask = cap - 1;
    for (let j = 0; j < oldKeys.length; j++) {
      const k = oldKeys[j];
      if (k === EMPTY) continue;
      let i = IntKeyIdTable.slot(k, this.mask);
      while (this.keys[i] !== EMPTY) i = (i + 1) & this.mask;
      this.keys[i] = k;
      this.ids[i] = oldIds[j];
    }
  }
}
