/** Shortest paths with Dijkstra's algorithm (non-negative weights only). */
import type { Graph } from "./graph.ts";
import { MinHeap } from "./heap.ts";

/** A path and its total weight. */
export interface PathResult {
  cost: number;
  path: string[];
}

export class NegativeWeightError extends Error {
  constructor(from: string, to: string) {
    super(`edge ${from}->${to} has a negative weight; use dagShortestPaths for DAGs`);
    this.name = "NegativeWeightError";
  }
}

/** Distances from `source` to every reachable node, and each node's predecessor. */
export function dijkstra(graph: Graph, source: string): { dist: Map<string, number>; prev: Map<string, string> } {
  const dist = new Map<string, number>([[source, 0]]);
  const prev = new Map<string, string>();
  const done = new Set<string>();
  const heap = new MinHeap<string>();
  heap.push(source, 0);
  while (heap.size > 0) {
    const { value: node, priority } = heap.pop()!;
    if (done.has(node)) continue;
    done.add(node);
    for (const { to, weight } of graph.edgesFrom(node)) {
      if (weight < 0) throw new NegativeWeightError(node, to);
      const candidate = priority + weight;
      if (candidate < (dist.get(to) ?? Infinity)) {
        dist.set(to, candidate);
        prev.set(to, node);
        heap.push(to, candidate);
      }
    }
  }
  return { dist, prev };
}

/** The cheapest path from `from` to `to`, or null when `to` is unreachable. */
export function shortestPath(graph: Graph, from: string, to: string): PathResult | null {
  if (!graph.has(from) || !graph.has(to)) return null;
  const { dist, prev } = dijkstra(graph, from);
  const cost = dist.get(to);
  if (cost === undefined) return null;
  const path = [to];
  while (path[0] !== from) path.unshift(prev.get(path[0])!);
  return { cost, path };
}
