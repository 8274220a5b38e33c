import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { hmacSha256 } from "../src/hmac.ts";

Deno.test("hmacSha256() matches node:crypto's HMAC-SHA256 for every key length", () => {
  for (const length of [0, 1, 32, 63, 64, 65, 100]) {
    const key = crypto.getRandomValues(new Uint8Array(length));
    for (const payload of ["", "O passed 74657374\n", "é – ✓ 𝄞\n".repeat(100)]) {
      assert.deepEqual(
        [...hmacSha256(key, payload)],
        [...createHmac("sha256", key).update(payload, "utf8").digest()],
      );
    }
  }
});
