/**
 * A binary heap ordered by a comparator. `compare(a, b) < 0` means `a` comes out first, so the
 * default numeric comparator gives a min-heap and `(a, b) => b - a` a max-heap.
 *
 * Stored as an implicit tree in an array: the children of slot `i` are `2i + 1` and `2i + 2`.
 */

/** Orders two items; negative when `a` should be popped before `b`. */
export type Comparator<T> = (a: T, b: T) => number;

/** Ascending numeric order. */
export const ascending: Comparator<number> = (a, b) => a - b;

/** A priority queue backed by an array heap. */
export class BinaryHeap<T> {
  #items: T[] = [];
  readonly #compare: Comparator<T>;

  constructor(compare: Comparator<T>, items: Iterable<T> = []) {
    this.#compare = compare;
    this.#items = [...items];
    // Floyd's bottom-up heapify: O(n) instead of n pushes.
    for (let i = (this.#items.length >> 1) - 1; i >= 0; i--) this.#siftDown(i);
  }

  /** Number of queued items. */
  get size(): number {
    return this.#items.length;
  }

  /** True when nothing is queued. */
  isEmpty(): boolean {
    return this.#items.length === 0;
  }

  /** Adds an item. */
  push(item: T): void {
    this.#items.push(item);
    this.#siftUp(this.#items.length - 1);
  }

  /** The next item without removing it, or `undefined` when empty. */
  peek(): T | undefined {
    return this.#items[0];
  }

  /** Removes and returns the next item, or `undefined` when empty. */
  pop(): T | undefined {
    const items = this.#items;
    if (items.length === 0) return undefined;
    const top = items[0];
    const last = items.pop() as T;
    if (items.length > 0) {
      items[0] = last;
      this.#siftDown(0);
    }
    return top;
  }

  /** Removes every item in priority order. */
  drain(): T[] {
    const out: T[] = [];
    while (!this.isEmpty()) out.push(this.pop() as T);
    return out;
  }

  #before(i: number, j: number): boolean {
    return this.#compare(this.#items[i], this.#items[j]) < 0;
  }

  #swap(i: number, j: number): void {
    const items = this.#items;
    [items[i], items[j]] = [items[j], items[i]];
  }

  #siftUp(index: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#before(i, parent)) break;
      this.#swap(i, parent);
      i = parent;
    }
  }

  #siftDown(index: number): void {
    const n = this.#items.length;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < n && this.#before(left, best)) best = left;
      if (right < n - 1 && this.#before(right, best)) best = right;
      if (best === i) return;
      this.#swap(i, best);
      i = best;
    }
  }
}
