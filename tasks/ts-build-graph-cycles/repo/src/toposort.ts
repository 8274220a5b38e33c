/** Build ordering (Kahn's algorithm) with deterministic, alphabetical tie-breaking. */
import { DepGraph } from "./graph.ts";
import { CycleError, findCycle } from "./cycle.ts";

function insertSorted(list: string[], item: string): void {
  let i = 0;
  while (i < list.length && list[i] < item) i++;
  list.splice(i, 0, item);
}

function indegrees(graph: DepGraph): Map<string, number> {
  return new Map(graph.nodes().map((n) => [n, graph.dependenciesOf(n).length]));
}

function fail(graph: DepGraph): never {
  throw new CycleError(findCycle(graph) ?? []);
}

/** A build order: every node appears after all of its dependencies. */
export function buildOrder(graph: DepGraph): string[] {
  const indegree = indegrees(graph);
  const ready = [...indegree].filter(([, d]) => d === 0).map(([n]) => n);
  const order: string[] = [];
  while (ready.length > 0) {
    const node = ready.shift()!;
    order.push(node);
    for (const user of graph.dependentsOf(node)) {
      const left = indegree.get(user)! - 1;
      indegree.set(user, left);
      if (left === 0) insertSorted(ready, user);
    }
  }
  if (order.length !== indegree.size) fail(graph);
  return order;
}

/** Nodes grouped into batches that can be built in parallel, in order. */
export function buildLayers(graph: DepGraph): string[][] {
  const indegree = indegrees(graph);
  let layer = [...indegree].filter(([, d]) => d === 0).map(([n]) => n);
  const layers: string[][] = [];
  let seen = 0;
  while (layer.length > 0) {
    layers.push(layer);
    seen += layer.length;
    const next: string[] = [];
    for (const node of layer) {
      for (const user of graph.dependentsOf(node)) {
        const left = indegree.get(user)! - 1;
        indegree.set(user, left);
        if (left === 0) next.push(user);
      }
    }
    layer = next.sort();
  }
  if (seen !== indegree.size) fail(graph);
  return layers;
}

/** Everything that must be rebuilt when `changed` nodes change, in build order. */
export function affected(graph: DepGraph, changed: string[]): string[] {
  const hit = new Set<string>();
  const queue = [...changed];
  while (queue.length > 0) {
    const node = queue.pop()!;
    if (hit.has(node)) continue;
    hit.add(node);
    queue.push(...graph.dependentsOf(node));
  }
  return buildOrder(graph).filter((n) => hit.has(n));
}
