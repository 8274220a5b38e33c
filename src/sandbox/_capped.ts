/** The text of a stream read with a cap, as a run's result holds it. Private to `src/sandbox/`. */

/**
 * A stream's text from the `head` and `tail` kept of its `total` bytes, with a line that says
 * how much is left out between them (what a capped read of `cap` bytes keeps).
 */
export function cappedText(head: Uint8Array, tail: Uint8Array, total: number, cap: number): string {
  const decoder = new TextDecoder();
  const omitted = total - head.length - tail.length;
  if (omitted <= 0) return decoder.decode(head) + decoder.decode(tail);
  return `${
    decoder.decode(head)
  }\n[... ${omitted} bytes omitted: output capped at ${cap} bytes, first and last parts kept ...]\n${
    decoder.decode(tail)
  }`;
}
