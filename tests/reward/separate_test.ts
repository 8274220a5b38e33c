import assert from "node:assert/strict";
import { separate } from "../../src/reward/separate.ts";
import { checkSite, judge } from "../../src/reward/judge.ts";
import { observedPython, parsePython, pyEqual } from "../../src/reward/_python_value.ts";
import { parseJs } from "../../src/reward/_js_value.ts";

function ids(): () => string {
  let n = 0;
  return () => `s${n++}`;
}

Deno.test("separate() takes literal expected values out of Python tests and adds end markers", () => {
  const source = [
    "class T(unittest.TestCase):",
    "    def test_a(self):",
    '        self.assertEqual(f(1), [1, "secret-value"])',
    '        assert g() == Decimal("4.50")',
    "        with self.assertRaises(ValueError):",
    "            f(-1)",
    "",
    "    def test_b(self):",
    "        self.assertEqual(f(2), compute())",
    "",
  ].join("\n");
  const out = separate(source, "unittest", ids());
  assert.doesNotMatch(out.source, /secret-value|4\.50|ValueError/);
  assert.equal(out.inside.get("T::test_a"), 0);
  assert.equal(out.inside.get("T::test_b"), 1);
  assert.deepEqual(out.kept.get("T::test_b"), ["self.assertEqual(f(2), compute())"]);
  assert.deepEqual(out.sites.map((s) => [s.test, s.kind, s.expected]), [
    ["T::test_a", "equal", '[1, "secret-value"]'],
    ["T::test_a", "equal", 'Decimal("4.50")'],
    ["T::test_a", "raises", "ValueError"],
  ]);
  // One end marker per test, as its body's last statement.
  assert.deepEqual([...out.ends.values()], ["T::test_a", "T::test_b"]);
  assert.match(out.source, /compute\(\)\)\n {8}__import__\("sys"\)\.audit\("patchgym\.end"/);
});

Deno.test("separate() takes literal expected values out of deno tests, bare keys and multi-line ones too", () => {
  const source = [
    'Deno.test("totals", () => {',
    "  assert.deepEqual(totals(), {",
    '    net: 100, label: "secret",',
    "  });",
    "  assert.equal(cost(25), 1000 + 500);",
    "  assert.throws(() => cost(-1), RangeError);",
    "});",
  ].join("\n");
  const out = separate(source, "deno_test", ids());
  assert.doesNotMatch(out.source, /secret|1000/);
  assert.equal(out.source.split("\n").length, 7, "line numbers stay");
  assert.equal(out.inside.get("totals"), 0);
  assert.deepEqual(out.sites.map((s) => [s.kind, s.expected]), [
    ["js_deep", '{net: 100, label: "secret",}'],
    ["js_is", "1000 + 500"],
    ["js_throws", "RangeError"],
  ]);
  // What the preload observed of a throw: constructor names and string form.
  const throws = out.sites[2];
  assert.equal(
    checkSite(throws, ["t", ["RangeError", "Error", "Object"], "RangeError: no"], false),
    null,
  );
  assert.match(checkSite(throws, ["t", ["TypeError"], "TypeError: no"], false)!, /threw TypeError/);
  assert.match(checkSite(throws, ["n"], false)!, /nothing was thrown/);
  const regex = { ...throws, expected: "/^RangeError: n/" };
  assert.equal(checkSite(regex, ["t", ["RangeError"], "RangeError: no"], false), null);
});

Deno.test("parsePython() reads literals and built values, compared with Python's equality", () => {
  const eq = (a: string, b: string) => pyEqual(parsePython(a)!, parsePython(b)!);
  assert.ok(eq("1", "1.0") && eq("True", "1") && eq('Decimal("4.50")', "4.5"));
  assert.ok(!eq("[1]", "(1,)") && !eq("0.1", 'Decimal("0.1")'));
  assert.ok(eq("{1, 2}", "frozenset([2, 1])") && eq('{"a": 1, "b": 2}', '{"b": 2, "a": 1}'));
  assert.ok(eq("4 * 4 + 5 * 7", "51") && eq("7 // 2", "3") && eq("-7 % 3", "2"));
  assert.ok(eq("date(2025, 3, 17)", "date(year=2025, month=3, day=17)"));
  assert.ok(
    eq(
      "datetime(2024, 5, 1, 11, tzinfo=timezone(timedelta(hours=2)))",
      "datetime(2024, 5, 1, 9, tzinfo=timezone.utc)",
    ),
  );
  assert.ok(!eq("datetime(2024, 5, 1)", "date(2024, 5, 1)"));
  assert.ok(eq("'a' 'b'", '"ab"') && eq("b'\\x00'", "b'\\0'"));
  assert.equal(parsePython("f(1)"), null);
  // Python writes infinities as inf: an observed one equals float("inf").
  assert.ok(pyEqual(observedPython(["f", "inf"]), parsePython('float("inf")')!));
  assert.ok(!pyEqual(observedPython(["f", "nan"]), parsePython('float("nan")')!));
  assert.equal(parsePython("Ingredient('salt', 1)"), null);
  assert.deepEqual(parseJs("{ a: 1, 'b': [true, null], 2: `x` }"), {
    t: "object",
    entries: [["a", { t: "number", v: 1 }], ["b", {
      t: "array",
      items: [{ t: "boolean", v: true }, { t: "null" }],
    }], ["2", { t: "string", v: "x" }]],
  });
});

