import assert from "node:assert/strict";
import { detectStack, isTestPath, type Stack } from "../../src/mine/stack.ts";

function manifest(value: Record<string, unknown>): Record<string, string> {
  return { "package.json": JSON.stringify(value) };
}

function stackOf(files: Record<string, string>): Stack {
  const detected = detectStack(files);
  assert.ok(detected.ok, detected.ok ? "" : detected.reason);
  return detected.stack;
}

Deno.test("detectStack() reads the runner from deno.json, package.json's test script or its jest dependency", () => {
  assert.equal(stackOf({ "deno.json": "{}" }).runner, "deno_test");
  assert.equal(stackOf({ "deno.jsonc": "{}", "package.json": "{}" }).runner, "deno_test");
  assert.equal(stackOf(manifest({ scripts: { test: "node --test test/" } })).runner, "node_test");
  assert.equal(
    stackOf(manifest({ scripts: { test: "node --experimental-vm-modules --test" } })).runner,
    "node_test",
  );
  assert.equal(
    stackOf(manifest({ scripts: { test: "jest --ci" }, devDependencies: { jest: "^29.7.0" } }))
      .runner,
    "jest",
  );
  // The test script delegates: the runner among the dependencies decides.
  assert.equal(
    stackOf(
      manifest({
        scripts: { test: "npm run lint && npm run unit" },
        devDependencies: { jest: "29.7.0" },
      }),
    )
      .runner,
    "jest",
  );
  assert.equal(stackOf(manifest({ scripts: { "test:unit": "node --test" } })).runner, "node_test");
  const python = stackOf({ "pyproject.toml": "[project]\nname = 'x'\n" });
  assert.deepEqual([python.language, python.runner], ["python", "pytest"]);
  // A package.json for tooling beside a Python project names no runner: Python.
  assert.equal(
    stackOf({ "package.json": '{"devDependencies": {"prettier": "3"}}', "setup.py": "" }).runner,
    "pytest",
  );
});

Deno.test("detectStack() names unsupported runners with why", () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ scripts: { test: "vitest run" } }, /^unsupported test runner vitest .*permission model/],
    [
      { scripts: { test: "mocha 'test/**/*.js'" } },
      /^unsupported test runner mocha .*no mocha reporter/,
    ],
    [
      { devDependencies: { mocha: "10" } },
      /^unsupported test runner mocha \(package\.json dependencies\)/,
    ],
    [
      { scripts: { test: "jest" }, devDependencies: { jest: "^30.0.0" } },
      /^unsupported test runner jest \^30\.0\.0 .*native addon/,
    ],
    [
      { scripts: { test: 'echo "Error: no test specified" && exit 1' } },
      /^unsupported test runner .*node --test and jest 29/,
    ],
    [{ scripts: { test: "standard && tape test/*.js" } }, /^unsupported test runner tape /],
    [{ name: "x" }, /^no test runner: package\.json has no scripts\.test/],
  ];
  for (const [value, reason] of cases) {
    const detected = detectStack(manifest(value));
    assert.ok(!detected.ok, JSON.stringify(value));
    assert.match(detected.reason, reason);
  }
  const broken = detectStack({ "package.json": "{" });
  assert.ok(!broken.ok);
  assert.match(broken.reason, /^package\.json is not JSON/);
});

Deno.test("detectStack() tells each runner's test modules from code and helpers", () => {
  const node = stackOf(manifest({ scripts: { test: "node --test" } }));
  for (
    const path of [
      "test/a.test.js",
      "src/a.test.mjs",
      "test/parse.js",
      "lib/a_test.cjs",
      "test-a.js",
    ]
  ) {
    assert.ok(node.isTestModule(path), path);
  }
  for (
    const path of [
      "src/a.js",
      "test/fixtures/a.js",
      "test/helpers/h.js",
      "test/_util.js",
      "test/data.json",
    ]
  ) {
    assert.ok(!node.isTestModule(path), path);
  }
  const jest = stackOf(manifest({ scripts: { test: "jest" } }));
  for (const path of ["test/a.test.js", "src/__tests__/a.js", "a.spec.cjs"]) {
    assert.ok(jest.isTestModule(path), path);
  }
  for (const path of ["test/parse.js", "src/a.js", "a.test.ts"]) {
    assert.ok(!jest.isTestModule(path), path);
  }
  const deno = stackOf({ "deno.json": "{}" });
  for (const path of ["tests/a_test.ts", "a.test.ts", "test.ts", "x/y_test.tsx"]) {
    assert.ok(deno.isTestModule(path), path);
  }
  for (const path of ["src/a.ts", "tests/helpers.ts", "contest.ts"]) {
    assert.ok(!deno.isTestModule(path), path);
  }
  assert.ok(deno.isCode("src/a.ts") && node.isCode("src/a.mjs") && !node.isCode("README.md"));
});

Deno.test("isTestPath() tells tests and test data from code", () => {
  for (
    const path of [
      "tests/test_a.py",
      "pkg/tests/data/x.json",
      "test_b.py",
      "a/b_test.py",
      "conftest.py",
    ]
  ) {
    assert.ok(isTestPath(path), path);
  }
  for (const path of ["src/pkg/a.py", "pkg/testament.py", "docs/testing.md"]) {
    assert.ok(!isTestPath(path), path);
  }
  const jest = stackOf(manifest({ scripts: { test: "jest" } }));
  for (const path of ["src/__tests__/data.json", "src/a.test.js", "test/fixtures/a.js"]) {
    assert.ok(isTestPath(path, jest), path);
  }
  assert.ok(!isTestPath("src/a.js", jest));
});

Deno.test("detectStack() names a Deno config's jsr: and https: imports, which no environment caches", () => {
  const stack = stackOf({
    "deno.jsonc":
      '{\n  // test helpers\n  "imports": {\n    "@std/assert": "jsr:@std/assert@^1",\n' +
      '    "ms": "npm:ms@2",\n    "x/": "https://deno.land/x/"\n  }\n}\n',
  });
  assert.match(stack.limits!, /imports "@std\/assert", "x\/" from jsr: or https:/);
  assert.equal(stackOf({ "deno.json": '{"imports": {"ms": "npm:ms@2"}}' }).limits, undefined);
});
