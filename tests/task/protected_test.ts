import assert from "node:assert/strict";
import { isProtected } from "../../src/task/protected.ts";

Deno.test("isProtected() covers a folder prefix, the folder itself and everything under it", () => {
  const paths = ["tests/"];
  assert.equal(isProtected(paths, "tests"), true);
  assert.equal(isProtected(paths, "tests/test_a.py"), true);
  assert.equal(isProtected(paths, "tests/deep/test_b.py"), true);
  assert.equal(isProtected(paths, "tests_extra/test_a.py"), false);
  assert.equal(isProtected(paths, "src/tests.py"), false);
});

Deno.test("isProtected() covers a named file and, for a folder named without a slash, its contents", () => {
  const paths = ["setup.py", "fixtures"];
  assert.equal(isProtected(paths, "setup.py"), true);
  assert.equal(isProtected(paths, "setup.pyc"), false);
  assert.equal(isProtected(paths, "fixtures/data.json"), true);
  assert.equal(isProtected(paths, "fixtures2/data.json"), false);
  assert.equal(isProtected([], "anything"), false);
});
