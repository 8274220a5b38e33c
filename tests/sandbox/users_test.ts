import assert from "node:assert/strict";
import { SandboxError } from "../../src/errors.ts";
import { DEFAULT_USER_RANGE, parseUserRange, UserPool } from "../../src/sandbox/users.ts";

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

Deno.test("UserPool.tryLease() leases at once or not at all, from the upper half when asked", async () => {
  // A lock folder of its own: any user may take these locks (no uid is run as here).
  const lockDir = await Deno.makeTempDir({ prefix: "patchgym-uids-" });
  try {
    const range = { first: 1_600_000_000, count: 4 };
    const pool = new UserPool(range, lockDir);
    const upper = [pool.tryLease({ upperHalf: true }), pool.tryLease({ upperHalf: true })];
    assert.deepEqual(upper.map((l) => l?.uid).sort(), [range.first + 2, range.first + 3]);
    assert.equal(pool.tryLease({ upperHalf: true }), null, "the upper half is taken");
    const lower = [pool.tryLease(), pool.tryLease()];
    assert.deepEqual(lower.map((l) => l?.uid).sort(), [range.first, range.first + 1]);
    assert.equal(pool.tryLease(), null, "every uid is taken");
    const waiting = pool.lease();
    assert.equal(pool.waiting, 1);
    upper[0]!.release();
    assert.equal((await waiting).uid, upper[0]!.uid);
    assert.equal(pool.waiting, 0);
    for (const lease of [...upper, ...lower]) lease?.release();
  } finally {
    await Deno.remove(lockDir, { recursive: true });
  }
});
