/**
 * A weighted directed graph with string node ids, stored as adjacency lists.
 */

/** An outgoing edge. */
export interface Edge {
  to: string;
  weight: number;
  /** Free-form label, e.g. the transit line that runs this edge. */
  label?: string;
}

/** Adjacency-list graph; nodes are created on first mention. */
export class Graph {
  #adjacency = new Map<string, Edge[]>();

  /** Adds a node with no edges (no-op when it exists). */
  addNode(id: string): this {
    if (!this.#adjacency.has(id)) this.#adjacency.set(id, []);
    return this;
  }

  /** Adds a directed edge; weights must be finite and non-negative. */
  addEdge(from: string, to: string, weight: number, label?: string): this {
    if (!Number.isFinite(weight) || weight < 0) {
      throw new RangeError(`edge ${from} -> ${to}: weight must be a non-negative number, got ${weight}`);
    }
    this.addNode(from).addNode(to);
    this.#adjacency.get(from)!.push({ to, weight, label });
    return this;
  }

  /** Adds edges both ways with the same weight. */
  addUndirected(a: string, b: string, weight: number, label?: string): this {
    return this.addEdge(a, b, weight, label).addEdge(b, a, weight, label);
  }

  /** True when the node exists. */
  has(id: string): boolean {
    return this.#adjacency.has(id);
  }

  /** Outgoing edges of a node (empty for unknown nodes). */
  edges(id: string): readonly Edge[] {
    return this.#adjacency.get(id) ?? [];
  }

  /** All node ids in insertion order. */
  nodes(): string[] {
    return [...this.#adjacency.keys()];
  }
}
