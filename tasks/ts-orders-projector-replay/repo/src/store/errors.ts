/**
 * Event store errors.
 */

/** Another writer appended to the stream first. */
export class ConcurrencyError extends Error {
  constructor(readonly streamId: string, readonly expected: number, readonly actual: number) {
    super(`stream ${streamId}: expected version ${expected}, found ${actual}`);
    this.name = "ConcurrencyError";
  }
}
