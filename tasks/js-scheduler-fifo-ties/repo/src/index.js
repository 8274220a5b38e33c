export { ManualClock } from "./clock.js";
export { Heap } from "./heap.js";
export { Scheduler } from "./scheduler.js";
