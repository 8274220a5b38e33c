/**
 * Canary tests: at grading time the grader adds tests to the pristine test files of the scoring
 * copy, some that must pass and some that must fail. Code under test cannot know them in advance,
 * so a run that reports a must-fail canary as passed, or loses a canary while real tests pass, was
 * subverted, whatever the mechanism (a patched framework, a rewritten report, a plugin): the grade
 * is 0 with `canary_mismatch`. They look like the file's other tests: methods inside an existing
 * unittest class, top-level pytest functions among the others, `Deno.test` calls.
 *
 * Mutant canaries go further: copies of a `fail_to_pass` test with the expected value of one of
 * its top-level equality assertions changed (two copies with different changes when the value
 * allows, one for a boolean). They run the same code under test as the real test and fail the same
 * way, and they must fail: a result that compares equal to anything, or a flip of the real test's
 * failure, makes them pass. Nothing tells them from the real test: every test of the file gets a
 * fresh random name first (see `rename.ts`) and canaries are born with names of the same form,
 * and the real test's place among its copies is random, so neither names, nor the order tests run
 * in, nor line numbers say which is which.
 */
import { join } from "node:path";
import type { TestOutcome } from "../sandbox/junit.ts";
import type { IntegrityProblem } from "../sandbox/test_runner.ts";
import { isPythonRunner, type RunnerName } from "../task/spec.ts";
import { isBuiltValue, isLiteral, splitTopLevel, withoutStrings } from "./_literal.ts";
import { type FreshName, renameTests, type TestNames } from "./rename.ts";
import { joinStatements } from "./strict.ts";

/** A test the grader added, and how it must come out. */
export interface Canary {
  id: string;
  expect: "pass" | "fail";
  /** For a mutant canary, the test it copies: the mutant only has to fail when that one passes. */
  original?: string;
}

/** A source of random integers in `[0, n)`; cryptographic by default. */
export type RandomInt = (n: number) => number;

/** What grading adds to the test files: the canaries, and the fresh names of the files' tests. */
export interface Planted {
  canaries: Canary[];
  names: TestNames;
}

/**
 * Give every test of each test file (relative to `dir`) a fresh name and add canaries, in place:
 * arithmetic ones in each file, and mutant copies of each test of `mutate` (test ids) whose body
 * has an assertion to mutate. {@linkcode plantCanariesInTexts} does the same on texts in memory.
 */
export async function plantCanaries(
  dir: string,
  files: string[],
  runner: RunnerName,
  options: { random?: RandomInt; mutate?: string[] } = {},
): Promise<Planted> {
  const texts = new Map<string, string>();
  for (const file of files) texts.set(file, await Deno.readTextFile(join(dir, file)));
  const planted = plantCanariesInTexts(texts, runner, options);
  for (const [file, text] of texts) await Deno.writeTextFile(join(dir, file), text);
  return planted;
}

/**
 * {@linkcode plantCanaries} on the texts of the test files, by path: each text is replaced by its
 * planted source, with the same random draws in the same order.
 */
export function plantCanariesInTexts(
  texts: Map<string, string>,
  runner: RunnerName,
  options: { random?: RandomInt; mutate?: string[] } = {},
): Planted {
  const random = options.random ?? secureRandomInt;
  const canaries: Canary[] = [];
  const names = new Map<string, Map<string, string>>();
  for (const [file, text] of texts) {
    // A multi-line statement becomes one line, so multi-line assertions get mutants too (and the
    // plain-value reading that follows sees them).
    const pristine = isPythonRunner(runner) ? joinStatements(text) : text;
    const name = namer(pristine, random);
    const renamed = renameTests(pristine, runner, name);
    let source = renamed.source;
    names.set(file, renamed.names);
    for (const id of options.mutate ?? []) {
      if (!id.startsWith(`${file}::`)) continue;
      const mutants = plantMutants(file, source, id, renamed.names, runner, name, random);
      if (mutants === null) continue;
      source = mutants.source;
      canaries.push(...mutants.canaries);
    }
    const expects: Canary["expect"][] = ["pass", "fail"];
    if (random(2) === 1) expects.push(random(2) === 1 ? "pass" : "fail");
    const planted = runner === "deno_test"
      ? plantJs(file, source, expects, random, name, "Deno.test")
      : runner === "node_test"
      ? plantNode(file, source, expects, random, name)
      : runner === "jest"
      ? plantJs(file, source, expects, random, name, "test")
      : runner === "unittest"
      ? plantUnittest(file, source, expects, random, name)
      : plantPytest(file, source, expects, random, name);
    texts.set(file, planted.source);
    canaries.push(...planted.canaries);
  }
  return { canaries, names };
}

