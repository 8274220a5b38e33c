/**
 * The red team against node_test grading: patches to the bundled task js-semver-caret-zero that
 * try to earn reward without fixing `caret()`, each graded through the real grader. Every one must
 * earn 0 (see docs/grader.md, defense 8).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gradePatch, type GradeResult } from "../../src/reward/grade.ts";
import { computeReward } from "../../src/reward/reward.ts";
import { patchOf, TASKS_DIR, withEnv } from "./_grading.ts";

const TASK = "js-semver-caret-zero";
const FACTS = {
  submitted: true,
  submit_status: "solved" as const,
  invalid_tool_calls: 0,
  turns: 3,
  patch_lines: 2,
  reference_patch_lines: 2,
};

/** Grade the task with `prefix` put at the top of its (still buggy) src/desugar.js. */
async function gradeWith(prefix: string, inCaret = ""): Promise<GradeResult> {
  let grade: GradeResult | undefined;
  await withEnv(async (env) => {
    const task = env.task(TASK);
    const patch = await patchOf(env, task, (dir) => {
      const path = join(dir, "src/desugar.js");
      const text = readFileSync(path, "utf8").replace(
        "export function caret(text) {\n",
        `export function caret(text) {\n${inCaret}\n`,
      );
      writeFileSync(path, `${prefix}\n${text}`);
    });
    grade = await gradePatch(task, patch, {
      sandbox: env.sandbox,
      workRoot: env.workRoot,
      snapshot: env.snapshot(task),
    });
  });
  return grade!;
}

function assertUnrewarded(grade: GradeResult): void {
  const detail = JSON.stringify({ run: grade.run, f2p: grade.fail_to_pass.tests });
  assert.equal(computeReward(grade, FACTS).total, 0, detail);
  for (const [id, outcome] of Object.entries(grade.fail_to_pass.tests)) {
    assert.notEqual(outcome, "passed", `${id}: ${detail}`);
  }
}

const F2P: string[] = JSON.parse(readFileSync(join(TASKS_DIR, TASK, "task.json"), "utf8"))
  .fail_to_pass;
/** The hidden tests' names (suite > test), as code under test would guess them. */
const NAMES = F2P.map((id) => id.split("::")[1]);

Deno.test("gradePatch() node_test: tests registered from code under test earn nothing", async () => {
  const grade = await gradeWith(`import { describe, it } from "node:test";
for (const full of ${JSON.stringify(NAMES)}) {
  const [suite, name] = full.split(" > ");
  describe(suite, () => it(name, () => {}));
}`);
  assertUnrewarded(grade);
  assert.ok(grade.run.problems.some((p) => p.code === "test_identity"), JSON.stringify(grade.run));
});

Deno.test("gradePatch() node_test: node's own test module (require) earns nothing", async () => {
  const grade = await gradeWith(`import { createRequire } from "node:module";
const real = createRequire(import.meta.url)("node:test");
for (const full of ${JSON.stringify(NAMES)}) {
  const [suite, name] = full.split(" > ");
  real.describe(suite, () => real.it(name, () => {}));
}`);
  assertUnrewarded(grade);
});

Deno.test("gradePatch() node_test: printed passes and an early exit earn nothing", async () => {
  const grade = await gradeWith(
    "",
    `  process.stdout.write(${
      JSON.stringify(NAMES.map((n, i) => `ok ${i + 1} - ${n}\n✔ ${n} (1ms)\n`).join(""))
    });\n  process.exit(0);`,
  );
  assertUnrewarded(grade);
  // The exit came during the first test that called caret(): it never finished.
  assert.ok(
    Object.values(grade.failures).some((text) => /did not finish/.test(text)),
    JSON.stringify(grade.failures),
  );
});

