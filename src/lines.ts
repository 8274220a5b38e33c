/**
 * Lines from a byte stream, bounded: a line longer than the cap is not kept whole (its
 * first bytes are, so an "id" can still be echoed) and the rest of it is skipped up to its
 * newline. Chunks are collected and joined once per line, so buffering is linear in the input.
 */

import { concat } from "./bytes.ts";

/** One line read, or one over the cap. */
export type LineEvent =
  | { kind: "line"; text: string }
  | {
    kind: "too_long";
    /** Bytes the line had (counted until its newline or the end of the input). */
    bytes: number;
    /** Its first bytes, decoded. */
    head: string;
  };

/** Bytes of an over-long line kept for its {@linkcode LineEvent} `head`. */
const HEAD_BYTES = 4096;
const NEWLINE = 0x0a;

/** Split `stream` into lines of at most `maxBytes` bytes (the newline not counted). */
export async function* readLines(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): AsyncGenerator<LineEvent> {
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  let size = 0;
  // Set while skipping the rest of a line over the cap.
  let skipped: { bytes: number; head: string } | null = null;
  const take = (chunk: Uint8Array) => {
    if (skipped) {
      skipped.bytes += chunk.length;
      return;
    }
    if (size + chunk.length > maxBytes) {
      const head = concat([...parts, chunk], Math.min(size + chunk.length, HEAD_BYTES));
      skipped = { bytes: size + chunk.length, head: decoder.decode(head) };
      parts = [];
      size = 0;
      return;
    }
    parts.push(chunk);
    size += chunk.length;
  };
  const end = (): LineEvent | null => {
    const event: LineEvent | null = skipped
      ? { kind: "too_long", ...skipped }
      : size > 0
      ? { kind: "line", text: decoder.decode(concat(parts, size)) }
      : null;
    parts = [];
    size = 0;
    skipped = null;
    return event;
  };
  for await (const chunk of stream) {
    let start = 0;
    for (
      let newline = chunk.indexOf(NEWLINE);
      newline !== -1;
      newline = chunk.indexOf(NEWLINE, start)
    ) {
      take(chunk.subarray(start, newline));
      const event = end();
      if (event) yield event;
      start = newline + 1;
    }
    // Copied: the stream may reuse its buffer.
    if (start < chunk.length) take(chunk.slice(start));
  }
  const last = end();
  if (last) yield last;
}
