/** 32-bit FNV-1a, as specified at http://www.isthe.com/chongo/tech/comp/fnv/. */

const OFFSET_BASIS = 0x811c9dc5;
const PRIME = 0x01000193;
const encoder = new TextEncoder();

/**
 * FNV-1a of the UTF-8 bytes of `input`. The result is the standard 32-bit value, e.g.
 * `fnv1a32("a")` is `0xe40c292c`.
 */
export function fnv1a32(input: string): number {
  let hash = OFFSET_BASIS;
  for (const byte of encoder.encode(input)) {
    hash ^= byte;
    hash = Math.imul(hash, PRIME);
  }
  return hash;
}