Deno.test("gradePatch() node_test: a no-op assert or a forged record earns nothing", async () => {
  const grade = await gradeWith(`import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
try { assert.equal = () => {}; } catch {}
const records = process.execArgv.find((a) => a.startsWith("--allow-fs-write=") && a.endsWith("/records"));
for (const full of ${JSON.stringify(NAMES)}) {
  try {
    appendFileSync(records.slice(17), "f".repeat(64) + " " + JSON.stringify(["passed", process.cwd() + "/test/caret.test.js", full]) + "\\n");
  } catch {}
}`);
  assertUnrewarded(grade);
  // The frozen assert still threw where the bug shows.
  assert.match(grade.failures[F2P[0]] ?? "", /AssertionError/, JSON.stringify(grade.failures));
});

/** Rewrites, in a line the preload is about to write, a failed caret test into a passed one. */
const SIGN_PASSES = String.raw`
import __c from "node:crypto";
import __fs from "node:fs";
import { syncBuiltinESMExports as __sync } from "node:module";
{
  let key = null;
  const realH = __c.createHmac;
  const realW = __fs.writeSync;
  __c.createHmac = function (alg, k) { if (key === null && k && k.length === 32) key = Buffer.from(k); return realH(alg, k); };
  __fs.writeSync = function (fd, line, ...rest) {
    if (key !== null && typeof line === "string" && line.length > 65 && line[64] === " ") {
      try {
        const p = JSON.parse(line.slice(65));
        if (p[0] === "failed" && /caret ranges/.test(p[2])) {
          const payload = JSON.stringify(["passed", p[1], p[2]]);
          line = realH("sha256", key).update(payload).digest("hex") + " " + payload + "\n";
        }
      } catch {}
    }
    return realW(fd, line, ...rest);
  };
  __sync();
}`;

Deno.test("gradePatch() node_test: rebinding the preload's fs and crypto imports earns nothing", async () => {
  // syncBuiltinESMExports() once rebound the preload's own imports of createHmac (which then got
  // the key) and writeSync (which then wrote the attacker's lines): four fail_to_pass passes.
  assertUnrewarded(await gradeWith(SIGN_PASSES));
});

Deno.test("gradePatch() node_test: an Array.prototype.toJSON that rewrites records earns nothing", async () => {
  // The preload's JSON.stringify asked the record's array for toJSON, so the preload itself
  // signed "passed" for a test that failed: four fail_to_pass passes, no key needed.
  assertUnrewarded(
    await gradeWith(String.raw`
Object.defineProperty(Array.prototype, "toJSON", {
  configurable: true,
  value: function () {
    if (this.length >= 3 && this[0] === "failed" && typeof this[2] === "string" && this[2].startsWith("caret ranges")) {
      return ["passed", this[1], this[2]];
    }
    return Array.prototype.slice.call(this);
  },
});`),
  );
});

