/** HMAC-SHA256 on `node:crypto`'s hashes: see {@linkcode hmacSha256}. */
import { createHash } from "node:crypto";

/**
 * HMAC-SHA256 (RFC 2104) of `payload`'s UTF-8 bytes under `key`, from two SHA-256 hashes:
 * `node:crypto`'s `createHmac` costs twice that in Deno, once per test run.
 */
export function hmacSha256(key: Uint8Array, payload: string): Uint8Array {
  const block = key.length > HMAC_BLOCK ? createHash("sha256").update(key).digest() : key;
  const inner = new Uint8Array(HMAC_BLOCK).fill(0x36);
  const outer = new Uint8Array(HMAC_BLOCK).fill(0x5c);
  for (let i = 0; i < block.length; i++) {
    inner[i] ^= block[i];
    outer[i] ^= block[i];
  }
  const hashed = createHash("sha256").update(inner).update(payload, "utf8").digest();
  return createHash("sha256").update(outer).update(hashed).digest();
}

/** SHA-256's block size in bytes. */
const HMAC_BLOCK = 64;
