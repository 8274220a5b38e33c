/** Weighted graphs with string node ids. */

export interface Edge {
  to: string;
  weight: number;
}

export class Graph {
  readonly #adjacency = new Map<string, Edge[]>();

  /** `directed: false` stores every edge in both directions. */
  constructor(readonly directed = true) {}

  addNode(id: string): this {
    if (!this.#adjacency.has(id)) this.#adjacency.set(id, []);
    return this;
  }

  /** Adds an edge; a second edge between the same nodes replaces the first's weight. */
  addEdge(from: string, to: string, weight = 1): this {
    if (!Number.isFinite(weight)) throw new RangeError(`edge ${from}->${to}: weight must be finite`);
    this.#link(from, to, weight);
    if (!this.directed) this.#link(to, from, weight);
    return this;
  }

  #link(from: string, to: string, weight: number): void {
    this.addNode(from).addNode(to);
    const edges = this.#adjacency.get(from)!;
    const existing = edges.find((e) => e.to === to);
    if (existing) existing.weight = weight;
    else edges.push({ to, weight });
  }

  has(id: string): boolean {
    return this.#adjacency.has(id);
  }

  /** Node ids in insertion order. */
  nodes(): string[] {
    return [...this.#adjacency.keys()];
  }

  /** Outgoing edges of `id` in insertion order ([] for unknown nodes). */
  edgesFrom(id: string): readonly Edge[] {
    return this.#adjacency.get(id) ?? [];
  }

  /** Number of incoming edges per node. */
  inDegrees(): Map<string, number> {
    const degrees = new Map(this.nodes().map((n) => [n, 0]));
    for (const n of this.nodes()) {
      for (const e of this.edgesFrom(n)) degrees.set(e.to, degrees.get(e.to)! + 1);
    }
    return degrees;
  }
}