/**
 * Whether the canaries came out as they must. A must-fail canary that passed or was skipped is
 * always a mismatch; a must-pass canary that did not pass, or a lost canary, is one when some real
 * test passed (otherwise the run simply crashed, and the expected tests fail on their own).
 */
export function checkCanaries(
  canaries: Canary[],
  outcomes: ReadonlyMap<string, TestOutcome>,
  realTestPassed: boolean,
): IntegrityProblem | null {
  for (const canary of canaries) {
    // A wrong answer can pass a mutant (a boolean flipped by the bug and by the mutation alike);
    // only a mutant passing next to its passing original shows a result equal to anything.
    if (canary.original !== undefined && outcomes.get(canary.original) !== "passed") continue;
    const outcome = outcomes.get(canary.id);
    const wrong = canary.expect === "fail"
      ? outcome === "passed" || outcome === "skipped" || (outcome === undefined && realTestPassed)
      : outcome !== "passed" && realTestPassed;
    if (wrong) {
      return {
        code: "canary_mismatch",
        detail: `a must-${canary.expect} canary test came out ${outcome ?? "missing"}`,
      };
    }
  }
  return null;
}

/** A file's new source and the canaries added to it. */
interface Added {
  source: string;
  canaries: Canary[];
}

const TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * Fresh names for one file's tests: random tokens of 10 letters and digits (about 2^51 of them),
 * never in the file's source and never one given before (two tests with one name would be
 * reported as one).
 */
function namer(source: string, random: RandomInt): FreshName {
  const given = new Set<string>();
  return () => {
    for (;;) {
      let name = "";
      for (let i = 0; i < 10; i++) name += TOKEN_CHARS[random(TOKEN_CHARS.length)];
      if (!source.includes(name) && !given.has(name)) {
        given.add(name);
        return name;
      }
    }
  };
}

/** A small computation and the value a canary expects of it: its result, or a wrong one. */
function arithmetic(random: RandomInt, expect: Canary["expect"]): { expr: string; value: number } {
  const a = 2 + random(90);
  const b = 2 + random(90);
  const [expr, right] = random(2) === 0 ? [`${a} + ${b}`, a + b] : [`${a} * ${b}`, a * b];
  const wrong = right + 1 + random(9);
  return { expr, value: expect === "pass" ? right : wrong };
}

