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
  const ids: string[] = [];
  let currentClass: string | null = null;
  for (const line of source.split("\n")) {
    const cls = /^class\s+(\w+)/.exec(line);
    if (cls) {
      currentClass = cls[1];
      continue;
    }
    const fn = /^(\s*)(?:async\s+)?def\s+(test\w*)\s*\(/.exec(line);
    if (!fn) {
      if (/^\S/.test(line) && !line.startsWith("#") && !line.startsWith("@")) currentClass = null;
      continue;
    }
    if (fn[1].length > 0 && currentClass) ids.push(`${file}::${currentClass}::${fn[2]}`);
    else if (fn[1].length === 0 && runner === "pytest") ids.push(`${file}::${fn[2]}`);
  }
  return ids;
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
