/**
 * Picking the k largest items from a stream with a bounded min-heap: O(n log k) time, O(k) memory.
 */
import { BinaryHeap } from "../heap/mod.ts";

/** The `k` items with the highest `score`, best first; ties keep no particular order. */
export function topK<T>(items: Iterable<T>, k: number, score: (item: T) => number): T[] {
  if (k <= 0) return [];
  const heap = new BinaryHeap<{ item: T; score: number }>((a, b) => a.score - b.score);
  for (const item of items) {
    const s = score(item);
    if (heap.size < k) heap.push({ item, score: s });
    else if (s > heap.peek()!.score) {
      heap.pop();
      heap.push({ item, score: s });
    }
  }
  return heap.drain().reverse().map((entry) => entry.item);
}
