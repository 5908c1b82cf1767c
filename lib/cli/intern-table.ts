/**
 * Distinct strings of a text, each with a dense code in first-seen order, looked up by (hash, characters of a
 * range of the text) without making a string first: open addressing, grows at half full.
 */
export class InternTable {
  readonly values: string[] = [];
  private slots = new Int32Array(1024).fill(-1);
  private hashes = new Int32Array(1024);

  /** The code of text[from, to), whose hashOf is `hash`; a string not seen before gets the next code. */
  code(text: string, from: number, to: number, hash: number): number {
    const len = to - from;
    let mask = this.slots.length - 1;
    let k = hash & mask;
    for (let c = this.slots[k]; c >= 0; c = this.slots[(k = (k + 1) & mask)]) {
      if (this.hashes[k] === hash && this.values[c].length === len && same(this.values[c], text, from)) return c;
    }
    const code = this.values.length;
    this.values.push(text.slice(from, to));
    if (this.values.length * 2 > this.slots.length) {
      this.grow();
      mask = this.slots.length - 1;
      for (k = hash & mask; this.slots[k] >= 0; k = (k + 1) & mask);
    }
    this.slots[k] = code;
    this.hashes[k] = hash;
    return code;
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

/** The hash InternTable expects: h = h·31 + charCode, in 32 bits, over text[from, to). */
export function hashOf(text: string, from = 0, to = text.length): number {
  let hash = 0;
  for (let i = from; i < to; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}

function same(s: string, text: string, from: number): boolean {
  for (let j = 0; j < s.length; j++) if (s.charCodeAt(j) !== text.charCodeAt(from + j)) return false;
  return true;
}
