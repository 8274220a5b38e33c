/**
 * A dependency graph between named packages. `addDependency("app", "lib")`
 * means "app depends on lib", so lib must be built before app.
 */
export class DepGraph {
  #dependencies = new Map<string, Set<string>>();
  #dependents = new Map<string, string[]>();

  /** Add a node (no-op when it exists). */
  addNode(name: string): this {
    if (!this.#dependencies.has(name)) {
      this.#dependencies.set(name, new Set());
      this.#dependents.set(name, []);
    }
    return this;
  }

  /** Record that `from` depends on `to`; both nodes are created as needed. */
  addDependency(from: string, to: string): this {
    this.addNode(from).addNode(to);
    this.#dependencies.get(from)!.add(to);
    this.#dependents.get(to)!.push(from);
    return this;
  }

  /** Remove a node and every edge touching it. */
  removeNode(name: string): this {
    for (const dep of this.#dependencies.get(name) ?? []) {
      this.#dependents.set(dep, this.#dependents.get(dep)!.filter((n) => n !== name));
    }
    for (const user of this.#dependents.get(name) ?? []) {
      this.#dependencies.get(user)!.delete(name);
    }
    this.#dependencies.delete(name);
    this.#dependents.delete(name);
    return this;
  }

  hasNode(name: string): boolean {
    return this.#dependencies.has(name);
  }

  /** All node names, sorted. */
  nodes(): string[] {
    return [...this.#dependencies.keys()].sort();
  }

  /** Direct dependencies of a node, sorted. */
  dependenciesOf(name: string): string[] {
    return [...this.#require(name, this.#dependencies)].sort();
  }

  /** Direct dependents (nodes that depend on `name`), sorted. */
  dependentsOf(name: string): string[] {
    return [...this.#require(name, this.#dependents)].sort();
  }

  #require<T>(name: string, map: Map<string, T>): T {
    const value = map.get(name);
    if (value === undefined) throw new RangeError(`unknown node ${JSON.stringify(name)}`);
    return value;
  }
}
