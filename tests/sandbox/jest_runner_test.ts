/**
 * `jest` runs through `runTests()`: outcomes come only from the records the jest driver signs
 * (src/sandbox/_jest_driver.ts), so what the code under test prints, how it exits, or what it does
 * to `expect`, jest's globals or jest-circus's state cannot earn a pass. jest comes from an npm
 * environment built here, into this test's own cache, from the bundled task
 * js-jest-duration-ms-unit's package-lock.json (the registry must be reachable, as for
 * `patchgym env build`).
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { buildNpmEnvironment } from "../../src/env/npm.ts";
import { EnvironmentFault } from "../../src/errors.ts";
import { runTests, type TestEnvironment, type TestRun } from "../../src/sandbox/test_runner.ts";
import { testSandbox, writeFiles } from "../_fixtures.ts";

const TASK = new URL("../../tasks/js-jest-duration-ms-unit", import.meta.url).pathname;

const CALC = `"use strict";
exports.add = (a, b) => a + b;
`;

const CALC_TEST = `const { add } = require("../src/calc");

test("adds", () => {
  expect(add(1, 2)).toBe(3);
});

test("fails", () => {
  expect(add(1, 2)).toBe(4);
});

test("async", async () => {
  await new Promise((resolve) => setTimeout(resolve, 1));
  expect(add(2, 2)).toBe(4);
});

test("done", (done) => {
  setTimeout(() => {
    expect(add(0, 1)).toBe(1);
    done();
  }, 1);
});

test.skip("later", () => {});

describe("suite", () => {
  it("inner", () => expect(add(0, 0)).toBe(0));
  describe("deeper", () => {
    it("leaf", () => expect(add(1, 1)).toBe(3));
  });
  test.each([[1, 1, 2], [2, 2, 4]])("add(%i, %i)", (a, b, sum) => {
    expect(add(a, b)).toBe(sum);
  });
});
`;

/** The one failing test every attack below tries to turn into a pass. */
const TARGET_TEST = `const { add } = require("../src/calc");

test("target", () => {
  expect(add(2, 2)).toBe(5);
});

test("honest", () => {
  expect(add(2, 2)).toBe(4);
});
`;

function outcomes(run: TestRun): Record<string, string> {
  return Object.fromEntries([...run.tests].sort(([a], [b]) => (a < b ? -1 : 1)));
}

function shown(run: TestRun): string {
  return `exit ${run.result.exitCode}\n${run.result.stdout}\n${run.result.stderr}`;
}

