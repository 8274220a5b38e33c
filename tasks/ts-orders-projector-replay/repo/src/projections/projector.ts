/**
 * Feeds projections from the store. Each projection has a checkpoint (the last position it has
 * applied), so `catchUp()` can be called any number of times and only new events are applied.
 */
import type { EventStore } from "../store/event_store.ts";
import type { Projection } from "./projection.ts";

/** Runs a set of projections against one store. */
export class Projector {
  #checkpoints = new Map<string, number>();

  constructor(readonly store: EventStore, readonly projections: Projection[]) {
    for (const p of projections) this.#checkpoints.set(p.name, 0);
  }

  /** Applies every event newer than each projection's checkpoint; returns how many were applied. */
  catchUp(): number {
    let applied = 0;
    for (const projection of this.projections) {
      const checkpoint = this.#checkpoints.get(projection.name)!;
      for (const stored of this.store.readAll(checkpoint)) {
        projection.apply(stored);
        this.#checkpoints.set(projection.name, stored.position);
        applied++;
      }
    }
    return applied;
  }

  /** Resets a projection and replays it from the beginning. */
  rebuild(name: string): void {
    const projection = this.projections.find((p) => p.name === name);
    if (!projection) throw new Error(`unknown projection "${name}"`);
    projection.reset();
    this.#checkpoints.set(name, 0);
    this.catchUp();
  }

  /** Last applied position of a projection. */
  checkpoint(name: string): number {
    const value = this.#checkpoints.get(name);
    if (value === undefined) throw new Error(`unknown projection "${name}"`);
    return value;
  }
}
