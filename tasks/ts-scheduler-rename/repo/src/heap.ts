/** A binary heap ordered by a comparator (smallest first by default). */

export type Compare<T> = (a: T, b: T) => number;

export class BinaryHeap<T> {
  #items: T[] = [];

  /** `compare(a, b) < 0` means `a` comes out before `b`. */
  constructor(private readonly compare: Compare<T> = (a, b) => (a < b ? -1 : a > b ? 1 : 0)) {}

  get size(): number {
    return this.#items.length;
  }

  push(...items: T[]): void {
    for (const item of items) {
      this.#items.push(item);
      this.#siftUp(this.#items.length - 1);
    }
  }

  /** The item that comes out first, without removing it. */
  peekMin(): T | undefined {
    return this.#items[0];
  }

  /** Remove and return the item that comes out first. */
  popMin(): T | undefined {
    const items = this.#items;
    if (items.length === 0) return undefined;
    const top = items[0];
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      this.#siftDown(0);
    }
    return top;
  }

  #siftUp(i: number): void {
    const items = this.#items;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(items[i], items[parent]) >= 0) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  #siftDown(i: number): void {
    const items = this.#items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < items.length && this.compare(items[l], items[best]) < 0) best = l;
      if (r < items.length && this.compare(items[r], items[best]) < 0) best = r;
      if (best === i) return;
      [items[i], items[best]] = [items[best], items[i]];
      i = best;
    }
  }
}
