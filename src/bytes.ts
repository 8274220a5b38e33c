/** Byte arrays joined: one piece of code for every stream read in parts. */

/**
 * The first `length` bytes of `parts` (all of them by default) as one array: `parts[0]` itself, or
 * the start of it, when it holds them all (so the result may share memory with it).
 */
export function concat(
  parts: readonly Uint8Array[],
  length: number = parts.reduce((sum, part) => sum + part.length, 0),
): Uint8Array {
  if (parts.length > 0 && parts[0].length >= length) return parts[0].subarray(0, length);
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    if (at >= length) break;
    const piece = part.subarray(0, length - at);
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/**
 * A copy of `bytes` in memory that threads share: posted to a worker (the spawner thread), it is
 * shared, not copied. For bytes that never change once made.
 */
export function shared(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(new SharedArrayBuffer(bytes.length));
  copy.set(bytes);
  return copy;
}
