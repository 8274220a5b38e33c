import assert from "node:assert/strict";
import { lineMap, ownTraceback, type TestSource } from "../../src/reward/traceback.ts";

const ORIGINAL = `import unittest


class T(unittest.TestCase):
    def test_sum(self):
        self.assertEqual(total([1, 2]), 3)
`;

// Renamed, a canary planted above the test (shifting its lines), its assertion rewritten.
const REWRITTEN = `import unittest


class T(unittest.TestCase):
    def test_canary1(self):
        self.assertEqual(1, 1)

    def test_fresh1(self):
        _patchgym_value = ${"x".repeat(300)}; self.assertEqual(_patchgym_value, 3)
`;

const SOURCES = new Map<string, TestSource>([
  ["tests/test_t.py", { original: ORIGINAL, rewritten: REWRITTEN }],
]);
const NAMES = new Map([["tests/test_t.py", new Map([["test_fresh1", "test_sum"]])]]);

Deno.test("lineMap() maps kept and replaced lines back, and added lines to 0", () => {
  const map = lineMap("a\nb\nc", "a\nx\nb\nC");
  assert.deepEqual(map, [0, 1, 0, 2, 3]);
});

// Issue 25: failing tests' output was 2,003 characters of which 1,939 were spaces.
Deno.test("ownTraceback() shows the test file's own line and drops the caret line", () => {
  const text = [
    "Traceback (most recent call last):",
    '  File "/tmp/patchgym/proc-1-ab/grade-x/tests/test_t.py", line 9, in test_fresh1',
    `    _patchgym_value = ${"x".repeat(300)}; self.assertEqual(_patchgym_value, 3)`,
    `${" ".repeat(320)}^^^^^^^^^^^^^^^^`,
    "AssertionError: 4 != 3",
  ].join("\n");
  assert.equal(
    ownTraceback(text, SOURCES, NAMES),
    [
      "Traceback (most recent call last):",
      '  File "tests/test_t.py", line 6, in test_fresh1',
      "    self.assertEqual(total([1, 2]), 3)",
      "AssertionError: 4 != 3",
    ].join("\n"),
  );
});

Deno.test("ownTraceback() rebuilds the frame of a rewritten line whose frame was cut off", () => {
  const text = [
    `x; self.assertEqual(_patchgym_value, 3)`,
    `${" ".repeat(320)}^^^^^^^^^^^^^^^^`,
    "AssertionError: 4 != 3",
  ].join("\n");
  assert.equal(
    ownTraceback(text, SOURCES, NAMES, { file: "tests/test_t.py", fn: "test_fresh1" }),
    [
      '  File "tests/test_t.py", line 6, in test_sum',
      "    self.assertEqual(total([1, 2]), 3)",
      "AssertionError: 4 != 3",
    ].join("\n"),
  );
});

Deno.test("ownTraceback() leaves frames of other files as they are", () => {
  const text = '  File "/usr/lib/python3/unittest/case.py", line 9, in run\n    x()\n    ^^^';
  assert.equal(ownTraceback(text, SOURCES, NAMES), text);
});