Deno.test("judge() passes a test only when its body ran to the end and its observations meet their expected values", () => {
  const plan = separate(
    "def test_a():\n    assert f() == [1, 2]\n\ndef test_b():\n    assert g() == 'x'\n",
    "pytest",
    ids(),
  );
  const [siteA, siteB] = plan.sites.map((s) => s.id);
  const [endA, endB] = [...plan.ends.keys()];
  const outcomes = new Map([["t.py::test_a", "passed" as const], [
    "t.py::test_b",
    "passed" as const,
  ]]);
  const plans = new Map([["t.py", plan]]);
  // Both ran to the end; test_b observed a wrong value.
  const verdict = judge(
    "pytest",
    outcomes,
    new Map([
      ["t.py::test_a", {
        observed: [{ site: siteA, value: ["l", [["i", "1"], ["f", "2.0"]]] }],
        ends: [endA],
      }],
      ["t.py::test_b", { observed: [{ site: siteB, value: ["s", "y"] }], ends: [endB] }],
    ]),
    plans,
  );
  assert.equal(verdict.outcomes.get("t.py::test_a"), "passed");
  assert.equal(verdict.outcomes.get("t.py::test_b"), "failed");
  assert.match(
    verdict.failures.get("t.py::test_b")!,
    /line 6, in test_b\n {4}assert g\(\) == 'x'\nAssertionError: 'y' != 'x'$/,
  );
  assert.equal(verdict.where.get("t.py::test_a"), "outside");
  // The framework said passed, but the body stopped early (no end marker) or skipped its check.
  const cut = judge(
    "pytest",
    outcomes,
    new Map([
      ["t.py::test_a", {
        observed: [{ site: siteA, value: ["l", [["i", "1"], ["i", "2"]]] }],
        ends: [],
      }],
      ["t.py::test_b", { observed: [], ends: [endB] }],
    ]),
    plans,
  );
  assert.equal(cut.outcomes.get("t.py::test_a"), "failed");
  assert.match(cut.failures.get("t.py::test_a")!, /did not run to its end/);
  assert.equal(cut.outcomes.get("t.py::test_b"), "failed");
  assert.match(cut.failures.get("t.py::test_b")!, /did not run/);
});

Deno.test("separate() counts a check that does not start its statement as kept inside", () => {
  const py = separate("def test_a():\n    for x in f(): assert x == 1\n", "pytest", ids());
  assert.equal(py.inside.get("test_a"), 1);
  const ts = separate(
    'Deno.test("a", () => {\n  if (f()) assert.equal(g(), 1);\n});\n',
    "deno_test",
    ids(),
  );
  assert.equal(ts.inside.get("a"), 1);
});

