import assert from "node:assert/strict";
import { discoverTestIds, openTestClasses } from "../../src/task/test_ids.ts";

const PYTHON = `import unittest
import pytest


def helper():
    pass


def test_top_level():
    assert helper() is None


async def test_async_top():
    pass


class MathTest(unittest.TestCase):
    # a comment inside the class does not end it

    @unittest.skip("later")
    def test_skipped(self):
        pass

    def setUp(self):
        pass

    async def test_async_method(self):
        pass

    def test_plain (self):
        pass


CONSTANT = 1


    def test_orphan_indented(self):
        pass


@pytest.mark.parametrize("n", [1, 2])
def test_param(n):
    pass


class TestOther:
    def test_in_pytest_class(self):
        pass
`;

Deno.test("discoverTestIds() finds unittest methods by class, in source order", () => {
  assert.deepEqual(discoverTestIds("tests/test_m.py", PYTHON, "unittest"), [
    "tests/test_m.py::MathTest::test_skipped",
    "tests/test_m.py::MathTest::test_async_method",
    "tests/test_m.py::MathTest::test_plain",
    "tests/test_m.py::TestOther::test_in_pytest_class",
  ]);
});

Deno.test("discoverTestIds() adds top-level test functions for pytest", () => {
  assert.deepEqual(discoverTestIds("t.py", PYTHON, "pytest"), [
    "t.py::test_top_level",
    "t.py::test_async_top",
    "t.py::MathTest::test_skipped",
    "t.py::MathTest::test_async_method",
    "t.py::MathTest::test_plain",
    "t.py::test_param",
    "t.py::TestOther::test_in_pytest_class",
  ]);
});

Deno.test("discoverTestIds() ends a class at the next top-level statement", () => {
  const source =
    "class A:\n    def test_a(self):\n        pass\nx = 1\n    def test_b(self):\n        pass\n";
  assert.deepEqual(discoverTestIds("t.py", source, "unittest"), ["t.py::A::test_a"]);
});

Deno.test("discoverTestIds() finds deno tests by name in every call form", () => {
  const source = `
Deno.test("double quoted", () => {});
Deno.test('single quoted', () => {});
Deno.test(\`backticks\`, () => {});
Deno.test({ name: "object form", fn: () => {} });
Deno.test(
  "on the next line",
  async (t) => {
    await t.step("a step", () => {});
  },
);
Deno.test("sum() adds: 1 + 2 == 3 [ok]", () => {});
Deno.test({name:"tight", fn() {}});
`;
  assert.deepEqual(discoverTestIds("a_test.ts", source, "deno_test"), [
    "a_test.ts::double quoted",
    "a_test.ts::single quoted",
    "a_test.ts::backticks",
    "a_test.ts::object form",
    "a_test.ts::on the next line",
    "a_test.ts::sum() adds: 1 + 2 == 3 [ok]",
    "a_test.ts::tight",
  ]);
});

Deno.test("discoverTestIds() reads escaped quotes in deno test names as deno does", () => {
  // Guards a bug: the escapes were kept, so `parse(\"a\")` never matched the real name.
  const source =
    `Deno.test("parse(\\"a\\") works", () => {});\nDeno.test('it\\'s fine', () => {});\n`;
  assert.deepEqual(discoverTestIds("a_test.ts", source, "deno_test"), [
    'a_test.ts::parse("a") works',
    "a_test.ts::it's fine",
  ]);
});

Deno.test("discoverTestIds() finds nothing in Python source for deno_test and vice versa", () => {
  assert.deepEqual(discoverTestIds("t.py", PYTHON, "deno_test"), []);
  assert.deepEqual(discoverTestIds("a_test.ts", 'Deno.test("x", () => {});', "unittest"), []);
});

Deno.test("discoverTestIds() names node tests under their suites, as the node_test reporter does", () => {
  const source = `import test, { describe, it } from "node:test";
// test("commented out", () => {});
/* it("in a block comment", () => {}) */
test("top level", () => {
  const text = "describe('not a suite', () => {})";
});
test.skip('skipped one', () => {});
describe("parser", () => {
  it("reads { braces } in names", () => {});
  describe(\`nested\`, () => {
    it("leaf", (t, done) => done());
  });
  it.todo("after the nested suite");
});
describe("empty suite", () => {});
test("parent", async (t) => {
  await t.test("subtests are not discovered", () => {});
});
`;
  assert.deepEqual(discoverTestIds("test/p.test.mjs", source, "node_test"), [
    "test/p.test.mjs::top level",
    "test/p.test.mjs::skipped one",
    "test/p.test.mjs::parser > reads { braces } in names",
    "test/p.test.mjs::parser > nested > leaf",
    "test/p.test.mjs::parser > after the nested suite",
    "test/p.test.mjs::parent",
  ]);
});

Deno.test("discoverTestIds() finds no node tests in Deno or Python test files", () => {
  assert.deepEqual(discoverTestIds("t.py", PYTHON, "node_test"), []);
  assert.deepEqual(discoverTestIds("a_test.ts", 'Deno.test("x", () => {});', "node_test"), []);
});

Deno.test("discoverTestIds() names jest tests file::describe > test, as the jest runner does", () => {
  const source = `const { parse } = require("../src");

describe("parse", () => {
  test("reads units", () => {
    expect(parse("2h")).toBe(7200000);
  });
  describe("errors", () => {
    it.skip("rejects text", () => {});
  });
});

test("top", () => {});
`;
  assert.deepEqual(discoverTestIds("test/parse.test.js", source, "jest"), [
    "test/parse.test.js::parse > reads units",
    "test/parse.test.js::parse > errors > rejects text",
    "test/parse.test.js::top",
  ]);
});

// Seen on a real repository: unittest classes that get their tests from a mixin had no ids.
Deno.test("discoverTestIds() gives a class the test methods of its bases in the same file", () => {
  const source = `class Mixin:
    def test_shared(self):
        pass

    def test_overridden(self):
        pass


class Middle(
    Mixin,
):
    def test_middle(self):
        pass


class CaseTest(unittest.TestCase, Middle):
    def test_overridden(self):
        pass
`;
  assert.deepEqual(discoverTestIds("t.py", source, "unittest"), [
    "t.py::Mixin::test_shared",
    "t.py::Mixin::test_overridden",
    "t.py::Middle::test_middle",
    "t.py::Middle::test_shared",
    "t.py::Middle::test_overridden",
    "t.py::CaseTest::test_overridden",
    "t.py::CaseTest::test_middle",
    "t.py::CaseTest::test_shared",
  ]);
});

Deno.test("openTestClasses() names classes with a base from another module, directly or through a local base", () => {
  const source = `import unittest
from . import Imported


class Closed(unittest.TestCase):
    def test_a(self):
        pass


class Open(unittest.TestCase, Imported):
    pass


class Through(Open):
    pass
`;
  assert.deepEqual(openTestClasses("t.py", source), ["t.py::Open", "t.py::Through"]);
});
