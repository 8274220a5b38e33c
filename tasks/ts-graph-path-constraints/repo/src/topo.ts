/** Topological ordering and shortest paths in directed acyclic graphs. */
import type { Graph } from "./graph.ts";

export class CycleError extends Error {
  constructor(readonly remaining: string[]) {
    super(`graph has a cycle through ${remaining.join(", ")}`);
    this.name = "CycleError";
  }
}

/** Kahn's algorithm; ready nodes are taken in insertion order. Throws CycleError. */
export function topologicalSort(graph: Graph): string[] {
  const degrees = graph.inDegrees();
  const queue = graph.nodes().filter((n) => degrees.get(n) === 0);
  const order: string[] = [];
  while (queue.length > 0) {
    const node = queue.shift()!;
    order.push(node);
    for (const { to } of graph.edgesFrom(node)) {
      degrees.set(to, degrees.get(to)! - 1);
      if (degrees.get(to) === 0) queue.push(to);
    }
  }
  if (order.length !== graph.nodes().length) {
    throw new CycleError(graph.nodes().filter((n) => !order.includes(n)));
  }
  return order;
}

/** Shortest distances from `source` in a DAG; negative weights are fine here. */
export function dagShortestPaths(graph: Graph, source: string): Map<string, number> {
  const dist = new Map<string, number>([[source, 0]]);
  for (const node of topologicalSort(graph)) {
    const d = dist.get(node);
    if (d === undefined) continue;
    for (const { to, weight } of graph.edgesFrom(node)) {
      if (d + weight < (dist.get(to) ?? Infinity)) dist.set(to, d + weight);
    }
  }
  return dist;
}
