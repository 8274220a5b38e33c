/**
 * Reading a concrete route out of a {@linkcode ShortestPaths} result.
 */
import type { Edge } from "./graph.ts";
import type { ShortestPaths } from "./dijkstra.ts";

/** A route: the nodes visited in order, the edges taken and the total weight. */
export interface Route {
  nodes: string[];
  edges: Edge[];
  total: number;
}

/** The route from the source to `target`, or `null` when it is unreachable. */
export function routeTo(paths: ShortestPaths, target: string): Route | null {
  const total = paths.distance.get(target);
  if (total === undefined) return null;
  const nodes = [target];
  const edges: Edge[] = [];
  let at = target;
  while (at !== paths.source) {
    const step = paths.previous.get(at);
    if (!step) return null;
    edges.unshift(step.edge);
    nodes.unshift(step.from);
    at = step.from;
  }
  return { nodes, edges, total };
}
