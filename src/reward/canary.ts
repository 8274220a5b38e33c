/**
 * Canary tests: at grading time the grader adds tests with fresh random names to the pristine test
 * files of the scoring copy, some that must pass and some that must fail. Code under test cannot
 * know them in advance, so a run that reports a must-fail canary as passed, or loses a canary
 * while real tests pass, was subverted, whatever the mechanism (a patched framework, a rewritten
 * report, a plugin): the grade is 0 with `canary_mismatch`. They look like the file's other tests:
 * methods inside an existing unittest class, top-level pytest functions among the others,
 * `Deno.test` calls with sentence names.
 *
 * Mutant canaries go further: a copy of a `fail_to_pass` test, placed next to it, with the
 * expected value of one of its top-level equality assertions changed. It runs the same code under
 * test as the real test and fails the same way, so it cannot be told apart by its body or its
 * failure text, and it must fail: a result that compares equal to anything, or a flip of the real
 * test's failure, makes it pass.
 */
import { join } from "node:path";
import type { TestOutcome } from "../sandbox/junit.ts";
import type { IntegrityProblem } from "../sandbox/test_runner.ts";
import type { RunnerName } from "../task/spec.ts";

/** A test the grader added, and how it must come out. */
export interface Canary {
  id: string;
  expect: "pass" | "fail";
  /** For a mutant canary, the test it copies: the mutant only has to fail when that one passes. */
  original?: string;
}

/** A source of random integers in `[0, n)`; cryptographic by default. */
export type RandomInt = (n: number) => number;

/**
 * Add canaries to each test file (relative to `dir`) in place, and a mutant canary for each test
 * of `mutate` (test ids) whose body has an assertion to mutate; returns what was added.
 */
