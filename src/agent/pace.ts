/**
 * Episodes share the event loop in slices. When many episodes' model answers arrive together (or
 * a batch starts), each one's continuation (a tool, a grading step, a record) would run back to
 * back in one task of the loop, and timers, a server's requests and the pool's messages would wait
 * for all of them. Continuations that `await pace()` are resumed one at a time, first come first
 * served, while the current slice has run them for less than {@linkcode SLICE_MS}; the rest wait
 * for a later task of the loop. The work is the same; nothing else waits much longer than a slice.
 */

/** How long one task of the event loop resumes continuations before others get their turn, ms. */
const SLICE_MS = 2;

/** Continuations waiting to be resumed, oldest first. */
const waiting: (() => void)[] = [];
/** Whether continuations are being resumed (or a later task will resume them). */
let resuming = false;
/** When the current slice began resuming continuations, or -1 between bursts. */
let sliceStart = -1;

/** Resolves when it is this continuation's turn: at once in a quiet loop, later in a burst. */
export function pace(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!resuming) {
      resuming = true;
      queueMicrotask(resumeNext);
    }
  });
}

/** Resumes the oldest waiting continuation, and comes back once it has reached its next wait. */
function resumeNext(): void {
  if (waiting.length === 0) {
    // The burst is over: the next one starts a slice of its own.
    resuming = false;
    sliceStart = -1;
    return;
  }
  const now = performance.now();
  if (sliceStart < 0) sliceStart = now;
  else if (now - sliceStart >= SLICE_MS) {
    // A timer, not an immediate: Deno polls timers and I/O before it (about 2 ms here).
    setTimeout(resumeLater, 0);
    return;
  }
  waiting.shift()!();
  // Queued behind the continuation's resumption, so it runs once that part is done.
  queueMicrotask(resumeNext);
}

/** A later task of the loop: a new slice. */
function resumeLater(): void {
  sliceStart = -1;
  resumeNext();
}
