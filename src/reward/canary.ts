/**
 * Canary tests: at grading time the grader adds tests with fresh random names to the pristine test
 * files of the scoring copy, some that must pass and some that must fail. Code under test cannot
 * know them in advance, so a run that reports a must-fail canary as passed, or loses a canary
 * while real tests pass, was subverted, whatever the mechanism (a patched framework, a rewritten
 * report, a plugin): the grade is 0 with `canary_mismatch`. They look like the file's other tests:
 * methods inside an existing unittest class, top-level pytest functions among the others,
 * `Deno.test` calls with sentence names.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestOutcome } from "../sandbox/junit.ts";
import type { IntegrityProblem } from "../sandbox/test_runner.ts";
import type { RunnerName } from "../task/spec.ts";

/** A test the grader added, and how it must come out. */
export interface Canary {
  id: string;
  expect: "pass" | "fail";
}

/** A source of random integers in `[0, n)`; cryptographic by default. */
export type RandomInt = (n: number) => number;

/** Add canaries to each test file (relative to `dir`) in place; returns what was added. */
export function plantCanaries(
  dir: string,
  files: string[],
  runner: RunnerName,
  random: RandomInt = secureRandomInt,
): Canary[] {
  const canaries: Canary[] = [];
  for (const file of files) {
    const path = join(dir, file);
    const source = readFileSync(path, "utf8");
    const expects: Canary["expect"][] = ["pass", "fail"];
    if (random(2) === 1) expects.push(random(2) === 1 ? "pass" : "fail");
    const planted = runner === "deno_test"
      ? plantDeno(file, source, expects, random)
      : runner === "unittest"
      ? plantUnittest(file, source, expects, random)
      : plantPytest(file, source, expects, random);
    writeFileSync(path, planted.source);
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

/** A fresh name not in `source`: words from the lists plus, when needed, a number. */
function freshName(source: string, random: RandomInt, join: string): string {
  for (let attempt = 0;; attempt++) {
    const words = `${VERBS[random(VERBS.length)]} ${NOUNS[random(NOUNS.length)]}`;
    const suffix = attempt < 5 ? "" : ` ${random(1000)}`;
    const name = (words + suffix).replaceAll(" ", join);
    if (!source.includes(name)) return name;
  }
}

/** Operands and the right and a wrong result of a small computation. */
function arithmetic(random: RandomInt): { expr: string; right: number; wrong: number } {
  const a = 2 + random(90);
  const b = 2 + random(90);
  const [expr, right] = random(2) === 0 ? [`${a} + ${b}`, a + b] : [`${a} * ${b}`, a * b];
  return { expr, right, wrong: right + 1 + random(9) };
}

function plantUnittest(
  file: string,
  source: string,
  expects: Canary["expect"][],
  random: RandomInt,
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
    const name = `Test${
      freshName(source, random, " ").split(" ").map((w) => w[0].toUpperCase() + w.slice(1)).join(
        "",
      )
    }`;
    const methods = expects.map((expect) => {
      const method = `test_${freshName(source, random, "_")}`;
      canaries.push({ id: `${file}::${name}::${method}`, expect });
      return unittestMethod(method, expect, "    ", random);
    });
    return {
      source: `${source}\n\nimport unittest\n\n\nclass ${name}(unittest.TestCase):\n${
        methods.join("\n")
      }`,
      canaries,
    };
  }
  // Insert from the bottom up so earlier line numbers stay valid.
  const inserts = expects.map((expect) => ({ target: classes[random(classes.length)], expect }))
    .sort((a, b) => b.target.bodyLine - a.target.bodyLine);
  for (const { target, expect } of inserts) {
    const method = `test_${freshName(lines.join("\n"), random, "_")}`;
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
  const { expr, right, wrong } = arithmetic(random);
  const value = expect === "pass" ? right : wrong;
  return `${indent}def ${name}(self):\n${indent}${indent}self.assertEqual(${expr}, ${value})\n`;
}

function plantPytest(
  file: string,
  source: string,
  expects: Canary["expect"][],
  random: RandomInt,
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
    const name = `test_${freshName(lines.join("\n"), random, "_")}`;
    const { expr, right, wrong } = arithmetic(random);
    canaries.push({ id: `${file}::${name}`, expect });
    const value = expect === "pass" ? right : wrong;
    lines.splice(at, 0, `def ${name}():\n    assert ${expr} == ${value}\n\n`);
  }
  return { source: lines.join("\n"), canaries };
}

function plantDeno(
  file: string,
  source: string,
  expects: Canary["expect"][],
  random: RandomInt,
): Planted {
  const canaries: Canary[] = [];
  const tests = expects.map((expect) => {
    const name = freshName(source, random, " ");
    const { expr, right, wrong } = arithmetic(random);
    canaries.push({ id: `${file}::${name}`, expect });
    const value = expect === "pass" ? right : wrong;
    return `Deno.test(${JSON.stringify(name)}, () => {\n  const actual = ${expr};\n` +
      `  if (actual !== ${value}) throw new Error(\`expected ${value}, got \${actual}\`);\n});\n`;
  });
  return { source: `${source}${source.endsWith("\n") ? "" : "\n"}\n${tests.join("\n")}`, canaries };
}

function secureRandomInt(n: number): number {
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return value % n;
}
