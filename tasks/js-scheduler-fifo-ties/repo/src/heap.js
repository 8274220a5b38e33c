/** A binary min-heap ordered by `compare(a, b)` (negative: a comes first). */
export class Heap {
  constructor(compare) {
    this.compare = compare;
    this.items = [];
  }

  get size() {
    return this.items.length;
  }

  peek() {
    return this.items[0];
  }

  push(item) {
    this.items.push(item);
    this.#up(this.items.length - 1);
  }

  pop() {
    const items = this.items;
    if (items.length === 0) return undefined;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0) {
      items[0] = last;
      this.#down(0);
    }
    return top;
  }

  /** Remove every item for which `predicate` is true; returns how many were removed. */
  removeWhere(predicate) {
    const kept = this.items.filter((item) => !predicate(item));
    const removed = this.items.length - kept.length;
    this.items = [];
    for (const item of kept) this.push(item);
    return removed;
  }

  #up(index) {
    const items = this.items;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.compare(items[index], items[parent]) >= 0) break;
      [items[index], items[parent]] = [items[parent], items[index]];
      index = parent;
    }
  }

  #down(index) {
    const items = this.items;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < items.length && this.compare(items[left], items[smallest]) < 0) smallest = left;
      if (right < items.length && this.compare(items[right], items[smallest]) < 0) smallest = right;
      if (smallest === index) return;
      [items[index], items[smallest]] = [items[smallest], items[index]];
      index = smallest;
    }
  }
}
