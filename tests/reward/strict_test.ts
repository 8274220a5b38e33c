import assert from "node:assert/strict";
import { strictSource } from "../../src/reward/strict.ts";

/** Run Python `source` and return its exit code and stderr. */
async function runPython(source: string): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command("python3", { args: ["-c", source], stderr: "piped" }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

const UNITTEST = `import unittest


class T(unittest.TestCase):
    def test_a(self):
        value = make()
        self.assertEqual(value, "abc")  # the result
        self.assertNotEqual(make(), "x", "message")
        self.assertEqual("abc", make())
        self.assertEqual(2 + 3, 5)
        text = """
        self.assertEqual(make(), "abc")
        """
        for _ in range(1):
            self.assertEqual(make(), "abc")
`;

Deno.test("strictSource() checks the non-literal side of top-level unittest equality assertions", () => {
  const lines = strictSource(UNITTEST).split("\n");
  assert.equal(lines.length, UNITTEST.split("\n").length);
  assert.match(
    lines[6],
    /^ {8}_patchgym_value = value; .* self\.assertEqual\(_patchgym_value, "abc"\)  # the result$/,
  );
  assert.match(lines[7], /self\.assertNotEqual\(_patchgym_value, "x", "message"\)$/);
  assert.match(
    lines[8],
    /^ {8}_patchgym_value = make\(\); .* self\.assertEqual\("abc", _patchgym_value\)$/,
  );
  // Both sides literal, inside a string, or nested: left as they are.
  assert.equal(lines[9], "        self.assertEqual(2 + 3, 5)");
  assert.equal(lines[11], '        self.assertEqual(make(), "abc")');
  assert.equal(lines[14], '            self.assertEqual(make(), "abc")');
});

Deno.test("strictSource() checks pytest assertions and leaves other operators alone", () => {
  const source = `def test_b():
    assert make() == ["a", 1]
    assert make() != b"x", "why"
    assert a or make() == 1
    assert make() < 2
    assert (make() == 1)
`;
  const lines = strictSource(source).split("\n");
  assert.match(
    lines[1],
    /^ {4}_patchgym_value = make\(\); .*; assert _patchgym_value == \["a", 1\]$/,
  );
  assert.match(lines[2], /; assert _patchgym_value != b"x", "why"$/);
  assert.deepEqual(lines.slice(3), source.split("\n").slice(3));
});

Deno.test("strictSource() picks a local name the file does not use", () => {
  const source = `def test_c():\n    _patchgym_value = 1\n    assert make() == 1\n`;
  assert.match(strictSource(source), /_patchgym_value2 = make\(\);/);
});

Deno.test("strictSource() passes plain values and fails anything else with the reason", async () => {
  // A value made by a call (so not a literal), the literal it is compared with, and whether it is plain.
  const cases: [string, string, boolean][] = [
    ["1", "1", true],
    ["1.5", "1.5", true],
    ["True", "True", true],
    ["None", "None", true],
    ['b"x"', 'b"x"', true],
    [
      '[1, ("a", {"k": frozenset({2}), "j": complex(0, 0)})]',
      '[1, ("a", {"k": {2}, "j": 0})]',
      true,
    ],
    ['[1, ("a", {"k": {2, 3.5}})]', '[1, ("a", {"k": {2, 3.5}})]', true],
    ['S("x")', '"y"', false],
    ['[1, {"k": S("x")}]', '[1, {"k": "y"}]', false],
    ['{S("x"): 1}', '{"y": 1}', false],
    ["P(1, 2)", "(1, 2)", false],
    ["E.A", "1", false],
    ["decimal.Decimal(1)", "1", false],
  ];
  for (const [value, literal, plain] of cases) {
    const source = `import collections, decimal, enum
class S(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__
P = collections.namedtuple("P", "a b")
class E(enum.IntEnum):
    A = 1
type = isinstance = lambda *a: str
same = lambda v: v
def test_d():
    assert same(${value}) == ${literal}
test_d()
`;
    const { code, stderr } = await runPython(strictSource(source));
    assert.equal(code === 0, plain, `${value}: ${stderr}`);
    if (!plain) {
      assert.match(
        stderr,
        /compared a \w+ with a literal: results compared with literal values must be plain builtin values/,
      );
    }
  }
});
