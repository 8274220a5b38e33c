/** Public entry point. */
export { BinaryHeap } from "./heap.ts";
export type { Compare } from "./heap.ts";
export { TaskSchedular } from "./scheduler.ts";
export type { Job } from "./scheduler.ts";