// Guards a separated check whose test the plan cannot name: its expected value left the file, so
// a judge that skipped the test's observations passed any value.
Deno.test("judge() judges what a jest test inside describe.each observed, though judged inside", () => {
  const source = `describe.each([[1]])("case %i", (n) => {
  test("doubles", () => {
    expect(f(n)).toBe(2);
  });
});
`;
  const plan = separate(source, "jest", ids());
  assert.equal(plan.sites.length, 1);
  const id = "t.test.js::case 1 > doubles";
  const seen = (value: unknown) =>
    new Map([[id, { observed: [{ site: plan.sites[0].id, value }], ends: [] }]]);
  const run = (value: unknown) =>
    judge("jest", new Map([[id, "passed" as const]]), seen(value), new Map([["t.test.js", plan]]));
  const wrong = run(["n", "3"]);
  assert.equal(wrong.outcomes.get(id), "failed");
  assert.match(wrong.failures.get(id)!, /toBe\(2\);` failed: the value was 3/);
  assert.equal(wrong.where.get(id), "inside");
  assert.equal(run(["n", "2"]).outcomes.get(id), "passed");
});

Deno.test("judge() fails a test whose plain `with` block did not run to its end, checks kept inside included", () => {
  // A context manager of the code under test could swallow the AssertionError of a check kept
  // inside (or an exception raised before a separated one) and let the body reach its end.
  const plan = separate(
    "def test_a():\n    with ctx():\n        assert f() == g()\n    x = 1\n\n" +
      "def test_b():\n    with pytest.raises(E):\n        f()\n",
    "pytest",
    ids(),
  );
  const reached = plan.sites.filter((s) => s.kind === "reached");
  assert.equal(reached.length, 1);
  assert.equal(reached[0].test, "test_a");
  assert.match(
    plan.source,
    /assert f\(\) == g\(\)\n {8}__import__\("sys"\)\.audit\("patchgym\.observe"/,
  );
  const [endA, endB] = [...plan.ends.keys()];
  const raised = plan.sites.find((s) => s.kind === "raises")!.id;
  const outcomes = new Map([
    ["t.py::test_a", "passed" as const],
    ["t.py::test_b", "passed" as const],
  ]);
  const plans = new Map([["t.py", plan]]);
  const swallowed = judge(
    "pytest",
    outcomes,
    new Map([
      ["t.py::test_a", { observed: [], ends: [endA] }],
      ["t.py::test_b", { observed: [{ site: raised, value: ["x", [["t", "E"]]] }], ends: [endB] }],
    ]),
    plans,
  );
  assert.equal(swallowed.outcomes.get("t.py::test_a"), "failed");
  assert.match(swallowed.failures.get("t.py::test_a")!, /did not run to its end/);
  assert.equal(swallowed.outcomes.get("t.py::test_b"), "passed");
  const ran = judge(
    "pytest",
    outcomes,
    new Map([["t.py::test_a", {
      observed: [{ site: reached[0].id, value: ["n"] }],
      ends: [endA],
    }]]),
    plans,
  );
  assert.equal(ran.outcomes.get("t.py::test_a"), "passed");
});

Deno.test("separate() requires checks and `with` blocks inside loops over literals, not over computed values", () => {
  const plan = separate(
    "def test_x():\n    for eps in (1e-3, 1e-2):\n        with tolerance(eps):\n            assert f() == 1\n" +
      "    for x in make():\n        with t():\n            assert g() == 2\n" +
      "    for a in [1, 2]:\n        if a:\n            continue\n        assert h(a) == 3\n",
    "pytest",
    ids(),
  );
  const required = plan.sites.filter((s) => s.required).map((s) => s.text);
  assert.deepEqual(required, ["with tolerance(eps):", "assert f() == 1"]);
});

Deno.test("separate() takes literal expected values out of node tests, named under their suites", () => {
  const source = [
    'import { describe, it, test } from "node:test";',
    'import assert from "node:assert/strict";',
    'describe("parser", () => {',
    '  it("reads numbers", () => {',
    '    assert.equal(parse("1"), 1);',
    '    assert.deepEqual(parse("[1]"), [',
    "      1,",
    "    ]);",
    "  });",
    '  describe("errors", () => {',
    "    it('rejects junk', () => {",
    '      assert.throws(() => parse("x"), SyntaxError);',
    "      assert.match(message(), /junk/);",
    "    });",
    "  });",
    "});",
    'test("top level", async () => {',
    '  assert.equal(await load(), "secret");',
    "});",
  ].join("\n");
  const out = separate(source, "node_test", ids());
  assert.doesNotMatch(out.source, /secret/);
  assert.equal(out.source.split("\n").length, 19, "line numbers stay");
  assert.deepEqual(Object.fromEntries(out.inside), {
    "parser > reads numbers": 0,
    "parser > errors > rejects junk": 1,
    "top level": 0,
  });
  assert.deepEqual(out.sites.map((s) => [s.test, s.kind, s.expected]), [
    ["parser > reads numbers", "js_is", "1"],
    ["parser > reads numbers", "js_deep", "[1,]"],
    ["parser > errors > rejects junk", "js_throws", "SyntaxError"],
    ["top level", "js_is", '"secret"'],
  ]);
  assert.match(out.source, /__patchgym_observe\("s3", await load\(\)\);/);
  // The judge finds a node test's checks by its full name (a subtest by its test's).
  const outcomes = new Map([
    ["t.test.js::top level", "passed" as const],
    ["t.test.js::parser > reads numbers", "passed" as const],
  ]);
  const observations = new Map([
    ["t.test.js::top level", { observed: [{ site: "s3", value: ["s", "wrong"] }], ends: [] }],
    ["t.test.js::parser > reads numbers", {
      observed: [{ site: "s0", value: ["n", "1"] }, { site: "s1", value: ["a", [["n", "1"]]] }],
      ends: [],
    }],
  ]);
  const verdict = judge("node_test", outcomes, observations, new Map([["t.test.js", out]]));
  assert.equal(verdict.outcomes.get("t.test.js::top level"), "failed");
  assert.equal(verdict.outcomes.get("t.test.js::parser > reads numbers"), "passed");
  assert.equal(verdict.where.get("t.test.js::parser > reads numbers"), "outside");
});

Deno.test("separate() counts a node test file's helper checks as kept inside every test", () => {
  const source = [
    'import test from "node:test";',
    'import assert from "node:assert/strict";',
    "function inRange(range, yes) {",
    "  for (const v of yes) assert.equal(satisfies(v, range), true);",
    "}",
    'test("caret", () => {',
    '  inRange("^1.2.3", ["1.3.0"]);',
    "  assert.equal(max(), 2);",
    "});",
  ].join("\n");
  const out = separate(source, "node_test", ids());
  assert.deepEqual(Object.fromEntries(out.inside), { caret: 1 });
  assert.deepEqual(out.kept.get("caret"), [
    "for (const v of yes) assert.equal(satisfies(v, range), true);",
  ]);
  assert.deepEqual(out.sites.map((s) => s.expected), ["2"]);
});

Deno.test("separate() judges jest matchers on literals outside and keeps the rest inside", () => {
  const source = `const assert = require("node:assert/strict");
describe("s", () => {
  test("a", () => {
    assert.equal(f(1), 2);
    expect(f(2)).toBe(3);
    expect(g("x, y")).toEqual([
      "x",
      { y: undefined },
    ]);
    expect(h()).not.toStrictEqual({ a: 1 });
    expect(f(0)).toBeNull();
    expect(f(0)).toBeDefined();
    expect(k()).toBeTruthy();
    expect(() => f(-1)).toThrow(RangeError);
  });
  test("b", () => {
    const want = 4;
    expect(f(3)).toBe(want);
    expect(() => f(-1)).toThrow("negative");
    await expect(p()).resolves.toBe(1);
    expect(f(5)).toEqual(expect.any(Number));
  });
});
`;
  const out = separate(source, "jest", ids());
  const lines = out.source.split("\n");
  assert.deepEqual(
    out.sites.map((s) => [s.test, s.kind, s.expected, s.top]),
    [
      ["s > a", "js_is", "2", true],
      ["s > a", "js_is", "3", true],
      ["s > a", "js_equal", '["x", { y: undefined },]', true],
      ["s > a", "js_not_deep", "{ a: 1 }", true],
      ["s > a", "js_is", "null", true],
      ["s > a", "js_not_is", "undefined", true],
      ["s > a", "js_is", "false", true],
      ["s > a", "js_throws", "RangeError", true],
    ],
  );
  const [equal, truthy, throws] = [out.sites[2], out.sites[6], out.sites[7]];
  assert.equal(lines[5], `    __patchgym_observe(${JSON.stringify(equal.id)}, g("x, y"), 2);`);
  assert.equal(lines[6], "");
  assert.equal(lines[12], `    __patchgym_observe(${JSON.stringify(truthy.id)}, !(k()));`);
  assert.equal(lines[13], `    __patchgym_observe(${JSON.stringify(throws.id)}, () => f(-1), 1);`);
  assert.equal(out.inside.get("s > a"), 0);
  assert.equal(out.inside.get("s > b"), 4, JSON.stringify(out.kept.get("s > b")));
  assert.ok(!out.source.includes("[\n"), "the expected values left the file");
  // toEqual is judged as jest compares: an entry whose value is undefined is absent, a hole is
  // undefined; toStrictEqual counts both.
  const [n, u, s, a, o] = [
    (v: number) => ["n", String(v)],
    ["u"],
    (v: string) => ["s", v],
    (...items: unknown[]) => ["a", items],
    (...entries: unknown[]) => ["o", entries],
  ] as const;
  const loose = { ...equal, expected: '[1, { y: "z" }]' };
  assert.equal(checkSite(loose, a(n(1), o(["y", s("z")], ["w", u]), u), false), null);
  assert.match(checkSite(loose, a(n(1), o(["y", s("z")], ["w", n(0)])), false)!, /failed/);
  assert.match(checkSite(loose, o(["0", n(1)], ["1", o(["y", s("z")])]), false)!, /failed/);
  assert.match(checkSite({ ...loose, expected: "[-0]" }, a(n(0)), false)!, /failed/);
  const strict = { ...out.sites[3], kind: "js_deep" as const, expected: '[1, { y: "z" }]' };
  assert.match(checkSite(strict, a(n(1), o(["y", s("z")], ["w", u])), false)!, /failed/);
});
