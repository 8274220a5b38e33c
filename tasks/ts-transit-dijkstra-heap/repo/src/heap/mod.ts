/** Priority queues. */
export { ascending, BinaryHeap } from "./binary_heap.ts";
export type { Comparator } from "./binary_heap.ts";