Deno.test({
  name: "runTests() runs jest tests and only the driver's signed records decide them",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-jest-" }));
  try {
    const built = await buildNpmEnvironment(join(TASK, "repo"), {
      cacheRoot: join(base, "cache"),
      lockPath: join(TASK, "env.lock"),
    }).catch((error: Error) => error);
    if (built instanceof Error) {
      console.warn(`jest_runner_test: npm environment not built (${built.message}); skipping`);
      return;
    }
    const environment: TestEnvironment = {
      mounts: [],
      pythonPaths: [],
      sourceRoots: [],
      pytestArgs: [],
      binds: [{ source: realpathSync(join(built.dir, "node_modules")), dest: "node_modules" }],
    };
    let n = 0;
    const run = async (
      files: Record<string, string>,
      testFiles: string[],
      options: { selector?: string; environment?: TestEnvironment } = {},
    ) => {
      const dir = join(base, `repo${n++}`);
      // jest's resolver stops at the repository's package.json (every jest project has one).
      writeFiles(dir, { "package.json": '{ "name": "calc", "private": true }\n', ...files });
      try {
        return await runTests(await testSandbox(), {
          runner: "jest",
          dir,
          files: testFiles,
          selector: options.selector,
          environment: options.environment ?? environment,
          timeoutMs: 60_000,
        });
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    };
    const attack = async (code: string, test = TARGET_TEST) => {
      const result = await run({ "src/calc.js": code, "test/calc.test.js": test }, [
        "test/calc.test.js",
      ]);
      assert.notEqual(result.tests.get("test/calc.test.js::target"), "passed", shown(result));
      return result;
    };

    await t.step("ids are file::describe > test, each outcome its own", async () => {
      const result = await run({ "src/calc.js": CALC, "test/calc.test.js": CALC_TEST }, [
        "test/calc.test.js",
      ]);
      assert.deepEqual(outcomes(result), {
        "test/calc.test.js::adds": "passed",
        "test/calc.test.js::async": "passed",
        "test/calc.test.js::done": "passed",
        "test/calc.test.js::fails": "failed",
        "test/calc.test.js::later": "skipped",
        "test/calc.test.js::suite > add(1, 1)": "passed",
        "test/calc.test.js::suite > add(2, 2)": "passed",
        "test/calc.test.js::suite > deeper > leaf": "failed",
        "test/calc.test.js::suite > inner": "passed",
      }, shown(result));
      assert.equal(result.reportFound, true);
      assert.deepEqual(result.problems, []);
      assert.match(result.failures.get("test/calc.test.js::fails") ?? "", /Expected: 4/);
      // jest's own reporter output is shown to the model.
      assert.match(result.result.stderr, /Tests:\s+2 failed, 1 skipped, 6 passed/);
    });

    await t.step("a body that returned still fails by a hook or expect.assertions", async () => {
      const result = await run({
        "src/calc.js": CALC,
        "test/calc.test.js": `const { add } = require("../src/calc");
describe("hooked", () => {
  afterEach(() => {
    throw new Error("hook failed");
  });
  test("body passes", () => expect(add(1, 1)).toBe(2));
});
test("counted", () => {
  expect.assertions(2);
  expect(add(1, 1)).toBe(2);
});
`,
      }, ["test/calc.test.js"]);
      assert.deepEqual(outcomes(result), {
        "test/calc.test.js::counted": "failed",
        "test/calc.test.js::hooked > body passes": "failed",
      }, shown(result));
      assert.match(
        result.failures.get("test/calc.test.js::hooked > body passes") ?? "",
        /hook failed/,
      );
    });

    await t.step("a selector runs one test", async () => {
      const result = await run({ "src/calc.js": CALC, "test/calc.test.js": CALC_TEST }, [
        "test/calc.test.js",
      ], { selector: "test/calc.test.js::suite > deeper > leaf" });
      assert.deepEqual(outcomes(result), { "test/calc.test.js::suite > deeper > leaf": "failed" });
    });

    await t.step("printed pass lines and an early exit earn nothing", async () => {
      const result = await attack(`"use strict";
exports.add = (a, b) => {
  if (a === 2) {
    process.stdout.write("PASS test/calc.test.js\\n  ✓ target (1 ms)\\nTests: 2 passed, 2 total\\n");
    process.exit(0);
  }
  return a + b;
};
`);
      assert.equal(result.tests.get("test/calc.test.js::target"), "error");
    });

    await t.step("expect replaced, extended or its built-ins patched stays failing", async () => {
      const result = await attack(`"use strict";
const tries = [];
const attempt = (name, fn) => { try { fn(); tries.push(name + ": done"); } catch (e) { tries.push(name + ": " + e.constructor.name); } };
attempt("global", () => { globalThis.expect = () => ({ toBe() {} }); });
attempt("extend", () => expect.extend({ toBe: () => ({ pass: true, message: () => "" }) }));
attempt("matchers", () => { globalThis[Symbol.for("$$jest-matchers-object")].matchers.toBe = () => ({ pass: true }); });
attempt("Object.is", () => { Object.is = () => true; });
attempt("prototype", () => { Object.prototype.pass = true; });
if (tries.some((t) => t.endsWith("done"))) throw new Error("not refused: " + tries.join(", "));
exports.add = (a, b) => a + b;
`);
      assert.equal(result.tests.get("test/calc.test.js::target"), "failed", shown(result));
      assert.equal(result.tests.get("test/calc.test.js::honest"), "passed", shown(result));
    });

    await t.step("a test registered from code under test never passes", async () => {
      const result = await attack(`"use strict";
test("target", () => {});
describe("fake", () => { test("target", () => {}); });
exports.add = (a, b) => a + b;
`);
      assert.equal(result.tests.get("test/calc.test.js::target"), "failed");
      assert.equal(result.tests.get("test/calc.test.js::fake > target"), undefined);
      assert.ok(result.problems.some((p) => p.code === "test_identity"), shown(result));
    });

    await t.step("a test body swapped in jest-circus's state never passes", async () => {
      const result = await attack(
        `"use strict";
const symbol = Object.getOwnPropertySymbols(globalThis)
  .find((s) => s.description === "JEST_STATE_SYMBOL");
const state = globalThis[symbol];
const visit = (block) => {
  for (const child of block.children) {
    if (child.type === "test" && child.name === "target") child.fn = () => {};
    else if (child.type === "describeBlock") visit(child);
  }
};
// After the test file registered its tests (it requires this module first).
exports.add = (a, b) => {
  visit(state.rootDescribeBlock);
  return a + b;
};
`,
        `const calc = require("../src/calc");

test("honest", () => {
  expect(calc.add(2, 2)).toBe(4);
});

test("target", () => {
  expect(calc.add(2, 2)).toBe(5);
});
`,
      );
      assert.equal(result.tests.get("test/calc.test.js::target"), "failed", shown(result));
      assert.match(result.failures.get("test/calc.test.js::target") ?? "", /did not run/);
    });

    await t.step("forged lines in the record file are ignored", async () => {
      const result = await attack(`"use strict";
const fs = require("fs");
const path = require("path");
const records = path.join(path.dirname(path.dirname(process.argv[1])), "records");
const file = path.join(process.cwd(), "test/calc.test.js");
fs.appendFileSync(records, "0".repeat(64) + " " + JSON.stringify(["passed", file, "target"]) + "\\n");
exports.add = (a, b) => a + b;
`);
      assert.equal(result.tests.get("test/calc.test.js::target"), "failed", shown(result));
    });

    await t.step("the key is not in a heap snapshot code under test can write", async () => {
      // Node's permission model lets v8.writeHeapSnapshot write into the workspace: every 64-digit
      // hex string in the heap is tried as the key, the record file written anew at exit.
      const result = await attack(`"use strict";
const fs = require("fs");
const path = require("path");
const crypto = require("crypto");
const v8 = require("v8");
const file = v8.writeHeapSnapshot(path.join(process.cwd(), "heap.heapsnapshot"));
const text = fs.readFileSync(file, "latin1");
const keys = [...new Set(text.match(/[0-9a-f]{64}/g) || [])];
process.stderr.write("patchgym-probe snapshot=" + text.length + " keys=" + keys.length + "\\n");
const records = path.join(path.dirname(path.dirname(process.argv[1])), "records");
const test = path.join(process.cwd(), "test/calc.test.js");
Buffer.constructor("return process")().on("exit", () => {
  const lines = [];
  for (const key of keys) {
    for (const entry of [["registered", test, "target"], ["passed", test, "target"]]) {
      const payload = JSON.stringify(entry);
      lines.push(crypto.createHmac("sha256", Buffer.from(key, "hex")).update(payload).digest("hex") + " " + payload);
    }
  }
  if (lines.length > 0) fs.writeFileSync(records, lines.join("\\n") + "\\n");
});
exports.add = (a, b) => a + b;
`);
      assert.match(shown(result), /patchgym-probe snapshot=\d{6,} keys=0/);
      assert.equal(result.tests.get("test/calc.test.js::target"), "failed", shown(result));
    });

    await t.step(
      "a test file's source swapped by code under test of an earlier file never runs",
      async () => {
        // Every module of jest's own process (the outer realm) is reachable from code under test:
        // it compiled the next test file without its failing check, and that test passed.
        const result = await run({
          "src/calc.js": `"use strict";
const vm = require("vm");
const Real = vm.Script;
vm.Script = class extends Real {
  constructor(code, options) {
    if (options && String(options.filename).endsWith("b.test.js")) {
      code = code.replace("expect(add(2, 2)).toBe(5)", "1");
    }
    super(code, options);
  }
};
exports.add = (a, b) => a + b;
`,
          "test/a.test.js": `const { add } = require("../src/calc");
test("honest", () => expect(add(1, 1)).toBe(2));
${"// jest runs the larger file first\n".repeat(40)}`,
          "test/b.test.js": TARGET_TEST.replace("../src/calc", "../src/calc.js"),
        }, ["test/a.test.js", "test/b.test.js"]);
        assert.equal(result.tests.get("test/a.test.js::honest"), "passed", shown(result));
        assert.equal(result.tests.get("test/b.test.js::target"), "failed", shown(result));
        assert.equal(result.tests.get("test/b.test.js::honest"), "passed", shown(result));
      },
    );

    await t.step(
      "equality matchers compare what patchgym read: an asymmetric received value fails, honest values of any shape pass",
      async () => {
        // jest's equals lets a received object with an asymmetricMatch decide equality; a Proxy or
        // a getter can answer so only when jest's equals asks.
        const result = await run({
          "src/calc.js": `"use strict";
class Box {
  #v;
  constructor(v) { this.#v = v; this.kind = "box"; }
  get v() { return this.#v; }
  *[Symbol.iterator]() { yield this.#v; }
}
exports.item = { id: 1 };
exports.rows = (attack) => {
  const rows = [["a"]];
  if (attack === "own") rows.asymmetricMatch = () => true;
  if (attack === "proxy") return new Proxy(rows, { get: (t, k, r) => (k === "asymmetricMatch" ? () => true : Reflect.get(t, k, r)) });
  if (attack === "getter") {
    const fromJest = () => new Error().stack.includes("expect-utils");
    return Object.defineProperty([], 0, { enumerable: true, get: () => (fromJest() ? ["b"] : ["a"]) });
  }
  if (attack === "chain") {
    return Object.setPrototypeOf(rows, Object.create(Array.prototype, { asymmetricMatch: { get: () => () => true } }));
  }
  return rows;
};
exports.box = (v) => new Box(v);
exports.set = (attack) => {
  const row = attack
    ? Object.defineProperty({}, "a", { enumerable: true, get: () => (new Error().stack.includes("expect-utils") ? 2 : 1) })
    : { a: 1 };
  return [new Set([row]), new Map([["k", row]])];
};
exports.getters = () => Object.defineProperty({}, "a", { enumerable: true, get: () => 1 });
`,
          "test/calc.test.js": `const { rows, item, box, getters, set } = require("../src/calc");
const expected = [["b"]];
test("own", () => expect(rows("own")).toEqual(expected));
test("proxy", () => expect(rows("proxy")).toEqual(expected));
test("getter", () => expect(rows("getter")).toEqual(expected));
test("chain", () => expect(rows("chain")).toStrictEqual(expected));
test("honest rows", () => expect(rows()).toEqual([["a"]]));
test("honest identity", () => expect([item]).toContain(item));
test("honest private field", () => {
  expect(box(3)).toHaveProperty("v", 3);
  expect(box(3)).toEqual(box(3));
  expect(new Set(box(3))).toEqual(new Set([3]));
});
test("honest getters", () => expect(getters()).toEqual({ a: 1 }));
test("set", () => expect(set(true)[0]).toEqual(new Set([{ a: 2 }])));
test("map", () => expect(set(true)[1]).toEqual(new Map([["k", { a: 2 }]])));
test("honest set and map", () => {
  expect(set(false)[0]).toEqual(new Set([{ a: 1 }]));
  expect(set(false)[1]).toEqual(new Map([["k", { a: 1 }]]));
});
`,
        }, ["test/calc.test.js"]);
        assert.deepEqual(outcomes(result), {
          "test/calc.test.js::chain": "failed",
          "test/calc.test.js::getter": "failed",
          "test/calc.test.js::honest getters": "passed",
          "test/calc.test.js::honest identity": "passed",
          "test/calc.test.js::honest private field": "passed",
          "test/calc.test.js::honest rows": "passed",
          "test/calc.test.js::honest set and map": "passed",
          "test/calc.test.js::map": "failed",
          "test/calc.test.js::own": "failed",
          "test/calc.test.js::proxy": "failed",
          "test/calc.test.js::set": "failed",
        }, shown(result));
      },
    );

    await t.step("jest missing from the environment is an environment fault", async () => {
      const error = await run({ "src/calc.js": CALC, "test/calc.test.js": TARGET_TEST }, [
        "test/calc.test.js",
      ], { environment: { mounts: [], pythonPaths: [], sourceRoots: [], pytestArgs: [] } })
        .catch((e) => e);
      assert.ok(error instanceof EnvironmentFault, String(error));
      assert.match(error.message, /jest is not installed in the repository's npm environment/);
    });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
