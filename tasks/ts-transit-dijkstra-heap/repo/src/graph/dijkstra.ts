/**
 * Single-source shortest paths (Dijkstra) with a binary heap and lazy deletion: a node may sit in
 * the queue several times, and only its first pop (the smallest distance) is settled.
 */
import { BinaryHeap } from "../heap/mod.ts";
import type { Edge, Graph } from "./graph.ts";

/** Distances and predecessor edges from one source. */
export interface ShortestPaths {
  source: string;
  /** Settled distance of every reachable node. */
  distance: Map<string, number>;
  /** For each reachable node but the source, the node and edge it is reached through. */
  previous: Map<string, { from: string; edge: Edge }>;
}

interface Entry {
  node: string;
  distance: number;
}

/** Shortest distances from `source` to every reachable node. */
export function shortestPaths(graph: Graph, source: string): ShortestPaths {
  if (!graph.has(source)) throw new Error(`unknown node "${source}"`);
  const distance = new Map<string, number>([[source, 0]]);
  const previous = new Map<string, { from: string; edge: Edge }>();
  const settled = new Set<string>();
  const queue = new BinaryHeap<Entry>((a, b) => a.distance - b.distance, [{ node: source, distance: 0 }]);
  while (!queue.isEmpty()) {
    const { node, distance: d } = queue.pop()!;
    if (settled.has(node)) continue;
    settled.add(node);
    for (const edge of graph.edges(node)) {
      if (settled.has(edge.to)) continue;
      const candidate = d + edge.weight;
      const known = distance.get(edge.to);
      if (known === undefined || candidate < known) {
        distance.set(edge.to, candidate);
        previous.set(edge.to, { from: node, edge });
        queue.push({ node: edge.to, distance: candidate });
      }
    }
  }
  return { source, distance, previous };
}