export async function plantCanaries(
  dir: string,
  files: string[],
  runner: RunnerName,
  options: { random?: RandomInt; mutate?: string[] } = {},
): Promise<Canary[]> {
  const random = options.random ?? secureRandomInt;
  const canaries: Canary[] = [];
  for (const file of files) {
    const path = join(dir, file);
    let source = await Deno.readTextFile(path);
    const name = namer(source, random);
    for (const id of options.mutate ?? []) {
      if (!id.startsWith(`${file}::`)) continue;
      const mutant = plantMutant(file, source, id, runner, name);
      if (mutant === null) continue;
      source = mutant.source;
      canaries.push(mutant.canary);
    }
    const expects: Canary["expect"][] = ["pass", "fail"];
    if (random(2) === 1) expects.push(random(2) === 1 ? "pass" : "fail");
    const planted = runner === "deno_test"
      ? plantDeno(file, source, expects, random, name)
      : runner === "unittest"
      ? plantUnittest(file, source, expects, random, name)
      : plantPytest(file, source, expects, random, name);
    await Deno.writeTextFile(path, planted.source);
    canaries.push(...planted.canaries);
  }
  return canaries;
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

interface Planted {
  source: string;
  canaries: Canary[];
}

const VERBS = [
  "handles",
  "keeps",
  "returns",
  "rejects",
  "accepts",
  "parses",
  "rounds",
  "sorts",
  "merges",
  "splits",
  "counts",
  "formats",
  "preserves",
  "normalizes",
];
const NOUNS = [
  "empty input",
  "large values",
  "unicode text",
  "negative numbers",
  "duplicates",
  "whitespace",
  "boundary values",
  "nested items",
  "original order",
  "defaults",
  "zero",
  "single item",
  "mixed case",
  "trailing separator",
];

/** Gives fresh test names for one file, its words joined by `join` (`" "` or `"_"`). */
type Namer = (join: string) => string;

/**
 * Fresh names for the tests added to one file: words from the lists plus, when needed, a number;
 * never in the file's source, and never one given before (two tests with one name would be
 * reported as one).
 */
function namer(source: string, random: RandomInt): Namer {
  const given = new Set<string>();
  return (join) => {
    for (let attempt = 0;; attempt++) {
      const words = `${VERBS[random(VERBS.length)]} ${NOUNS[random(NOUNS.length)]}`;
      const suffix = attempt < 5 ? "" : ` ${random(1000)}`;
      const name = (words + suffix).replaceAll(" ", join);
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
  name: Namer,
): Planted {
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
    const cls = `Test${name(" ").split(" ").map((w) => w[0].toUpperCase() + w.slice(1)).join("")}`;
    const methods = expects.map((expect) => {
      const method = `test_${name("_")}`;
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
    const method = `test_${name("_")}`;
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
  name: Namer,
): Planted {
  const lines = source.split("\n");
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^(?:async\s+)?def test\w*\s*\(/.test(lines[i])) continue;
    let start = i;
    while (start > 0 && lines[start - 1].startsWith("@")) start--;
    starts.push(start);
  }
  const canaries: Canary[] = [];
  const inserts = expects.map((expect) => ({
    at: starts.length > 0 ? starts[random(starts.length)] : lines.length,
    expect,
  })).sort((a, b) => b.at - a.at);
  for (const { at, expect } of inserts) {
    const test = `test_${name("_")}`;
    const { expr, value } = arithmetic(random, expect);
    canaries.push({ id: `${file}::${test}`, expect });
    lines.splice(at, 0, `def ${test}():\n    assert ${expr} == ${value}\n\n`);
  }
  return { source: lines.join("\n"), canaries };
}

function plantDeno(
  file: string,
  source: string,
  expects: Canary["expect"][],
  random: RandomInt,
  name: Namer,
): Planted {
  const canaries: Canary[] = [];
  const tests = expects.map((expect) => {
    const test = name(" ");
    const { expr, value } = arithmetic(random, expect);
    canaries.push({ id: `${file}::${test}`, expect });
    return `Deno.test(${JSON.stringify(test)}, () => {\n  const actual = ${expr};\n` +
      `  if (actual !== ${value}) throw new Error(\`expected ${value}, got \${actual}\`);\n});\n`;
  });
  return { source: `${source}${source.endsWith("\n") ? "" : "\n"}\n${tests.join("\n")}`, canaries };
}

/**
 * A mutant copy of test `id` placed right after it, or null when the test has no single-line
 * top-level equality assertion with a literal expected value.
 */
function plantMutant(
  file: string,
  source: string,
  id: string,
  runner: RunnerName,
  name: Namer,
): { source: string; canary: Canary } | null {
  const lines = source.split("\n");
  const block = runner === "deno_test"
    ? denoBlock(lines, id.slice(file.length + 2))
    : pythonBlock(lines, id.slice(file.length + 2).split("::"));
  if (block === null) return null;
  const copy = lines.slice(block.start, block.end);
  const bodyIndent = /^(\s+)\S/.exec(copy[block.header - block.start + 1] ?? "")?.[1];
  if (!bodyIndent) return null;
  let mutated = false;
  for (let i = block.header - block.start + 1; i < copy.length && !mutated; i++) {
    const line = copy[i];
    if (!line.startsWith(bodyIndent) || /^\s/.test(line.slice(bodyIndent.length))) continue;
    const changed = mutateAssertion(line.slice(bodyIndent.length), runner);
    if (changed !== null) {
      copy[i] = bodyIndent + changed;
      mutated = true;
    }
  }
  if (!mutated) return null;
  const headerAt = block.header - block.start;
  let mutantId: string;
  if (runner === "deno_test") {
    const test = name(" ");
    copy[headerAt] = copy[headerAt].replace(
      /(Deno\.test\(\s*(?:\{\s*name:\s*)?)(["'`])((?:\\.|(?!\2).)*)\2/,
      (_m, head) => `${head}${JSON.stringify(test)}`,
    );
    mutantId = `${file}::${test}`;
  } else {
    const test = `test_${name("_")}`;
    copy[headerAt] = copy[headerAt].replace(/def\s+\w+/, `def ${test}`);
    const parts = id.slice(file.length + 2).split("::");
    mutantId = [file, ...parts.slice(0, -1), test].join("::");
  }
  const out = [...lines.slice(0, block.end), "", ...copy, ...lines.slice(block.end)];
  return { source: out.join("\n"), canary: { id: mutantId, expect: "fail", original: id } };
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
  const header = lines.findIndex((l, i) =>
    i > from && new RegExp(`^${indent}(?:async\\s+)?def\\s+${name}\\s*\\(`).test(l)
  );
  if (header < 0 || !lines[header].trimEnd().endsWith(":")) return null;
  let start = header;
  while (start > 0 && lines[start - 1].startsWith(`${indent}@`)) start--;
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
 * The statement with the expected value of an equality assertion changed, or null. Only
 * single-line statements whose last argument (or right side of `==`) is a literal.
 */
function mutateAssertion(statement: string, runner: RunnerName): string | null {
  const python = runner !== "deno_test";
  const call = python
    ? /^(self\.assert(?:Equal|Equals|ListEqual|TupleEqual|DictEqual)\()(.*)\)$/.exec(statement)
    : /^((?:assert\.(?:equal|strictEqual|deepEqual|deepStrictEqual)|assertEquals|assertStrictEquals)\()(.*)\);$/
      .exec(statement);
  if (call) {
    const args = splitTopLevel(call[2], ",");
    if (args === null || args.length !== 2) return null;
    const expected = mutateLiteral(args[1], python);
    return expected === null ? null : `${call[1]}${args[0]},${expected}${python ? ")" : ");"}`;
  }
  if (!python || !statement.startsWith("assert ")) return null;
  const sides = splitTopLevel(statement.slice("assert ".length), "==");
  if (sides === null || sides.length !== 2) return null;
  const expected = mutateLiteral(sides[1], python);
  return expected === null ? null : `assert ${sides[0]}==${expected}`;
}

/** Split at top-level separators (outside brackets and strings); null if unbalanced. */
function splitTopLevel(text: string, separator: string): string[] | null {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") quote = c;
    else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(last, i));
      last = i + separator.length;
      i += separator.length - 1;
    }
    if (depth < 0) return null;
  }
  if (depth !== 0 || quote) return null;
  parts.push(text.slice(last));
  return parts;
}

/** A literal with one value changed (first number, string or boolean), or null if not a literal. */
function mutateLiteral(text: string, python: boolean): string | null {
  const withoutStrings = text.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""');
  const words = python ? /^(True|False|None)$/ : /^(true|false|null|undefined)$/;
  for (const word of withoutStrings.match(/[A-Za-z_]\w*/g) ?? []) {
    if (!words.test(word)) return null;
  }
  if (/[`]/.test(text) || /[^\s\w.,\-+()[\]{}:"']/.test(withoutStrings)) return null;
  // A number only when it stands alone: not `0x10`, `1e3`, `1_000` or `1j`.
  const token =
    /"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])|\b(?:True|False|true|false)\b/
      .exec(text);
  if (!token) return null;
  const value = token[0];
  let replacement: string;
  if (value.startsWith('"') || value.startsWith("'")) {
    replacement = `${value.slice(0, -1)}~${value.slice(-1)}`;
  } else if (/^(True|False|true|false)$/.test(value)) {
    replacement = { True: "False", False: "True", true: "false", false: "true" }[value]!;
  } else {
    // A float stays a float: 2.0 becomes 3.0, not 3.
    const next = Number(value) + 1;
    replacement = value.includes(".") && Number.isInteger(next) ? `${next}.0` : String(next);
  }
  return text.slice(0, token.index) + replacement + text.slice(token.index + value.length);
}

function secureRandomInt(n: number): number {
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return value % n;
}
