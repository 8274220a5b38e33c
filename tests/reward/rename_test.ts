import assert from "node:assert/strict";
import { originalId, originalText, renameTests } from "../../src/reward/rename.ts";

/** Fresh names in order: `aaaa1`, `aaaa2`, ... */
function counter(): () => string {
  let n = 0;
  return () => `aaaa${++n}`;
}

Deno.test("renameTests() renames Python tests wherever the file names them", () => {
  const source = `import unittest


class CalcTest(unittest.TestCase):
    @unittest.skip("later")
    def test_add(self):
        self.assertEqual(self._testMethodName, "test_add")

    def test_twice(self):
        self.test_add()

    async def test_wait(self):
        pass

    def helper_test_add(self):
        return test_adder


def test_top(tmp_path):
    pass
`;
  const { source: renamed, names } = renameTests(source, "unittest", counter());
  assert.deepEqual([...names], [
    ["test_aaaa1", "test_add"],
    ["test_aaaa2", "test_twice"],
    ["test_aaaa3", "test_wait"],
    ["test_aaaa4", "test_top"],
  ]);
  assert.equal(
    renamed,
    source.replaceAll("def test_add(", "def test_aaaa1(")
      .replace('"test_add"', '"test_aaaa1"')
      .replace("self.test_add()", "self.test_aaaa1()")
      .replace("test_twice", "test_aaaa2")
      .replace("test_wait", "test_aaaa3")
      .replace("test_top", "test_aaaa4"),
  );
  // Names that only contain a test's name are left alone.
  assert.ok(renamed.includes("def helper_test_add(self):\n        return test_adder\n"));
  assert.ok(renamed.includes('class CalcTest(unittest.TestCase):\n    @unittest.skip("later")\n'));
});

Deno.test("renameTests() renames Deno.test names given as string literals", () => {
  const source = [
    `Deno.test("adds \\"one\\"", () => {});`,
    `Deno.test('it\\'s fine', () => {});`,
    `Deno.test({ name: "object form", fn() {} });`,
    `Deno.test.ignore("later", () => {});`,
    `Deno.test("odd \\x41", () => {});`,
    `Deno.test(function named() {});`,
  ].join("\n");
  const { source: renamed, names } = renameTests(source, "deno_test", counter());
  assert.deepEqual([...names], [
    ["aaaa1", 'adds "one"'],
    ["aaaa2", "it's fine"],
    ["aaaa3", "object form"],
    ["aaaa4", "later"],
  ]);
  assert.equal(
    renamed,
    [
      `Deno.test("aaaa1", () => {});`,
      `Deno.test("aaaa2", () => {});`,
      `Deno.test({ name: "aaaa3", fn() {} });`,
      `Deno.test.ignore("aaaa4", () => {});`,
      // A literal JSON cannot read, and a name from a function, stay as they are.
      `Deno.test("odd \\x41", () => {});`,
      `Deno.test(function named() {});`,
    ].join("\n"),
  );
});

Deno.test("originalId() maps fresh names back, keeping classes and parameters", () => {
  const names = new Map([
    ["tests/test_a.py", new Map([["test_k3f9q2x7m1", "test_add"]])],
    ["a_test.ts", new Map([["z8y7x6w5v4", "adds one"]])],
  ]);
  assert.equal(
    originalId("tests/test_a.py::CalcTest::test_k3f9q2x7m1", names),
    "tests/test_a.py::CalcTest::test_add",
  );
  assert.equal(
    originalId("tests/test_a.py::test_k3f9q2x7m1[1-2]", names),
    "tests/test_a.py::test_add[1-2]",
  );
  assert.equal(originalId("a_test.ts::z8y7x6w5v4", names), "a_test.ts::adds one");
  // Canaries, other files and ids without a test keep their ids.
  assert.equal(
    originalId("tests/test_a.py::test_q1w2e3r4t5", names),
    "tests/test_a.py::test_q1w2e3r4t5",
  );
  assert.equal(
    originalId("tests/test_b.py::test_k3f9q2x7m1", names),
    "tests/test_b.py::test_k3f9q2x7m1",
  );
  assert.equal(originalId("tests/test_a.py", names), "tests/test_a.py");
  assert.equal(
    originalText(
      "tests/test_a.py",
      "tests/test_a.py:9: in test_k3f9q2x7m1\n    assert 1 == 2",
      names,
    ),
    "tests/test_a.py:9: in test_add\n    assert 1 == 2",
  );
});

Deno.test("originalText() reads each name map's own names (its pattern is kept per map)", () => {
  const file = "tests/test_a.py";
  const first = new Map([[file, new Map([["test_aaaa1111", "test_one"]])]]);
  const second = new Map([[file, new Map([["test_bbbb2222", "test_two"]])]]);
  for (let round = 0; round < 2; round++) {
    assert.equal(originalId(`${file}::test_aaaa1111`, first), `${file}::test_one`);
    assert.equal(originalId(`${file}::test_bbbb2222`, second), `${file}::test_two`);
    // One sample's fresh names mean nothing under another's map.
    assert.equal(originalId(`${file}::test_aaaa1111`, second), `${file}::test_aaaa1111`);
  }
  // A map that gained a name is read again.
  const grown = new Map([["test_cccc3333", "test_three"]]);
  const names = new Map([[file, grown]]);
  assert.equal(originalId(`${file}::test_dddd4444`, names), `${file}::test_dddd4444`);
  grown.set("test_dddd4444", "test_four");
  assert.equal(originalId(`${file}::test_dddd4444`, names), `${file}::test_four`);
});
