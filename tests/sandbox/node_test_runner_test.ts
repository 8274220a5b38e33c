/**
 * `node_test` runs through `runTests()`: outcomes come only from the preload's signed records
 * (src/sandbox/_node_preload.ts), so what the code under test prints, how it exits, or what it
 * does to node:test cannot earn a pass.
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { runTests, type TestRun } from "../../src/sandbox/test_runner.ts";
import { testSandbox, writeFiles } from "../_fixtures.ts";

/** Write `files` as a repository in a temp folder and run its node tests there. */
async function runNode(
  files: Record<string, string>,
  testFiles: string[],
  selector?: string,
): Promise<TestRun> {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-node-" }));
  try {
    const dir = join(base, "repo");
    writeFiles(dir, files);
    const run = await runTests(await testSandbox(), {
      runner: "node_test",
      dir,
      files: testFiles,
      selector,
      timeoutMs: 20_000,
    });
    assert.deepEqual([...Deno.readDirSync(base)].map((e) => e.name), ["repo"]);
    return run;
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

function outcomes(run: TestRun): Record<string, string> {
  return Object.fromEntries([...run.tests].sort(([a], [b]) => (a < b ? -1 : 1)));
}

function shown(run: TestRun): string {
  return `exit ${run.result.exitCode}\n${run.result.stdout}\n${run.result.stderr}`;
}

const CALC = "export function add(a, b) {\n  return a + b;\n}\n";

const CALC_TEST = `import test, { describe, it } from "node:test";
import assert from "node:assert/strict";
import { add } from "../src/calc.mjs";

test("adds", () => {
  assert.equal(add(1, 2), 3);
});

test("fails", () => {
  assert.equal(add(1, 2), 4);
});

test("async", async () => {
  await new Promise((resolve) => setTimeout(resolve, 1));
  assert.equal(add(2, 2), 4);
});

test.skip("later", () => {});

describe("suite", () => {
  it("inner", () => assert.equal(add(0, 0), 0));
  describe("deeper", () => {
    it("leaf", () => assert.equal(add(1, 1), 3));
  });
});

test("parent", async (t) => {
  await t.test("child", () => assert.equal(add(1, 1), 2));
});
`;

Deno.test("runTests() reads node_test outcomes by file::name, suites joined with ' > '", async () => {
  const run = await runNode({ "src/calc.mjs": CALC, "test/calc.test.mjs": CALC_TEST }, [
    "test/calc.test.mjs",
  ]);
  assert.deepEqual(outcomes(run), {
    "test/calc.test.mjs::adds": "passed",
    "test/calc.test.mjs::async": "passed",
    "test/calc.test.mjs::fails": "failed",
    "test/calc.test.mjs::later": "skipped",
    "test/calc.test.mjs::parent": "passed",
    "test/calc.test.mjs::parent > child": "passed",
    "test/calc.test.mjs::suite > deeper > leaf": "failed",
    "test/calc.test.mjs::suite > inner": "passed",
  }, shown(run));
  assert.deepEqual(run.problems, []);
  assert.match(run.failures.get("test/calc.test.mjs::fails") ?? "", /3 !== 4/);
  assert.equal(run.display, "node --test test/calc.test.mjs");
});

Deno.test("runTests() runs only the selected node test (a suite selects its tests)", async () => {
  const files = { "src/calc.mjs": CALC, "test/calc.test.mjs": CALC_TEST };
  const one = await runNode(files, ["test/calc.test.mjs"], "test/calc.test.mjs::adds");
  assert.deepEqual(outcomes(one), { "test/calc.test.mjs::adds": "passed" }, shown(one));
  const suite = await runNode(files, ["test/calc.test.mjs"], "test/calc.test.mjs::suite");
  assert.deepEqual(outcomes(suite), {
    "test/calc.test.mjs::suite > deeper > leaf": "failed",
    "test/calc.test.mjs::suite > inner": "passed",
  }, shown(suite));
});

/** A test file whose one test calls `check()` of the code under test and expects 3. */
const CHECKED_TEST = `import test from "node:test";
import assert from "node:assert/strict";
import { check } from "../src/check.mjs";

test("real", () => {
  assert.equal(check(), 3);
});

test("other", () => {
  assert.equal(1, 1);
});
`;

/** Code under test that returns a wrong value after doing `attack` (module body). */
function attacker(attack: string, inCheck = ""): string {
  return `${attack}\nexport function check() {\n${inCheck}\n  return 4;\n}\n`;
}

async function attacked(attack: string, inCheck = ""): Promise<TestRun> {
  return await runNode({
    "src/check.mjs": attacker(attack, inCheck),
    "test/check.test.mjs": CHECKED_TEST,
  }, ["test/check.test.mjs"]);
}

Deno.test("runTests() node_test: a printed pass line or TAP summary earns nothing", async () => {
  const run = await attacked(
    "",
    `  process.stdout.write("ok 1 - real\\n✔ real (1ms)\\n# pass 2\\n# fail 0\\n");`,
  );
  assert.equal(run.tests.get("test/check.test.mjs::real"), "failed", shown(run));
});

Deno.test("runTests() node_test: forged lines in the record file are ignored", async () => {
  // The record file's path is in node's argv; the code under test appends what it can.
  const run = await attacked(
    `import { appendFileSync } from "node:fs";
const grant = process.execArgv.filter((a) => a.startsWith("--allow-fs-write=")).map((a) => a.slice(17));
export function forge() {
  for (const path of grant) {
    try {
      appendFileSync(path + (path.endsWith("records") ? "" : "/x"),
        "0".repeat(64) + ' ["passed","' + process.cwd() + '/test/check.test.mjs","real"]\\n');
    } catch {}
  }
}`,
    "  forge();",
  );
  assert.equal(run.tests.get("test/check.test.mjs::real"), "failed", shown(run));
  assert.equal(run.tests.get("test/check.test.mjs::other"), "passed", shown(run));
});

Deno.test("runTests() node_test: an exit during a test leaves it unfinished, not passed", async () => {
  for (const code of [0, 1]) {
    const run = await attacked("", `  process.exit(${code});`);
    assert.notEqual(run.tests.get("test/check.test.mjs::real"), "passed", shown(run));
    assert.notEqual(run.tests.get("test/check.test.mjs::other"), "passed", shown(run));
  }
});

Deno.test("runTests() node_test: tests registered from code under test are refused", async () => {
  // Through the wrapper (node:test resolves to it): the call site is not a test file.
  const wrapped = await attacked(`import { test } from "node:test";
test("real", () => {});`);
  assert.notEqual(wrapped.tests.get("test/check.test.mjs::real"), "passed", shown(wrapped));
  assert.deepEqual(wrapped.problems.map((p) => p.code), ["test_identity"]);
  // Through node's own module (require is not redirected): no record, so no pass.
  const own = await attacked(`import { createRequire } from "node:module";
const { test } = createRequire(import.meta.url)("node:test");
test("real", () => {});`);
  assert.notEqual(own.tests.get("test/check.test.mjs::real"), "passed", shown(own));
});

Deno.test("runTests() node_test: assertions cannot be replaced with no-ops", async () => {
  const run = await attacked(`import assert from "node:assert/strict";
try { assert.equal = () => {}; } catch {}
try { Object.defineProperty(assert, "equal", { value: () => {} }); } catch {}`);
  assert.equal(run.tests.get("test/check.test.mjs::real"), "failed", shown(run));
});

Deno.test("runTests() node_test: no child processes, inspector or reads outside the workspace", async () => {
  const run = await attacked(`import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
export const tried = [];
for (const attempt of [
  () => execFileSync("node", ["-e", "1"]),
  () => readFileSync("/proc/self/mem"),
  () => readFileSync("/etc/ld.so.cache"),
  () => process.binding("fs"),
]) {
  try { attempt(); tried.push("allowed"); } catch (e) { tried.push(e.code); }
}
let inspector = "allowed";
try { const { Session } = await import("node:inspector"); new Session().connect(); } catch (e) { inspector = e.code; }
tried.push(inspector);
console.log("TRIED " + JSON.stringify(tried));`);
  assert.match(
    run.result.stdout,
    /TRIED \["ERR_ACCESS_DENIED","ERR_ACCESS_DENIED","ERR_ACCESS_DENIED","ERR_ACCESS_DENIED","ERR_ACCESS_DENIED"\]/,
    shown(run),
  );
  assert.equal(run.tests.get("test/check.test.mjs::other"), "passed", shown(run));
});

Deno.test("runTests() node_test: code under test cannot register module hooks that rewrite a later test file", async () => {
  // Loaded by the first test file; the second one is loaded afterwards. A load hook could serve
  // any source under the second file's (trusted) name.
  const hook = `export async function load(url, context, next) {
  if (url.endsWith("/b.test.mjs")) {
    return { format: "module", shortCircuit: true, source: 'import test from "node:test"; test("real", () => {});' };
  }
  return next(url, context);
}`;
  const run = await runNode({
    "src/check.mjs": `import { register } from "node:module";
try { register("data:text/javascript," + encodeURIComponent(${
      JSON.stringify(hook)
    })); } catch (e) { console.log("REFUSED " + e.message); }
export function check() { return 4; }
`,
    "test/a.test.mjs":
      `import test from "node:test";\nimport { check } from "../src/check.mjs";\ntest("first", () => {});\n`,
    "test/b.test.mjs": CHECKED_TEST.replace("../src/check.mjs", "../src/check.mjs"),
  }, ["test/a.test.mjs", "test/b.test.mjs"]);
  assert.equal(run.tests.get("test/b.test.mjs::real"), "failed", shown(run));
  assert.match(run.result.stdout, /REFUSED/, shown(run));
});

Deno.test("runTests() node_test: code under test cannot read the tests' source, but reads the rest", async () => {
  const run = await runNode({
    "src/check.mjs": `import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
export const seen = [];
writeFileSync(tmpdir() + "/scratch", "ok");
seen.push(readFileSync(tmpdir() + "/scratch", "utf8"));
for (const path of ["test/check.test.mjs", "test/helper.mjs", "test/data.json", "src/check.mjs"]) {
  try { readFileSync(path); seen.push("read"); } catch (e) { seen.push(e.code); }
}
try { readdirSync("test"); seen.push("listed"); } catch (e) { seen.push(e.code); }
console.log("SEEN " + JSON.stringify(seen));
export function check() { return 3; }
`,
    "test/helper.mjs": "export const three = 3;\n",
    "test/data.json": "{}\n",
    "test/check.test.mjs": CHECKED_TEST.replace(
      'import { check } from "../src/check.mjs";',
      'import { check } from "../src/check.mjs";\nimport { three } from "./helper.mjs";\nimport { readFileSync } from "node:fs";\nJSON.parse(readFileSync(new URL("./data.json", import.meta.url)));\nassert.equal(three, 3);',
    ),
  }, ["test/check.test.mjs"]);
  // The test file and its helper (both pristine test code) are served from memory; data is not.
  assert.match(
    run.result.stdout,
    /SEEN \["ok","ERR_ACCESS_DENIED","read","read","read","ERR_ACCESS_DENIED"\]/,
    shown(run),
  );
  assert.equal(run.tests.get("test/check.test.mjs::real"), "passed", shown(run));
});

Deno.test("runTests() node_test records what separated checks observe, only from the tests' own files", async () => {
  const run = await runNode({
    "src/check.mjs": `export function check() {
  try { globalThis.__patchgym_observe("forged", 3); return "observed"; } catch { return "refused"; }
}
`,
    "test/observe.test.mjs": `import { describe, it } from "node:test";
import { check } from "../src/check.mjs";
describe("suite", () => {
  it("observes", () => {
    __patchgym_observe("site-a", { total: [1, "x"], none: null });
    __patchgym_observe("site-b", () => { throw new RangeError("no"); }, 1);
    __patchgym_observe("site-c", check());
  });
});
`,
  }, ["test/observe.test.mjs"]);
  assert.equal(run.tests.get("test/observe.test.mjs::suite > observes"), "passed", shown(run));
  assert.deepEqual(run.observations.get("test/observe.test.mjs::suite > observes")?.observed, [
    { site: "site-a", value: ["o", [["total", ["a", [["n", "1"], ["s", "x"]]]], ["none", ["z"]]]] },
    { site: "site-b", value: ["t", ["RangeError", "Error", "Object"], "RangeError: no"] },
    { site: "site-c", value: ["s", "refused"] },
  ]);
});

Deno.test("runTests() node_test: a test that node timed out stays failed when it settles later", async () => {
  const run = await runNode({
    "test/slow.test.mjs": `import test from "node:test";
test("slow", { timeout: 20 }, async () => {
  await new Promise((resolve) => setTimeout(resolve, 200));
});
test("quick", { timeout: 5000 }, async () => {});
`,
  }, ["test/slow.test.mjs"]);
  assert.equal(run.tests.get("test/slow.test.mjs::slow"), "failed", shown(run));
  assert.equal(run.tests.get("test/slow.test.mjs::quick"), "passed", shown(run));
});

Deno.test("runTests() node_test: frozen intrinsics keep honest code and non-ASCII names working", async () => {
  // The preload freezes the intrinsics; assigning a property an intrinsic prototype already has
  // still defines the object's own (Error subclasses naming themselves, old-style classes).
  const code = `export class ParseError extends Error {
  constructor(message) {
    super(message);
    this.name = "ParseError";
  }
}
export function Legacy(message) {
  this.message = message;
}
Legacy.prototype = Object.create(Error.prototype);
Legacy.prototype.toString = function () {
  return "Legacy: " + this.message;
};
export function shown(value) {
  const box = { value };
  box.toString = () => "box " + value;
  return String(box);
}
`;
  const tests = `import test from "node:test";
import assert from "node:assert/strict";
import { Legacy, ParseError, shown } from "../src/errors.mjs";

test("naïve ünïcode ✓ 🎉", () => {
  assert.throws(() => { throw new ParseError("bad"); }, ParseError);
  assert.equal(new ParseError("bad").name, "ParseError");
  assert.equal(String(new Legacy("old")), "Legacy: old");
  assert.equal(shown(3), "box 3");
});

test("intrinsics are frozen", () => {
  assert.throws(() => { Array.prototype.map = () => []; }, TypeError);
  assert.equal(Object.isFrozen(Object.getPrototypeOf([][Symbol.iterator]())), true);
});

test("errors still print", () => {
  throw new ParseError("printed in full");
});
`;
  const run = await runNode({ "src/errors.mjs": code, "test/errors.test.mjs": tests }, [
    "test/errors.test.mjs",
  ]);
  assert.deepEqual(outcomes(run), {
    "test/errors.test.mjs::errors still print": "failed",
    "test/errors.test.mjs::intrinsics are frozen": "passed",
    "test/errors.test.mjs::naïve ünïcode ✓ 🎉": "passed",
  }, shown(run));
  assert.deepEqual(run.problems, []);
  // util.inspect still names errors (it reads the prototypes' constructor property).
  assert.match(run.result.stdout, /ParseError: printed in full/, shown(run));
});
