/**
 * A typed event emitter.
 *
 * ```ts
 * const bus = new Emitter<{ saved: [id: string] }>();
 * bus.on("saved", (id) => console.log(id));
 * bus.emit("saved", "42");
 * ```
 *
 * Listeners run synchronously, highest priority first and in registration
 * order within a priority. The set of listeners is fixed when `emit` starts:
 * listeners added or removed while an event is being emitted only affect
 * later emits. A throwing listener does not stop the others; the errors are
 * rethrown together as an AggregateError once all listeners ran.
 */
import { AddOptions, ListenerList } from "./listeners.ts";

// deno-lint-ignore no-explicit-any
type EventMap = Record<string, any[]>;
type Handler<A extends unknown[]> = (...args: A) => void;

export class Emitter<E extends EventMap> {
  // deno-lint-ignore no-explicit-any
  #lists = new Map<keyof E, ListenerList<Handler<any>>>();

  #list<K extends keyof E>(event: K): ListenerList<Handler<E[K]>> {
    let list = this.#lists.get(event);
    if (!list) {
      list = new ListenerList();
      this.#lists.set(event, list);
    }
    return list;
  }

  /** Subscribe; returns a function that unsubscribes. */
  on<K extends keyof E>(event: K, fn: Handler<E[K]>, options: { priority?: number } = {}): () => void {
    const entry = this.#list(event).add(fn, { priority: options.priority });
    return () => void this.#lists.get(event)?.delete(entry);
  }

  /** Subscribe for a single call. */
  once<K extends keyof E>(event: K, fn: Handler<E[K]>, options: { priority?: number } = {}): () => void {
    const opts: AddOptions = { once: true, priority: options.priority };
    const entry = this.#list(event).add(fn, opts);
    return () => void this.#lists.get(event)?.delete(entry);
  }

  /** Remove a listener registered with `on` or `once`. */
  off<K extends keyof E>(event: K, fn: Handler<E[K]>): boolean {
    return this.#lists.get(event)?.remove(fn) ?? false;
  }

  /** Call every listener of `event`; returns how many were called. */
  emit<K extends keyof E>(event: K, ...args: E[K]): number {
    const list = this.#lists.get(event);
    if (!list) return 0;
    const errors: unknown[] = [];
    let called = 0;
    for (const entry of list.entries) {
      if (entry.once) list.delete(entry);
      called++;
      try {
        entry.fn(...args);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} listener(s) failed`);
    return called;
  }

  listenerCount<K extends keyof E>(event: K): number {
    return this.#lists.get(event)?.size ?? 0;
  }
}
