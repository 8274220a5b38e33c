/** An ordered list of listeners for one event. */

export interface ListenerEntry<F> {
  fn: F;
  /** Remove the entry right before its first call. */
  once: boolean;
  /** Higher runs first. */
  priority: number;
}

export interface AddOptions {
  once?: boolean;
  priority?: number;
}

/**
 * Keeps entries sorted by descending priority; entries with equal priority
 * stay in registration order.
 */
export class ListenerList<F> {
  #entries: ListenerEntry<F>[] = [];

  add(fn: F, options: AddOptions = {}): ListenerEntry<F> {
    const entry: ListenerEntry<F> = { fn, once: options.once ?? false, priority: options.priority ?? 0 };
    let index = this.#entries.findIndex((e) => e.priority <= entry.priority);
    if (index < 0) index = this.#entries.length;
    this.#entries.splice(index, 0, entry);
    return entry;
  }

  /** Remove the first entry registered with `fn`; returns whether one was found. */
  remove(fn: F): boolean {
    const index = this.#entries.findIndex((e) => e.fn === fn);
    if (index < 0) return false;
    this.#entries.splice(index, 1);
    return true;
  }

  /** Remove one specific entry. */
  delete(entry: ListenerEntry<F>): boolean {
    const index = this.#entries.indexOf(entry);
    if (index < 0) return false;
    this.#entries.splice(index, 1);
    return true;
  }

  /** The live entries, highest priority first. */
  get entries(): readonly ListenerEntry<F>[] {
    return this.#entries;
  }

  get size(): number {
    return this.#entries.length;
  }
}