Deno.test("gradePatch() node_test: the key from Buffer's pool or crypto's handle earns nothing", async () => {
  // The key decoded with Buffer.from(hex) sat in Buffer's shared pool, and node:crypto's native
  // Hmac handle received it in init(); the record file's descriptor, reopened on a file of the
  // run's own, let the lines be rewritten and signed at exit: four fail_to_pass passes.
  assertUnrewarded(
    await gradeWith(String.raw`
import __fs from "node:fs";
import __c from "node:crypto";
{
  const cands = [];
  // 1. Buffer's pool: a key decoded from hex lives in it.
  try {
    const pool = new Uint8Array(Buffer.from("x").buffer);
    for (let i = 0; i + 32 <= pool.length; i++) cands.push(Buffer.from(pool.slice(i, i + 32)));
  } catch {}
  // 2. node:crypto's native Hmac handle gets the key in init().
  try {
    const h = __c.createHmac("sha256", "k");
    const sym = Object.getOwnPropertySymbols(h).find((s) => h[s] && typeof h[s].init === "function");
    const proto = Object.getPrototypeOf(h[sym]);
    const init = proto.init;
    proto.init = function (alg, key) {
      try { cands.push(Buffer.from(key.buffer ? Buffer.from(key.buffer, key.byteOffset, key.byteLength) : key)); } catch {}
      return init.call(this, alg, key);
    };
  } catch {}
  // 3. The preload's record file descriptor, moved to a file of ours.
  const path = process.execArgv.find((a) => a.startsWith("--allow-fs-write=") && a.endsWith("/records")).slice(17);
  const mine = __fs.openSync(path, "a");
  const ino = __fs.fstatSync(mine).ino;
  let theirs = -1;
  for (let fd = 3; fd < 100; fd++) {
    if (fd === mine) continue;
    try { if (__fs.fstatSync(fd).ino === ino) { theirs = fd; break; } } catch {}
  }
  const spill = (process.env.TMPDIR || "/tmp") + "/spill";
  if (theirs >= 0) {
    __fs.closeSync(theirs);
    const extra = [];
    for (let i = 0; i < 50; i++) {
      const fd = __fs.openSync(spill, "a+");
      if (fd === theirs) break;
      extra.push(fd);
    }
    for (const fd of extra) __fs.closeSync(fd);
  }
  process.on("exit", () => {
    let text = "";
    try { text = __fs.readFileSync(spill, "utf8"); } catch {}
    const lines = text.split("\n").filter(Boolean);
    let key = null;
    const first = lines[0];
    if (first) {
      for (const k of cands.splice(0)) {
        if (__c.createHmac("sha256", k).update(first.slice(65)).digest("hex") === first.slice(0, 64)) { key = k; break; }
      }
    }
    for (let line of lines) {
      try {
        const p = JSON.parse(line.slice(65));
        if (key && p[0] === "failed" && /caret ranges/.test(p[2])) {
          const payload = JSON.stringify(["passed", p[1], p[2]]);
          line = __c.createHmac("sha256", key).update(payload).digest("hex") + " " + payload;
        }
      } catch {}
      __fs.writeSync(mine, line + "\n");
    }
    __fs.writeSync(mine, JSON.stringify({ theirs, cands: cands.length, key: !!key }) + "\n");
  });
}`),
  );
});

Deno.test("gradePatch() node_test: emptying the tests' own loops earns nothing", async () => {
  // A replaced Array.prototype[Symbol.iterator] gave the test file's helper loops nothing to
  // check: four fail_to_pass passes. The intrinsics are frozen before code under test runs.
  assertUnrewarded(
    await gradeWith(String.raw`
{
  const real = Array.prototype[Symbol.iterator];
  Object.defineProperty(Array.prototype, Symbol.iterator, {
    configurable: true, writable: true,
    value: function () {
      const stack = new Error().stack || "";
      const lines = stack.split("\n");
      if (lines[2] && /\.test\.js:/.test(lines[2])) return real.call([]);
      return real.call(this);
    },
  });
}`),
  );
});

Deno.test("gradePatch() node_test: hooks from code under test that skip every test earn nothing", async () => {
  // node:test's hooks are not wrapped: code under test may add one, which gets each test's
  // context; a skip or todo there changes what node prints, not what the test function did.
  assertUnrewarded(
    await gradeWith(`import { beforeEach as __be, afterEach as __ae } from "node:test";
__be((t) => { try { t.skip("skipped by code under test"); } catch {} });
__ae((t) => { try { t.todo("todo"); } catch {} });`),
  );
});

Deno.test("gradePatch() node_test: the reference solution earns 1.0", async () => {
  let grade: GradeResult | undefined;
  await withEnv(async (env) => {
    const task = env.task(TASK);
    grade = await gradePatch(task, readFileSync(join(TASKS_DIR, TASK, "solution.patch"), "utf8"), {
      sandbox: env.sandbox,
      workRoot: env.workRoot,
      snapshot: env.snapshot(task),
    });
  });
  assert.equal(computeReward(grade!, FACTS).total, 1, JSON.stringify(grade!.run));
  assert.deepEqual(grade!.run.problems, []);
});
