/** Weighted graphs and shortest paths. */
export { Graph } from "./graph.ts";
export type { Edge } from "./graph.ts";
export { shortestPaths } from "./dijkstra.ts";
export type { ShortestPaths } from "./dijkstra.ts";
export { routeTo } from "./path.ts";
export type { Route } from "./path.ts";
