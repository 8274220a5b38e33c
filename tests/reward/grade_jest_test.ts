/**
 * The red team against jest grading: patches to the bundled task js-jest-duration-ms-unit that try
 * to earn reward without fixing `parse()`, each graded through the real grader with the task's npm
 * environment (built here into this test's own cache). Every one must earn 0 (see docs/grader.md,
 * defense 9).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../../src/agent/environment.ts";
import { buildNpmEnvironment } from "../../src/env/npm.ts";
import { gradePatch, type GradeResult } from "../../src/reward/grade.ts";
import { computeReward } from "../../src/reward/reward.ts";
import { patchOf, TASKS_DIR } from "./_grading.ts";

const TASK = "js-jest-duration-ms-unit";
const FACTS = {
  submitted: true,
  submit_status: "solved" as const,
  invalid_tool_calls: 0,
  turns: 3,
  patch_lines: 2,
  reference_patch_lines: 2,
};

const F2P: string[] = JSON.parse(readFileSync(join(TASKS_DIR, TASK, "task.json"), "utf8"))
  .fail_to_pass;
/** The hidden tests' names (describe > test), as code under test would guess them. */
const NAMES = F2P.map((id) => id.split("::")[1]);

/**
 * These tests judge what the grader decides, never its deadline: on a loaded machine (jailed runs
 * at niceness 10 beside other tests) jest took 5-9 s a file, and the task's 30 s for all of them
 * ran out. No mutation here loops, so a long budget costs nothing when the machine is idle.
 */
const GRADE_TIMEOUT_MS = 300_000;

