export { type Edge, Graph } from "./graph.ts";
export { MinHeap } from "./heap.ts";
export { dijkstra, NegativeWeightError, type PathResult, shortestPath } from "./shortest.ts";
export { CycleError, dagShortestPaths, topologicalSort } from "./topo.ts";
