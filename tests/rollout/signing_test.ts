/** Signed queue messages: what verify() accepts and refuses. */
import assert from "node:assert/strict";
import { MAX_AGE_MS, queueKey, sign, verify } from "../../src/rollout/signing.ts";

const KEY = queueKey("k".repeat(40), "test");
const OTHER = queueKey("o".repeat(40), "test");

Deno.test("verify() accepts a message signed with the key, for its kind and stream", () => {
  const checked = verify(KEY, "job", "q:jobs", sign(KEY, "job", "q:jobs", { task_id: "t" }));
  assert.equal(checked.ok, true);
  assert.deepEqual(checked.ok && checked.value, { task_id: "t" });
});

Deno.test("verify() refuses unsigned, foreign, altered, moved and stale messages", () => {
  const signed = sign(KEY, "result", "q:results:r", { reward: 0 });
  const reason = (text: string, kind: "job" | "result" = "result", scope = "q:results:r") => {
    const checked = verify(KEY, kind, scope, text);
    return checked.ok ? "ok" : checked.reason;
  };
  assert.equal(reason(JSON.stringify({ kind: "record", reward: 1 })), "unsigned");
  assert.equal(reason("not json"), "unsigned");
  assert.equal(reason(sign(OTHER, "result", "q:results:r", { reward: 1 })), "unknown_key");
  const altered = JSON.parse(signed);
  altered.body = JSON.stringify({ reward: 1 });
  assert.equal(reason(JSON.stringify(altered)), "forged");
  assert.equal(reason(signed, "result", "q:results:other"), "forged");
  assert.equal(reason(signed, "job"), "forged");
  const old = sign(KEY, "result", "q:results:r", {}, Date.now() - MAX_AGE_MS - 1000);
  assert.equal(reason(old), "expired");
  const future = sign(KEY, "result", "q:results:r", {}, Date.now() + 3600_000);
  assert.equal(reason(future), "expired");
});

Deno.test("queueKey() refuses a short key and names it by a hash, not its text", () => {
  assert.throws(() => queueKey("short", "test"), /at least 32/);
  assert.match(KEY.id, /^[0-9a-f]{16}$/);
});
