/**
 * Static discovery of the test ids a test file defines, so a task whose `fail_to_pass` names a
 * test that does not exist is rejected at load time rather than silently scoring zero.
 */
import type { RunnerName } from "./spec.ts";

/** Test ids defined in one test file, in source order (`<file>::<Class>::<name>` or `<file>::<name>`). */
export function discoverTestIds(file: string, source: string, runner: RunnerName): string[] {
  if (runner === "node_test" || runner === "jest") return discoverNode(file, source);
  return runner === "deno_test" ? discoverDeno(file, source) : discoverPython(file, source, runner);
}

function discoverPython(file: string, source: string, runner: RunnerName): string[] {
  const { entries, classes } = parsePython(source);
  const ids: string[] = [];
  for (const entry of entries) {
    if (entry.kind === "function") {
      if (runner === "pytest") ids.push(`${file}::${entry.name}`);
      continue;
    }
    for (const method of classMethods(entry.name, classes)) {
      ids.push(`${file}::${entry.name}::${method}`);
    }
  }
  return ids;
}

/**
 * Test classes of a Python test file that inherit from a class the file does not define (a mixin
 * imported from another module, as in `class LRUTest(TestCase, CacheTestMixin)`), as
 * `<file>::<Class>`: their inherited test methods cannot be read from this file alone.
 */
export function openTestClasses(file: string, source: string): string[] {
  const { entries, classes } = parsePython(source);
  const open = (name: string, seen: Set<string>): boolean => {
    if (seen.has(name)) return false;
    seen.add(name);
    return (classes.get(name)?.bases ?? []).some((base) =>
      classes.has(base) ? open(base, seen) : !ROOT_CLASSES.has(base)
    );
  };
  return entries.filter((e) => e.kind === "class" && open(e.name, new Set())).map((e) =>
    `${file}::${e.name}`
  );
}

/** Bases that bring no test methods of their own. */
const ROOT_CLASSES = new Set([
  "object",
  "TestCase",
  "unittest.TestCase",
  "IsolatedAsyncioTestCase",
  "unittest.IsolatedAsyncioTestCase",
]);

interface PythonClass {
  bases: string[];
  methods: string[];
}

/** Top-level test functions and classes in source order, and each class's bases and test methods. */
function parsePython(source: string): {
  entries: { kind: "function" | "class"; name: string }[];
  classes: Map<string, PythonClass>;
} {
  const entries: { kind: "function" | "class"; name: string }[] = [];
  const classes = new Map<string, PythonClass>();
  let current: PythonClass | null = null;
  const lines = source.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const cls = /^class\s+(\w+)\s*(\()?/.exec(line);
    if (cls) {
      let header = line.slice(cls[0].length);
      // Bases written over several lines: read to the closing parenthesis.
      while (cls[2] && !header.includes(")") && i + 1 < lines.length) header += lines[++i];
      const bases = cls[2]
        ? header.slice(0, header.indexOf(")") < 0 ? undefined : header.indexOf(")")).split(",")
          .map((b) => b.trim()).filter((b) => /^[\w.]+$/.test(b))
        : [];
      current = { bases, methods: [] };
      classes.set(cls[1], current);
      entries.push({ kind: "class", name: cls[1] });
      continue;
    }
    const fn = /^(\s*)(?:async\s+)?def\s+(test\w*)\s*\(/.exec(line);
    if (!fn) {
      if (/^\S/.test(line) && !line.startsWith("#") && !line.startsWith("@")) current = null;
      continue;
    }
    if (fn[1].length > 0 && current) current.methods.push(fn[2]);
    else if (fn[1].length === 0) entries.push({ kind: "function", name: fn[2] });
  }
  return { entries, classes };
}

/** A class's test methods: its own, then those it inherits from classes of the same file. */
function classMethods(name: string, classes: Map<string, PythonClass>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (cls: string) => {
    if (seen.has(cls)) return;
    seen.add(cls);
    const found = classes.get(cls);
    if (!found) return;
    for (const method of found.methods) if (!out.includes(method)) out.push(method);
    for (const base of found.bases) visit(base);
  };
  visit(name);
  return out;
}

function discoverDeno(file: string, source: string): string[] {
  const ids: string[] = [];
  const pattern = /Deno\.test\(\s*(?:\{\s*name:\s*)?(["'`])((?:\\.|(?!\1).)*)\1/g;
  for (const match of source.matchAll(pattern)) {
    // The name as deno reports it: escaped quotes and backslashes unescaped.
    ids.push(`${file}::${match[2].replace(/\\(["'`\\])/g, "$1")}`);
  }
  return ids;
}

/** A `test`/`it`/`describe`/`suite` call with a literal name (optionally `.skip`/`.todo`/`.only`). */
const NODE_CALL =
  /\b(test|it|describe|suite)(?:\.(?:skip|todo|only))?\(\s*(["'`])((?:\\.|(?!\2).)*)\2/y;

/**
 * node:test ids: calls of `test`, `it`, `describe` and `suite` with a literal name, named under the
 * suites whose body they are in (`suite > test`, as the node_test reporter names them). Nesting is
 * read from the braces, outside strings and comments. Suites are not ids: their tests are.
 */
function discoverNode(file: string, source: string): string[] {
  const found: { name: string; suite: boolean }[] = [];
  const open: { name: string; depth: number }[] = [];
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "/" && source[i + 1] === "/") {
      i = source.indexOf("\n", i);
      if (i < 0) break;
      continue;
    }
    if (c === "/" && source[i + 1] === "*") {
      i = source.indexOf("*/", i + 2) + 1;
      if (i <= 0) break;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      i = stringEnd(source, i);
      continue;
    }
    if (c === "{" || c === "(" || c === "[") depth++;
    else if (c === "}" || c === ")" || c === "]") {
      depth--;
      while (open.length > 0 && open[open.length - 1].depth > depth) open.pop();
      continue;
    }
    if (!/[a-z]/.test(c) || (i > 0 && /[\w$.]/.test(source[i - 1]))) continue;
    NODE_CALL.lastIndex = i;
    const call = NODE_CALL.exec(source);
    if (call === null) continue;
    const name = call[3].replace(/\\(["'`\\])/g, "$1");
    const parent = open[open.length - 1];
    const full = parent ? `${parent.name} > ${name}` : name;
    const suite = call[1] === "describe" || call[1] === "suite";
    found.push({ name: full, suite });
    // The call's own parenthesis is read next: the suite's body is deeper than this depth.
    if (suite) open.push({ name: full, depth: depth + 1 });
    i += call[0].indexOf("(") - 1;
  }
  return found.filter((f) => !f.suite).map((f) => `${file}::${f.name}`);
}

/** The index of the quote that closes the string opening at `start` (or the end of the text). */
function stringEnd(source: string, start: number): number {
  const quote = source[start];
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === quote) return i;
    else if (quote !== "`" && source[i] === "\n") return i;
  }
  return source.length;
}
