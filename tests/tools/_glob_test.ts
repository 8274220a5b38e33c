import assert from "node:assert/strict";
import { globToRegExp } from "../../src/tools/_glob.ts";

function matches(glob: string, paths: string[]): string[] {
  const regex = globToRegExp(glob);
  return paths.filter((p) => regex.test(p));
}

const PATHS = [
  "a.py",
  "src/b.py",
  "src/deep/c.py",
  "src/app.ts",
  "src/deep/d.ts",
  "lib/e.ts",
  "tests/test_a.py",
  "tests/unit/test_b.py",
  "README.md",
  "a.pyc",
];

Deno.test("globToRegExp() matches a slash-free pattern against the file name in any folder", () => {
  assert.deepEqual(matches("*.py", PATHS), [
    "a.py",
    "src/b.py",
    "src/deep/c.py",
    "tests/test_a.py",
    "tests/unit/test_b.py",
  ]);
  assert.deepEqual(matches("test_*.py", PATHS), ["tests/test_a.py", "tests/unit/test_b.py"]);
  assert.deepEqual(matches("README.md", PATHS), ["README.md"]);
});

Deno.test("globToRegExp() anchors a pattern with a slash at the root", () => {
  assert.deepEqual(matches("src/*.py", PATHS), ["src/b.py"]);
  assert.deepEqual(matches("deep/*.py", PATHS), []);
  assert.deepEqual(matches("/src/*.ts", PATHS), ["src/app.ts"]);
});

Deno.test("globToRegExp() lets ** cross folders, including none", () => {
  assert.deepEqual(matches("src/**/*.ts", PATHS), ["src/app.ts", "src/deep/d.ts"]);
  assert.deepEqual(matches("**/test_*.py", PATHS), ["tests/test_a.py", "tests/unit/test_b.py"]);
  assert.deepEqual(matches("tests/**", PATHS), ["tests/test_a.py", "tests/unit/test_b.py"]);
});

Deno.test("globToRegExp() keeps a single * inside one folder", () => {
  assert.deepEqual(matches("src/*", PATHS), ["src/b.py", "src/app.ts"]);
});

Deno.test("globToRegExp() supports ?, character classes and negated classes", () => {
  assert.deepEqual(matches("?.py", PATHS), ["a.py", "src/b.py", "src/deep/c.py"]);
  assert.deepEqual(matches("src/?.py", PATHS), ["src/b.py"]);
  assert.deepEqual(matches("[ab].py", PATHS), ["a.py", "src/b.py"]);
  assert.deepEqual(matches("[!a].py", PATHS), ["src/b.py", "src/deep/c.py"]);
  assert.deepEqual(matches("[c-d].*", PATHS), ["src/deep/c.py", "src/deep/d.ts"]);
});

Deno.test("globToRegExp() keeps a negated class inside one name", () => {
  // Regression: "[!x]" compiled to "[^x]", which also matched "/" and so crossed folders.
  assert.ok(!globToRegExp("src[!x]b.py").test("src/b.py"));
  assert.ok(!globToRegExp("src/a[!x]b.py").test("src/a/b.py"));
  assert.ok(globToRegExp("src/a[!x]b.py").test("src/a-b.py"));
  assert.ok(!globToRegExp("src/a[^x]b.py").test("src/a/b.py"));
});

Deno.test("globToRegExp() supports {a,b} alternatives", () => {
  assert.deepEqual(matches("*.{ts,md}", PATHS), [
    "src/app.ts",
    "src/deep/d.ts",
    "lib/e.ts",
    "README.md",
  ]);
  assert.deepEqual(matches("{src,lib}/*.ts", PATHS), ["src/app.ts", "lib/e.ts"]);
});

Deno.test("globToRegExp() treats regex metacharacters literally", () => {
  const regex = globToRegExp("a+b(1).py");
  assert.ok(regex.test("a+b(1).py"));
  assert.ok(!regex.test("aab1.py"));
  assert.ok(!globToRegExp("a.py").test("axpy"));
  assert.ok(globToRegExp("$x^.txt").test("d/$x^.txt"));
  assert.ok(globToRegExp("a|b").test("a|b"));
  assert.ok(!globToRegExp("a|b").test("a"));
});

Deno.test("globToRegExp() reads an unclosed [ or stray , and } literally", () => {
  assert.ok(globToRegExp("a[b.py").test("a[b.py"));
  assert.ok(globToRegExp("a,b}.py").test("a,b}.py"));
});

Deno.test("globToRegExp() matches whole names, not suffixes of them", () => {
  assert.ok(!globToRegExp("b.py").test("src/ab.py"));
  assert.ok(globToRegExp("b.py").test("src/b.py"));
  assert.ok(!globToRegExp("*.py").test("a.pyc"));
});
