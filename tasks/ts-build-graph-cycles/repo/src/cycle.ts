/** Cycle detection for dependency graphs. */
import { DepGraph } from "./graph.ts";

/** Thrown when a graph has no valid build order. */
export class CycleError extends Error {
  /** The cycle as a path that starts and ends with the same node, e.g. ["a", "b", "a"]. */
  readonly cycle: string[];

  constructor(cycle: string[]) {
    super(`dependency cycle: ${cycle.join(" -> ")}`);
    this.name = "CycleError";
    this.cycle = cycle;
  }
}

/**
 * Find one cycle, following "depends on" edges, or return null.
 * The result contains only the nodes on the cycle, e.g. ["core", "util", "core"];
 * exploration is in sorted order so the answer is deterministic.
 */
export function findCycle(graph: DepGraph): string[] | null {
  const state = new Map<string, "active" | "done">();
  const stack: string[] = [];

  const visit = (node: string): string[] | null => {
    state.set(node, "active");
    stack.push(node);
    for (const dep of graph.dependenciesOf(node)) {
      if (state.get(dep) === "active") return [...stack, dep];
      if (!state.has(dep)) {
        const found = visit(dep);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, "done");
    return null;
  };

  for (const node of graph.nodes()) {
    if (!state.has(node)) {
      const found = visit(node);
      if (found) return found;
    }
  }
  return null;
}
