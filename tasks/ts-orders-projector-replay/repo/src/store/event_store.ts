/**
 * An in-memory, append-only event store with optimistic concurrency per stream.
 */
import type { OrderEvent, StoredEvent } from "../events/types.ts";
import { ConcurrencyError } from "./errors.ts";

/** Append-only event log. */
export class EventStore {
  #log: StoredEvent[] = [];
  #versions = new Map<string, number>();

  /**
   * Appends events to a stream. `expectedVersion` is the stream version the caller last saw
   * (0 for a new stream); a mismatch throws {@linkcode ConcurrencyError} and appends nothing.
   */
  append(streamId: string, expectedVersion: number, events: OrderEvent[]): StoredEvent[] {
    const current = this.#versions.get(streamId) ?? 0;
    if (current !== expectedVersion) throw new ConcurrencyError(streamId, expectedVersion, current);
    const stored = events.map((event, i) => ({
      position: this.#log.length + i + 1,
      streamId,
      version: current + i + 1,
      event: structuredClone(event),
    }));
    this.#log.push(...stored);
    this.#versions.set(streamId, current + events.length);
    return stored;
  }

  /** Events of one stream, oldest first. */
  readStream(streamId: string): StoredEvent[] {
    return this.#log.filter((e) => e.streamId === streamId);
  }

  /** Events after global position `after` (0 for everything), oldest first. */
  readAll(after = 0): StoredEvent[] {
    return this.#log.filter((e) => e.position >= after);
  }

  /** Current version of a stream (0 when it does not exist). */
  version(streamId: string): number {
    return this.#versions.get(streamId) ?? 0;
  }

  /** Position of the last event (0 when empty). */
  get head(): number {
    return this.#log.length;
  }
}
