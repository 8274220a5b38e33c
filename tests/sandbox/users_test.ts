import assert from "node:assert/strict";
import { SandboxError } from "../../src/errors.ts";
import { DEFAULT_USER_RANGE, parseUserRange } from "../../src/sandbox/users.ts";

Deno.test("parseUserRange() reads FIRST-LAST inclusive", () => {
  assert.deepEqual(parseUserRange("1500000000-1500001023"), DEFAULT_USER_RANGE);
  assert.deepEqual(parseUserRange(" 100000-100007 "), { first: 100000, count: 8 });
});

// Red team (issue 26): a range from 1000 made sandboxes run as login users' uids.
Deno.test("parseUserRange() refuses login and system users' uids, reversed and malformed ranges", () => {
  for (const text of ["1000-2000", "61184-65535", "0-10", "200000-100000", "abc", "5-", ""]) {
    assert.throws(() => parseUserRange(text), (error: unknown) => {
      assert.ok(error instanceof SandboxError);
      assert.match(
        error.message,
        /^Cannot use sandbox uids ".*": expected FIRST-LAST with 65536 <=/,
      );
      return true;
    }, text);
  }
});
