import assert from "node:assert/strict";
import { isRetryableStatus, retryAfterMs, withHttpRetry } from "../src/mod.ts";

Deno.test("isRetryableStatus", () => {
  assert.deepEqual([200, 404, 408, 429, 500, 501, 503].map(isRetryableStatus), [false, false, true, true, true, false, true]);
});

Deno.test("retryAfterMs reads seconds and dates", () => {
  assert.equal(retryAfterMs("3", 0), 3000);
  assert.equal(retryAfterMs("Wed, 21 Oct 2015 07:28:10 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT")), 10_000);
  assert.equal(retryAfterMs("soon", 0), undefined);
  assert.equal(retryAfterMs(null, 0), undefined);
});

Deno.test("withHttpRetry retries 503 and returns the final response", async () => {
  const statuses = [503, 503, 200];
  const res = await withHttpRetry(() => Promise.resolve({ status: statuses.shift()!, headers: new Headers({ "retry-after": "0" }) }));
  assert.equal(res.status, 200);
  assert.equal(statuses.length, 0);
});

Deno.test("withHttpRetry does not retry 404", async () => {
  let calls = 0;
  const res = await withHttpRetry(() => (calls++, Promise.resolve({ status: 404, headers: new Headers() })));
  assert.equal(res.status, 404);
  assert.equal(calls, 1);
});
