import assert from "node:assert/strict";
import { joinStatements, readableFailure, strictSource } from "../../src/reward/strict.ts";

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
    /^ {8}_patchgym_value = value; .* self\.assertEqual\(_patchgym_value, "abc"\) {2}# the result$/,
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

Deno.test("strictSource() compares the plain value of a result, and fails one that has none", async () => {
  // A value made by a call (so not a literal), the literal it is compared with, and the outcome.
  const cases: [string, string, "equal" | "unequal" | "no plain value"][] = [
    ["1", "1", "equal"],
    ["1.5", "1.5", "equal"],
    ["True", "True", "equal"],
    ["None", "None", "equal"],
    ['b"x"', 'b"x"', "equal"],
    [
      '[1, ("a", {"k": frozenset({2}), "j": complex(0, 0)})]',
      '[1, ("a", {"k": {2}, "j": 0})]',
      "equal",
    ],
    ['[1, ("a", {"k": {2, 3.5}})]', '[1, ("a", {"k": {2, 3.5}})]', "equal"],
    // A subclass's own __eq__ never runs: its stored value is compared.
    ['S("x")', '"y"', "unequal"],
    ['S("y")', '"y"', "equal"],
    ['[1, {"k": S("x")}]', '[1, {"k": "y"}]', "unequal"],
    ['{S("x"): 1}', '{"y": 1}', "unequal"],
    ["I(5)", "6", "unequal"],
    ["P(1, 2)", "(1, 2)", "equal"],
    ["E.A", "1", "equal"],
    ["decimal.Decimal(1)", "1", "equal"],
    ["fractions.Fraction(3, 2)", "1.5", "equal"],
    ["fractions.Fraction(3, 2)", "1", "unequal"],
    ["Always()", "1", "no plain value"],
    ["len", "1", "no plain value"],
    ["Ratio()", "1", "no plain value"],
  ];
  for (const [value, literal, outcome] of cases) {
    const source = `import collections, decimal, enum, fractions
class S(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__
    def __str__(self):
        return self
class I(int):
    def __eq__(self, other):
        return True
    def __index__(self):
        return self
P = collections.namedtuple("P", "a b")
class E(enum.IntEnum):
    A = 1
class Always:
    def __eq__(self, other):
        return True
class Ratio(Always):
    def as_integer_ratio(self):
        return (S("1"), 1)
type = isinstance = lambda *a: str
same = lambda v: v
def test_d():
    assert same(${value}) == ${literal}
test_d()
`;
    const { code, stderr } = await runPython(strictSource(source));
    assert.equal(code === 0, outcome === "equal", `${value}: ${stderr}`);
    const reason =
      /compared a \w+ with a literal: a result compared with a literal value must have a plain builtin value/;
    if (outcome === "no plain value") assert.match(stderr, reason, value);
    if (outcome === "unequal") assert.doesNotMatch(stderr, reason, value);
  }
});

Deno.test("readableFailure() cuts each plain-value reading back to plain_value(NAME)", () => {
  const rewritten = strictSource(`def test_e():\n    assert make() == 1\n`).split("\n")[1];
  const text =
    `Traceback (most recent call last):\n  File "t.py", line 2, in test_e\n${rewritten}\nAssertionError: assert 2 == 1`;
  assert.equal(
    readableFailure(text),
    `Traceback (most recent call last):\n  File "t.py", line 2, in test_e\n    _patchgym_value = make(); _patchgym_value, _patchgym_value_type = plain_value(_patchgym_value); ` +
      `assert _patchgym_value_type is None, ${
        JSON.stringify(
          "patchgym: compared a %s with a literal: a result compared with a literal value must have a plain builtin value (int, float, complex, bool, str, bytes, None, lists, tuples, dicts, sets and frozensets of them, their subclasses, or a number with as_integer_ratio())",
        )
      } % (_patchgym_value_type,); assert _patchgym_value == 1\nAssertionError: assert 2 == 1`,
  );
});

Deno.test("joinStatements() writes a multi-line statement on its first line and keeps line numbers", () => {
  const source = [
    "def test_x(self):",
    "    self.assertEqual(  # why",
    '        f("a(b"),',
    "        [1, 2],",
    "    )",
    '    s = """two',
    '    (lines"""',
    "    y = 1 + \\",
    "        2",
  ].join("\n");
  assert.deepEqual(joinStatements(source).split("\n"), [
    "def test_x(self):",
    '    self.assertEqual(f("a(b"), [1, 2],)',
    "",
    "",
    "",
    '    s = """two',
    '    (lines"""',
    "    y = 1 + 2",
    "",
  ]);
});
