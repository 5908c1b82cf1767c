/** A binary min-heap of timed events ordered by (time, seq): deterministic for equal times. */
export interface TimedEvent {
  time: number;
  seq: number;
}

export class EventHeap<T extends TimedEvent> {
  constructor(private readonly items: T[] = []) {
    if (items.length > 0) {
      items.sort(compare);
    }
  }

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  toArray(): T[] {
    return this.items.slice();
  }

  push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (compare(a[i], a[p]) >= 0) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }

  pop(): T | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop() as T;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && compare(a[l], a[m]) < 0) m = l;
        if (r < a.length && compare(a[r], a[m]) < 0) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}

function compare(a: TimedEvent, b: TimedEvent): number {
  return a.time - b.time || a.seq - b.seq;
}