function plantUnittest(
  file: string,
  source: string,
  expects: Canary["expect"][],
  random: RandomInt,
  name: FreshName,
): Added {
  const lines = source.split("\n");
  const classes: { name: string; bodyLine: number; indent: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = /^class\s+(\w+)\s*(?:\([^()]*\))?\s*:\s*(?:#.*)?$/.exec(lines[i]);
    if (!header) continue;
    let body = i + 1;
    while (body < lines.length && /^\s*(#.*)?$/.test(lines[body])) body++;
    const indent = /^(\s+)\S/.exec(lines[body] ?? "")?.[1];
    const end = lines.findIndex((line, j) => j > body && /^\S/.test(line) && !line.startsWith("#"));
    const region = lines.slice(body, end < 0 ? lines.length : end).join("\n");
    if (indent && /^\s+def test/m.test(region)) {
      classes.push({ name: header[1], bodyLine: body, indent });
    }
  }
  const canaries: Canary[] = [];
  if (classes.length === 0) {
    // No class to join: a new TestCase class of its own at the end.
    const cls = `Test${name()}`;
    const methods = expects.map((expect) => {
      const method = `test_${name()}`;
      canaries.push({ id: `${file}::${cls}::${method}`, expect });
      return unittestMethod(method, expect, "    ", random);
    });
    return {
      source: `${source}\n\nimport unittest\n\n\nclass ${cls}(unittest.TestCase):\n${
        methods.join("\n")
      }`,
      canaries,
    };
  }
  // Insert from the bottom up so earlier line numbers stay valid.
  const inserts = expects.map((expect) => ({ target: classes[random(classes.length)], expect }))
    .sort((a, b) => b.target.bodyLine - a.target.bodyLine);
  for (const { target, expect } of inserts) {
    const method = `test_${name()}`;
    canaries.push({ id: `${file}::${target.name}::${method}`, expect });
    lines.splice(target.bodyLine, 0, unittestMethod(method, expect, target.indent, random));
  }
  return { source: lines.join("\n"), canaries };
}

function unittestMethod(
  name: string,
  expect: Canary["expect"],
  indent: string,
  random: RandomInt,
): string {
  const { expr, value } = arithmetic(random, expect);
  return `${indent}def ${name}(self):\n${indent}${indent}self.assertEqual(${expr}, ${value})\n`;
}

function plantPytest(
  file: string,
  source: string,
  expects: Canary["expect"][],
  random: RandomInt,
  name: FreshName,
): Added {
  const lines = source.split("\n");
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^(?:async\s+)?def test\w*\s*\(/.test(lines[i])) continue;
    starts.push(decoratorsStart(lines, i, ""));
  }
  const canaries: Canary[] = [];
  const inserts = expects.map((expect) => ({
    at: starts.length > 0 ? starts[random(starts.length)] : lines.length,
    expect,
  })).sort((a, b) => b.at - a.at);
  for (const { at, expect } of inserts) {
    const test = `test_${name()}`;
    const { expr, value } = arithmetic(random, expect);
    canaries.push({ id: `${file}::${test}`, expect });
    lines.splice(at, 0, `def ${test}():\n    assert ${expr} == ${value}\n\n`);
  }
  return { source: lines.join("\n"), canaries };
}

/**
 * Arithmetic canaries at the end of a JavaScript or TypeScript test file, each registered by
 * calling `register` (`Deno.test`, jest's global `test`, or what `head` imports), after `head`.
 */
function plantJs(
  file: string,
  source: string,
  expects: Canary["expect"][],
  random: RandomInt,
  name: FreshName,
  register: string,
  head = "",
): Added {
  const canaries: Canary[] = [];
  const tests = expects.map((expect) => {
    const test = name();
    const { expr, value } = arithmetic(random, expect);
    canaries.push({ id: `${file}::${test}`, expect });
    return `${register}(${JSON.stringify(test)}, () => {\n  const actual = ${expr};\n` +
      `  if (actual !== ${value}) throw new Error(\`expected ${value}, got \${actual}\`);\n});\n`;
  });
  return {
    source: `${source}${source.endsWith("\n") ? "" : "\n"}\n${head}${tests.join("\n")}`,
    canaries,
  };
}

/**
 * Arithmetic canaries for a node test file (an ES module): `node:test`'s `test` imported under a
 * fresh name (imports are hoisted), so a file that names its import otherwise still gets them.
 */
function plantNode(
  file: string,
  source: string,
  expects: Canary["expect"][],
  random: RandomInt,
  name: FreshName,
): Added {
  const local = `__canary_${name()}`;
  const head = `import { test as ${local} } from "node:test";\n`;
  return plantJs(file, source, expects, random, name, local, head);
}

/**
 * `text` (a literal expected value) changed into a value of the same length and shape, or null
 * when it has nothing to change: what an impossible sample's grade expects instead (see
 * `grade.ts`).
 */
export function perturbLiteral(text: string, python: boolean, random: RandomInt): string | null {
  return mutateLiteral(text, python, random, new Set([text]));
}

/** Mutant copies per test: two when the expected value allows two different changes. */
const MUTANTS = 2;

/**
 * Mutant copies of test `id` (its own name; `names` gives its fresh one in `source`), the real
 * test at a random place among them, or null when the test was not renamed or has no single-line
 * top-level equality assertion with a literal expected value (or one built from literals, see `isBuiltValue`).
 */
function plantMutants(
  file: string,
  source: string,
  id: string,
  names: ReadonlyMap<string, string>,
  runner: RunnerName,
  name: FreshName,
  random: RandomInt,
): Added | null {
  const path = id.slice(file.length + 2).split("::");
  const own = runner === "deno_test" ? path.join("::") : path[path.length - 1];
  const renamed = [...names].find(([, original]) => original === own)?.[0];
  if (renamed === undefined) return null;
  const lines = source.split("\n");
  const block = runner === "deno_test"
    ? denoBlock(lines, renamed)
    : pythonBlock(lines, [...path.slice(0, -1), renamed]);
  if (block === null) return null;
  const test = lines.slice(block.start, block.end);
  const headerAt = block.header - block.start;
  const bodyIndent = /^(\s+)\S/.exec(test[headerAt + 1] ?? "")?.[1];
  if (!bodyIndent) return null;
  // The first top-level assertion with a literal to change; each copy changes it differently.
  const used = new Set<string>();
  const changes: string[] = [];
  let at = -1;
  for (let i = headerAt + 1; i < test.length && at < 0; i++) {
    const line = test[i];
    if (!line.startsWith(bodyIndent) || /^\s/.test(line.slice(bodyIndent.length))) continue;
    const statement = line.slice(bodyIndent.length);
    // The three values form a chain of one-character edits with the real one at a random place
    // in it (the middle, or an end with the second mutant a change of the first): code that sees
    // all three cannot take the one closest to the others for the real one.
    const chained = random(3) !== 0;
    for (let n = 0; n < MUTANTS; n++) {
      let changed: string | null = null;
      for (let attempt = 0; attempt < 5 && changed === null; attempt++) {
        const base = n === 1 && chained ? changes[0] : statement;
        const next = mutateAssertion(base, runner, random, used);
        if (next === null) break;
        if (next !== statement) changed = next;
      }
      if (changed === null) break;
      changes.push(changed);
      at = i;
    }
  }
  if (at < 0) return null;
  const copies: string[][] = [];
  const canaries: Canary[] = [];
  for (const changed of changes) {
    const copy = [...test];
    copy[at] = bodyIndent + changed;
    const fresh = runner === "deno_test" ? name() : `test_${name()}`;
    copy[headerAt] = runner === "deno_test"
      ? copy[headerAt].replace(JSON.stringify(renamed), JSON.stringify(fresh))
      : copy[headerAt].replace(/def\s+\w+/, `def ${fresh}`);
    copies.push(copy);
    const mutantId = runner === "deno_test"
      ? `${file}::${fresh}`
      : [file, ...path.slice(0, -1), fresh].join("::");
    canaries.push({ id: mutantId, expect: "fail", original: id });
  }
  // The real test's place among its copies is random: first, between them or last.
  const before = random(copies.length + 1);
  const out = [
    ...lines.slice(0, block.start),
    ...copies.slice(0, before).flatMap((copy) => [...copy, ""]),
    ...test,
    ...copies.slice(before).flatMap((copy) => ["", ...copy]),
    ...lines.slice(block.end),
  ];
  return { source: out.join("\n"), canaries };
}

/**
 * The first line of the decorators above the `def` at `header` (or `header`): blank lines between
 * them are crossed, as `joinStatements` leaves them where a decorator spanned several lines.
 */
function decoratorsStart(lines: string[], header: number, indent: string): number {
  let start = header;
  for (let i = header - 1; i >= 0; i--) {
    if (lines[i].startsWith(`${indent}@`)) start = i;
    else if (lines[i].trim() !== "") break;
  }
  return start;
}

/** Lines `[start, end)` of a Python test (decorators included) and its `def` line. */
function pythonBlock(
  lines: string[],
  path: string[],
): { start: number; header: number; end: number } | null {
  const name = path[path.length - 1];
  const cls = path.length > 1 ? path[0] : null;
  let from = -1;
  let indent = "";
  if (cls) {
    from = lines.findIndex((l) => new RegExp(`^class\\s+${cls}\\b`).test(l));
    if (from < 0) return null;
    indent = /^(\s+)\S/.exec(lines.slice(from + 1).find((l) => /^\s+\S/.test(l)) ?? "")?.[1] ??
      "";
    if (!indent) return null;
  }
  // A method is looked for in its own class only: one it inherits is not in its body.
  let until = lines.length;
  if (cls) {
    const next = lines.findIndex((l, i) => i > from && /^[^\s#)]/.test(l));
    if (next >= 0) until = next;
  }
  const header = lines.findIndex((l, i) =>
    i > from && i < until &&
    new RegExp(`^${indent}(?:async\\s+)?def\\s+${name}\\s*\\(`).test(l)
  );
  if (header < 0 || !lines[header].trimEnd().endsWith(":")) return null;
  const start = decoratorsStart(lines, header, indent);
  let end = header + 1;
  while (
    end < lines.length &&
    (lines[end].trim() === "" || /^\s/.test(lines[end].slice(indent.length)) &&
        lines[end].startsWith(indent))
  ) end++;
  while (end > header + 1 && lines[end - 1].trim() === "") end--;
  return { start, header, end };
}

/** Lines `[start, end)` of a `Deno.test("name", ...)` block ending with `});` at column 0. */
function denoBlock(
  lines: string[],
  name: string,
): { start: number; header: number; end: number } | null {
  const header = lines.findIndex((l) =>
    l.startsWith("Deno.test(") && (l.includes(JSON.stringify(name)) || l.includes(`'${name}'`))
  );
  if (header < 0) return null;
  const close = lines.findIndex((l, i) => i > header && l === "});");
  if (close < 0) return null;
  return { start: header, header, end: close + 1 };
}

/**
 * The statement with the expected value of an equality assertion changed at random, never to a
 * statement in `used` (the result is added to it), or null. Only single-line statements whose
 * last argument (or right side of `==`) is a literal.
 */
function mutateAssertion(
  statement: string,
  runner: RunnerName,
  random: RandomInt,
  used: Set<string>,
): string | null {
  const python = isPythonRunner(runner);
  const call = python
    ? /^(self\.assert(?:Equal|Equals|ListEqual|TupleEqual|DictEqual)\()(.*)\)$/.exec(statement)
    : /^((?:assert\.(?:equal|strictEqual|deepEqual|deepStrictEqual)|assertEquals|assertStrictEquals)\()(.*)\);$/
      .exec(statement);
  if (call) {
    const args = splitTopLevel(call[2], ",");
    // A trailing comma (a call that spanned lines) leaves an empty last argument.
    if (args !== null && args.length === 3 && args[2].trim() === "") args.pop();
    if (args === null || args.length !== 2) return null;
    const expected = mutateLiteral(args[1], python, random, used);
    return expected === null ? null : `${call[1]}${args[0]},${expected}${python ? ")" : ");"}`;
  }
  if (!python || !statement.startsWith("assert ")) return null;
  const sides = splitTopLevel(statement.slice("assert ".length), "==");
  if (sides === null || sides.length !== 2) return null;
  const expected = mutateLiteral(sides[1], python, random, used);
  return expected === null ? null : `assert ${sides[0]}==${expected}`;
}

/**
 * A literal with one of its numbers, strings or booleans (chosen at random) changed at random,
 * never to one in `used` (the result is added to it), or null if it is not a literal or no other
 * change is left.
 */
function mutateLiteral(
  text: string,
  python: boolean,
  random: RandomInt,
  used: Set<string>,
): string | null {
  // Only the literals of the assertion forms canaries mutate (no byte strings), and in Python
  // values built from them by constructors (`Decimal("4.50")`, `date(2025, 1, 31)`); in
  // TypeScript objects may have bare keys (`{ total: 3 }`), which are names, not values.
  if (/(?<![\w"'])b""/.test(withoutStrings(text))) return null;
  const bare = python ? text : text.replace(/([{,]\s*)[A-Za-z_$][\w$]*(\s*:)/g, '$1""$2');
  if (!isLiteral(bare, python) && !(python && isBuiltValue(text))) return null;
  // A number only when it stands alone: not `0x10`, `1e3`, `1_000` or `1j`. A string that is an
  // object key (followed by a colon) stays: changing a key changes the shape.
  const pattern =
    /"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])|\b(?:True|False|true|false)\b/g;
  const tokens = [...text.matchAll(pattern)].filter((m) =>
    !/^\s*:/.test(text.slice(m.index! + m[0].length))
  );
  // Keys of a TypeScript object written bare are skipped by the pattern (they are not quoted).
  const values = tokens.filter((m) => changedValue(m[0], () => 0) !== null);
  if (values.length === 0) return null;
  for (let attempt = 0; attempt < 20; attempt++) {
    const token = values[random(values.length)];
    const changed = changedValue(token[0], random);
    if (changed === null) continue;
    const result = text.slice(0, token.index) + changed +
      text.slice(token.index! + token[0].length);
    if (result !== text && !used.has(result)) {
      used.add(result);
      return result;
    }
  }
  return null;
}

/**
 * A literal value changed at random into one of the same length and shape, so nothing in the
 * change marks it: one character of a string, at a random place, becomes another of its kind (a
 * lowercase letter another lowercase letter, a digit another digit, anything else a letter of the
 * case around it); one digit of a number, at a random place, becomes another (a leading digit
 * never 0); a boolean flips. Null for an empty string.
 */
function changedValue(value: string, random: RandomInt): string | null {
  if (/^(True|False|true|false)$/.test(value)) {
    return { True: "False", False: "True", true: "false", false: "true" }[value]!;
  }
  const quoted = value.startsWith('"') || value.startsWith("'");
  const body = quoted ? value.slice(1, -1) : value;
  // Characters that may change: not escapes (a backslash and what follows), not a sign or point.
  const places: number[] = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "\\") {
      i++;
      continue;
    }
    if (quoted ? /[A-Za-z0-9]/.test(body[i]) : /\d/.test(body[i])) places.push(i);
  }
  if (places.length === 0) return null;
  const at = places[random(places.length)];
  const c = body[at];
  const pool = /\d/.test(c)
    ? (!quoted || /^-?\d/.test(body)) && (at === 0 || (at === 1 && body[0] === "-")) &&
        body.length > 1 &&
        /\d/.test(body[at + 1] ?? "")
      ? "123456789"
      : "0123456789"
    : /[a-z]/.test(c)
    ? "abcdefghijklmnopqrstuvwxyz"
    : "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  // Prefer characters the value already uses (a Roman numeral stays made of numeral letters), so
  // a mutant is as plausible as the real value.
  const own = [...new Set(body)].filter((x) => x !== c && pool.includes(x));
  const others = own.length > 0 && random(4) !== 0 ? own : [...pool].filter((x) => x !== c);
  const next = others[random(others.length)];
  const changed = body.slice(0, at) + next + body.slice(at + 1);
  return quoted ? `${value[0]}${changed}${value[value.length - 1]}` : changed;
}

/**
 * A cryptographically random integer in `[0, n)`. Values come from a pool refilled by one
 * `getRandomValues` call per 1024 draws: naming a file's tests takes hundreds of draws, and a call
 * each cost more than the rest of the naming.
 */
export function secureRandomInt(n: number): number {
  if (poolNext === pool.length) {
    crypto.getRandomValues(pool);
    poolNext = 0;
  }
  return pool[poolNext++] % n;
}

const pool = new Uint32Array(1024);
let poolNext = pool.length;
