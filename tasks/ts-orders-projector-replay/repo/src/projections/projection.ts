/**
 * The projection contract: a read model built by folding every event in order.
 */
import type { StoredEvent } from "../events/types.ts";

/** A read model fed by the projector. */
export interface Projection {
  /** Unique name, used for checkpoints. */
  readonly name: string;
  /** Applies one event; called exactly once per event, in position order. */
  apply(stored: StoredEvent): void;
  /** Forgets everything (for rebuilds). */
  reset(): void;
}
