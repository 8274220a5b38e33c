/**
 * routekit: priority queues, shortest paths and a small transit trip planner.
 */
export * from "./heap/mod.ts";
export * from "./graph/mod.ts";
export { buildNetwork, DEFAULT_TRANSFER_MINUTES } from "./transit/network.ts";
export type { Line } from "./transit/network.ts";
export { planTrip } from "./transit/planner.ts";
export type { Leg, Trip } from "./transit/planner.ts";
export { topK } from "./jobs/top_k.ts";