/** Grade each patch made by `mutations` (each edits a copy of the repository) in one environment. */
async function gradeEach(
  mutations: Record<string, ((dir: string) => void) | "reference">,
  id = TASK,
): Promise<Record<string, GradeResult> | null> {
  const root = await Deno.makeTempDir({ prefix: "patchgym-grade-jest-" });
  try {
    const envCache = join(root, "env");
    const built = await buildNpmEnvironment(join(TASKS_DIR, id, "repo"), {
      cacheRoot: envCache,
      lockPath: join(TASKS_DIR, id, "env.lock"),
    }).catch((error: Error) => error);
    if (built instanceof Error) {
      console.warn(`grade_jest_test: npm environment not built (${built.message}); skipping`);
      return null;
    }
    const env = await Environment.open({
      tasksDir: TASKS_DIR,
      workRoot: join(root, "work"),
      envCache,
    });
    const task = env.task(id);
    const out: Record<string, GradeResult> = {};
    for (const [name, mutate] of Object.entries(mutations)) {
      const patch = mutate === "reference"
        ? readFileSync(join(TASKS_DIR, id, "solution.patch"), "utf8")
        : await patchOf(env, task, mutate);
      out[name] = await gradePatch(task, patch, {
        sandbox: env.sandbox,
        workRoot: env.workRoot,
        snapshot: env.snapshot(task),
        environment: env.environment(task) ?? undefined,
        timeoutMs: GRADE_TIMEOUT_MS,
      });
    }
    return out;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** A mutation that puts `prefix` at the top of src/parse.js and `inParse` first in parse(). */
function parseWith(prefix: string, inParse = ""): (dir: string) => void {
  return (dir) => {
    const path = join(dir, "src/parse.js");
    const text = readFileSync(path, "utf8").replace(
      "function parse(text) {\n",
      `function parse(text) {\n${inParse}\n`,
    );
    writeFileSync(path, `${prefix}\n${text}`);
  };
}

/** A mutation that puts `prefix` at the top of the file at `path` (relative). */
function prepend(path: string, prefix: string): (dir: string) => void {
  return (dir) => {
    const file = join(dir, path);
    writeFileSync(file, `${prefix}\n${readFileSync(file, "utf8")}`);
  };
}

function assertUnrewarded(name: string, grade: GradeResult): void {
  const detail = `${name}: ${JSON.stringify({ run: grade.run, f2p: grade.fail_to_pass.tests })}`;
  assert.equal(computeReward(grade, FACTS).total, 0, detail);
  for (const [id, outcome] of Object.entries(grade.fail_to_pass.tests)) {
    assert.notEqual(outcome, "passed", `${id}: ${detail}`);
  }
}

Deno.test("gradePatch() jest: attacks earn nothing, the reference solution earns 1.0", async () => {
  const grades = await gradeEach({
    registered: parseWith(`for (const full of ${JSON.stringify(NAMES)}) {
  const [suite, name] = full.split(" > ");
  describe(suite, () => test(name, () => {}));
}`),
    printedAndExit: parseWith(
      "",
      `  process.stdout.write(${
        JSON.stringify(
          NAMES.map((n) => `PASS test/milliseconds.test.js\n  ✓ ${n} (1 ms)\n`).join(""),
        )
      });\n  process.exit(0);`,
    ),
    expectPatched: parseWith(
      `try { globalThis.expect = () => ({ toBe() {}, toThrow() {} }); } catch {}
try { expect.extend({ toBe: () => ({ pass: true, message: () => "" }) }); } catch {}
try { Object.is = () => true; } catch {}`,
    ),
    forged: parseWith(`const fs = require("fs");
const path = require("path");
const records = path.join(path.dirname(path.dirname(process.argv[1])), "records");
for (const full of ${JSON.stringify(NAMES)}) {
  try {
    fs.appendFileSync(records, "f".repeat(64) + " " + JSON.stringify(["passed", process.cwd() + "/test/milliseconds.test.js", full]) + "\\n");
  } catch {}
}`),
    reference: "reference",
  });
  if (grades === null) return;
  for (const name of ["registered", "printedAndExit", "expectPatched", "forged"]) {
    assertUnrewarded(name, grades[name]);
  }
  assert.ok(
    grades.registered.run.problems.some((p) => p.code === "test_identity"),
    JSON.stringify(grades.registered.run),
  );
  // The locked expect still threw where the bug shows (failed, not stopped), and the failure
  // shown is the test's own (jest's frames left out).
  assert.match(grades.expectPatched.failures[F2P[0]] ?? "", /milliseconds\.test\.js:5:/);
  assert.doesNotMatch(grades.expectPatched.failures[F2P[0]] ?? "", /jest-circus/);
  assert.equal(
    grades.expectPatched.fail_to_pass.tests[F2P[0]],
    "failed",
    JSON.stringify(grades.expectPatched.fail_to_pass),
  );
  assert.equal(
    computeReward(grades.reference, FACTS).total,
    1,
    JSON.stringify(grades.reference.run),
  );
  assert.deepEqual(grades.reference.run.problems, []);
});

const CSV = "js-jest-csv-escaped-quotes";
const CSV_F2P: string[] = JSON.parse(readFileSync(join(TASKS_DIR, CSV, "task.json"), "utf8"))
  .fail_to_pass;

// What code under test loaded by a jest test can do to the driver's realm (Node's own objects, the
// outer realm of jest's vm context) and to jest's expect. Each once earned 1.0 on the csv task with
// the bug left in place.
const OUTER_ARRAY = 'Object.getPrototypeOf(Buffer.from("a").toJSON().data)';

Deno.test("gradePatch() jest: rewritten records, a stolen key and an always-equal result earn nothing, an honest fix of another shape 1.0", async () => {
  const grades = await gradeEach({
    // An outer-realm Array.prototype.toJSON that turns a failed record into a passed one before
    // the driver signs it.
    toJSON: prepend(
      "src/parse.js",
      `try {
  Object.defineProperty(${OUTER_ARRAY}, "toJSON", {
    configurable: true,
    value: function () {
      if (this.length === 4 && this[0] === "failed" && String(this[2]).startsWith("escaped quotes > ")) {
        return ["passed", this[1], this[2]];
      }
      return this;
    },
  });
} catch {}`,
    ),
    // node:crypto's native Hmac handle, whose init receives the driver's key and whose update
    // each record's text: the record file (writable, not readable) is written anew at exit with
    // the failed records turned into passed ones, signed with the key.
    stolenKey: prepend(
      "src/parse.js",
      `try {
  const crypto = require("crypto");
  const fs = require("fs");
  const path = require("path");
  const probe = crypto.createHmac("sha256", "x");
  const handle = Object.getOwnPropertySymbols(probe).map((s) => probe[s]).find((v) => v && typeof v.init === "function");
  const proto = Object.getPrototypeOf(handle);
  const [init, update] = [proto.init, proto.update];
  let key = null;
  const payloads = [];
  proto.init = function (algorithm, k, ...rest) {
    if (key === null) key = Buffer.from(k);
    return init.call(this, algorithm, k, ...rest);
  };
  proto.update = function (data, ...rest) {
    if (typeof data === "string") payloads.push(data);
    return update.call(this, data, ...rest);
  };
  // jest's process is a copy; Node's own comes from a function of the driver's realm.
  Buffer.constructor("return process")().on("exit", () => {
    if (key === null) return;
    const records = path.join(path.dirname(path.dirname(process.argv[1])), "records");
    const lines = payloads.map((payload) => {
      const entry = JSON.parse(payload);
      if (entry[0] === "failed" && String(entry[2]).startsWith("escaped quotes > ")) {
        payload = JSON.stringify(["passed", entry[1], entry[2]]);
      }
      return crypto.createHmac("sha256", key).update(payload).digest("hex") + " " + payload;
    });
    fs.writeFileSync(records, lines.join("\\n") + "\\n");
  });
} catch {}`,
    ),
    // jest's equals asks a received object with an asymmetricMatch method whether it matches: a
    // parse() that answers "yes" for text with an escaped quote passes every toEqual.
    alwaysEqual: (dir) => {
      const parse = join(dir, "src/parse.js");
      writeFileSync(
        parse,
        readFileSync(parse, "utf8").replace("function parse(text) {", "function rowsOf(text) {") +
          `function parse(text) {
  const rows = rowsOf(text);
  if (/""[^,\\n]/.test(text)) rows.asymmetricMatch = () => true;
  return rows;
}
`,
      );
      const records = join(dir, "src/records.js");
      writeFileSync(
        records,
        readFileSync(records, "utf8").replace(
          "function toRecords(rows) {\n",
          "function toRecords(rows) {\n  if (rows.asymmetricMatch) return rows;\n",
        ),
      );
    },
    // An honest fix written another way: rows of an Array subclass read field by field, records
    // of a class of their own. jest's toEqual compares both by their keys, and so does the judge.
    honest: (dir) => {
      writeFileSync(join(dir, "src/parse.js"), HONEST_PARSE);
      const records = join(dir, "src/records.js");
      writeFileSync(
        records,
        readFileSync(records, "utf8").replace(
          "return Object.fromEntries(header.map((name, k) => [name, row[k]]));",
          "return new CsvRecord(header, row);",
        ).replace(
          "/** Objects keyed by the first row's names. */",
          `/** One record: a field per column. */
class CsvRecord {
  constructor(header, row) {
    header.forEach((name, k) => {
      this[name] = row[k];
    });
  }
}

/** Objects keyed by the first row's names. */`,
        ),
      );
    },
    reference: "reference",
  }, CSV);
  if (grades === null) return;
  const rewarded = ["toJSON", "stolenKey", "alwaysEqual"].filter((name) =>
    computeReward(grades[name], FACTS).total !== 0 ||
    CSV_F2P.every((id) => grades[name].fail_to_pass.tests[id] === "passed")
  );
  assert.deepEqual(
    rewarded,
    [],
    JSON.stringify(rewarded.map((name) => [name, grades[name].run, grades[name].fail_to_pass])),
  );
  for (const name of ["honest", "reference"]) {
    const grade: GradeResult = grades[name];
    assert.equal(computeReward(grade, FACTS).total, 1, `${name}: ${JSON.stringify(grade)}`);
    assert.deepEqual(grade.run.problems, []);
    // Two of the three fail_to_pass tests compare with literals only: judged wholly outside.
    assert.deepEqual(
      grade.judged_outside.filter((id) => CSV_F2P.includes(id)),
      CSV_F2P.slice(0, 2),
    );
  }
});

const HONEST_PARSE = `"use strict";
const { CsvError } = require("./errors");

/** One row of fields. */
class Row extends Array {}

/** Rows of fields from CSV text, read a field at a time. */
function parse(text) {
  const rows = [];
  let row = new Row();
  let line = 1;
  let i = 0;
  while (i < text.length) {
    let field = "";
    if (text[i] === '"') {
      const opened = line;
      for (i++; ; i++) {
        if (i >= text.length) throw new CsvError(opened, "a quoted field is never closed");
        if (text[i] === '"' && text[i + 1] === '"') {
          field += '"';
          i++;
        } else if (text[i] === '"') {
          i++;
          break;
        } else {
          if (text[i] === "\\n") line++;
          field += text[i];
        }
      }
    }
    while (i < text.length && !",\\r\\n".includes(text[i])) field += text[i++];
    row.push(field);
    if (text[i] === ",") {
      i++;
      if (i === text.length) row.push("");
      else continue;
    }
    if (text[i] === "\\r" && text[i + 1] === "\\n") i++;
    i++;
    line++;
    rows.push(row);
    row = new Row();
  }
  return rows;
}

module.exports = { parse };
`;

// The round-trip test of the csv task (`expect(parse(stringify(rows))).toEqual(rows)`) compares
// with a value the test computes, so it is judged inside, by jest's equals in the jail.
const ROUND_TRIP = CSV_F2P[2];

/** src/parse.js with parse() wrapped: `wrap` is an expression of `rows`, what the buggy parse read. */
function parseReturns(wrap: string): (dir: string) => void {
  return (dir) => {
    const path = join(dir, "src/parse.js");
    writeFileSync(
      path,
      readFileSync(path, "utf8") +
        `const buggyParse = module.exports.parse;
module.exports.parse = function parse(text) {
  const rows = buggyParse(text);
  return ${wrap};
};
`,
    );
  };
}

Deno.test("gradePatch() jest: a received value that answers as an asymmetric matcher fails the round-trip test; memos of stringify's output are a round-trip test's limit; honest getters earn 1.0", async () => {
  const grades = await gradeEach({
    // jest's equals lets a received object with an asymmetricMatch decide equality: both passed
    // the round-trip test with the bug in place before matchers compared patchgym's copy.
    asymmetric: parseReturns(
      `Object.defineProperty(rows, "asymmetricMatch", { value: () => true, enumerable: false })`,
    ),
    proxy: parseReturns(
      `new Proxy(rows, { get: (t, k, r) => (k === "asymmetricMatch" ? () => true : Reflect.get(t, k, r)) })`,
    ),
    // A getter on the prototype that answers only when jest's equals asks (not patchgym's copy).
    prototypeGetter: parseReturns(
      `Object.setPrototypeOf(rows, Object.create(Array.prototype, { asymmetricMatch: { get: () => (new Error().stack.includes("expect-utils") ? () => true : undefined) } }))`,
    ),
    // parse() answers with what stringify() was given: no grader running the test in one process
    // can tell it from a fix. The round-trip test passes (its checks compare with the test's own
    // value); the two tests of literals, judged outside, still fail.
    memo: (dir) => {
      const stringify = join(dir, "src/stringify.js");
      writeFileSync(
        stringify,
        readFileSync(stringify, "utf8") +
          `const MEMO = new Map();
const plainStringify = module.exports.stringify;
module.exports.stringify = function stringify(rows) {
  const text = plainStringify(rows);
  MEMO.set(text, JSON.stringify(rows));
  return text;
};
module.exports.MEMO = MEMO;
`,
      );
      const parse = join(dir, "src/parse.js");
      writeFileSync(
        parse,
        readFileSync(parse, "utf8").replace(
          "function parse(text) {\n",
          `function parse(text) {\n  const known = require("./stringify").MEMO.get(text);\n  if (known !== undefined) return JSON.parse(known);\n`,
        ),
      );
    },
    // The reference fix with records whose fields are enumerable getters (jest reads them, so does
    // patchgym's copy, once).
    honestGetters: (dir) => {
      const parse = join(dir, "src/parse.js");
      writeFileSync(
        parse,
        readFileSync(parse, "utf8").replace(
          "      if (c === QUOTE) {\n",
          `      if (c === QUOTE && text[i + 1] === QUOTE) {\n        field += QUOTE;\n        i++;\n      } else if (c === QUOTE) {\n`,
        ),
      );
      const records = join(dir, "src/records.js");
      writeFileSync(
        records,
        readFileSync(records, "utf8").replace(
          "return Object.fromEntries(header.map((name, k) => [name, row[k]]));",
          `const record = {};
    header.forEach((name, k) => Object.defineProperty(record, name, { get: () => row[k], enumerable: true }));
    return record;`,
        ),
      );
    },
  }, CSV);
  if (grades === null) return;
  for (const name of ["asymmetric", "proxy", "prototypeGetter", "memo"]) {
    assert.notEqual(computeReward(grades[name], FACTS).total, 1, name);
    assert.equal(grades[name].fail_to_pass.tests[CSV_F2P[0]], "failed", name);
    assert.equal(grades[name].fail_to_pass.tests[CSV_F2P[1]], "failed", name);
  }
  for (const name of ["asymmetric", "proxy", "prototypeGetter"]) {
    assert.equal(
      grades[name].fail_to_pass.tests[ROUND_TRIP],
      "failed",
      `${name}: ${JSON.stringify(grades[name].failures)}`,
    );
  }
  // Known limit (docs/grader.md): the memo passes the round-trip test.
  assert.equal(grades.memo.fail_to_pass.tests[ROUND_TRIP], "passed");
  assert.equal(
    computeReward(grades.honestGetters, FACTS).total,
    1,
    JSON.stringify(grades.honestGetters),
  );
});
