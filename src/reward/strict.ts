/**
 * Strict literal comparisons: at grading time, in the graded Python test files, every single-line
 * equality assertion at the top level of a test's body with a literal on one side first checks that
 * the other side is a plain builtin value. Python lets the left operand's `__eq__` decide, and it
 * sees the expected value: a result of a `str` subclass could tell a real expected value from a
 * mutant canary's by looking at it (see `canary.ts`), or be equal to anything. A plain value
 * cannot: it is exactly an `int`, `float`, `complex`, `bool`, `str`, `bytes` or `None`, or a
 * `list`, `tuple`, `dict`, `set` or `frozenset` of such values (exact types, so subclasses,
 * namedtuples and enums fail). Otherwise the test fails with a message saying why.
 *
 * The check is written into the assertion's own line and looks up no name: it reaches `type`
 * through `"".__class__.__class__` and reads type names, flags and modules through `type`'s own
 * descriptors. Code under test can rebind any global or builtin (and put it back before the
 * reporter's next integrity check, from the result's `__eq__` or `__del__`), but it cannot change
 * the test's code, nor the builtin types. Deno tests need nothing: `node:assert/strict` compares
 * primitives with `Object.is` and objects by strict deep equality, which calls no code of theirs.
 */
import { join } from "node:path";
import type { RunnerName } from "../task/spec.ts";
import { isLiteral, splitTopLevel } from "./_literal.ts";

/** Rewrite the equality assertions of test files `files` (relative to `dir`) in place. */
export async function strictLiteralComparisons(
  dir: string,
  files: string[],
  runner: RunnerName,
): Promise<void> {
  if (runner === "deno_test") return;
  for (const file of files) {
    const path = join(dir, file);
    const source = await Deno.readTextFile(path);
    const strict = strictSource(source);
    if (strict !== source) await Deno.writeTextFile(path, strict);
  }
}

/** Python `source` with each qualifying assertion rewritten (see the module comment). */
export function strictSource(source: string): string {
  const lines = source.split("\n");
  let local = "_patchgym_value";
  for (let n = 2; source.includes(local); n++) local = `_patchgym_value${n}`;
  const starts = statementStarts(lines);
  for (let i = 0; i < lines.length; i++) {
    const header = /^([ \t]*)(?:async[ \t]+)?def[ \t]+test\w*[ \t]*\(.*:[ \t]*(?:#.*)?$/.exec(
      lines[i],
    );
    if (!header || !starts[i]) continue;
    const indent = header[1];
    let body = i + 1;
    while (body < lines.length && lines[body].trim() === "") body++;
    const bodyIndent = /^([ \t]*)\S/.exec(lines[body] ?? "")?.[1] ?? "";
    if (bodyIndent.length <= indent.length || !bodyIndent.startsWith(indent)) continue;
    for (let j = body; j < lines.length; j++) {
      const line = lines[j];
      if (line.trim() === "") continue;
      if (!line.startsWith(bodyIndent) && starts[j]) break;
      if (!starts[j] || /^\s/.test(line.slice(bodyIndent.length))) continue;
      const rewritten = strictStatement(line.slice(bodyIndent.length), local);
      if (rewritten !== null) lines[j] = bodyIndent + rewritten;
    }
  }
  return lines.join("\n");
}

/** unittest assertions that compare their first two arguments for equality (or its absence). */
const UNITTEST_EQUALITY =
  /^(self\.assert(?:Equal|Equals|NotEqual|NotEquals|ListEqual|TupleEqual|DictEqual|SetEqual|SequenceEqual|MultiLineEqual|CountEqual|AlmostEqual|AlmostEquals|NotAlmostEqual)\()(.*)\)$/;

/**
 * One statement (no leading indent) rewritten to check the non-literal side of its equality first,
 * all on one line so line numbers stay, or null when it is not such an assertion.
 */
function strictStatement(statement: string, local: string): string | null {
  const { code, comment } = splitComment(statement);
  const trimmed = code.trimEnd();
  const call = UNITTEST_EQUALITY.exec(trimmed);
  let value: string;
  let rewritten: string;
  if (call) {
    const args = splitTopLevel(call[2], ",");
    if (args === null || args.length < 2) return null;
    const side = literalSide(args[0], args[1]);
    if (side === null || /=/.test(withoutBrackets(args[1 - side]))) return null;
    value = args[1 - side].trim();
    args[1 - side] = args[1 - side].replace(value, local);
    rewritten = `${call[1]}${args.join(",")})`;
  } else {
    if (!trimmed.startsWith("assert ")) return null;
    const [condition, ...message] = splitTopLevel(trimmed.slice("assert ".length), ",") ?? [];
    if (condition === undefined || message.length > 1) return null;
    const operator = ["==", "!="].find((op) => splitTopLevel(condition, op)?.length === 2);
    if (operator === undefined) return null;
    const sides = splitTopLevel(condition, operator)!;
    const side = literalSide(sides[0], sides[1]);
    if (side === null || LOWER_THAN_COMPARISON.test(withoutBrackets(sides[1 - side]))) return null;
    value = sides[1 - side].trim();
    sides[1 - side] = sides[1 - side].replace(value, local);
    rewritten = `assert ${sides.join(operator)}${message.length ? `,${message[0]}` : ""}`;
  }
  if (value === "" || value.startsWith("*")) return null;
  const offender = `${local}_type`;
  return `${local} = ${value}; ${offender} = ${plainCheck(local)}; ` +
    `assert ${offender} is None, ${JSON.stringify(MESSAGE)} % (${offender}.__qualname__,); ` +
    `${rewritten}${comment}`;
}

/** What a test that compared a non-plain value with a literal fails with. */
const MESSAGE = "patchgym: compared a %s with a literal: results compared with literal values " +
  "must be plain builtin values (int, float, complex, bool, str, bytes, None, and lists, tuples, " +
  "dicts, sets and frozensets of them)";

/**
 * Top-level syntax that binds looser than a comparison or chains with it: with it in a side, the
 * side is not one operand of the `==` (`a or b == 1`, `a < b == c`, `x if c else y`).
 */
const LOWER_THAN_COMPARISON = /\b(?:and|or|not|if|else|lambda|in|is|await)\b|[<>=!]|:=/;

/** Which side (0 or 1) is a literal while the other is not, or null. */
function literalSide(first: string, second: string): 0 | 1 | null {
  const [a, b] = [isLiteral(first, true), isLiteral(second, true)];
  return a === b ? null : a ? 0 : 1;
}

/** `text` with strings emptied and bracketed parts dropped: its top-level syntax only. */
function withoutBrackets(text: string): string {
  let out = text.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""');
  for (let before = ""; before !== out;) {
    before = out;
    out = out.replace(/\([^()[\]{}]*\)|\[[^()[\]{}]*\]|\{[^()[\]{}]*\}/g, "");
  }
  return out;
}

/**
 * A Python expression that is None when `name` holds a plain builtin value, otherwise the first
 * type found that is not one. It names nothing code under test could rebind: `type` comes from a
 * string literal's class, and a type is plain when it is static (not built by a `class`
 * statement: flag 1 << 9 clear), its module is `builtins` and its name one of the plain ones, all
 * read through `type`'s own descriptors, which a metaclass cannot override.
 */
function plainCheck(name: string): string {
  const get = (attr: string, of: string) => `t.__dict__["${attr}"].__get__(${of})`;
  const plain = `${get("__name__", "k")} if not ${get("__flags__", "k")} & 512 and ` +
    `${get("__module__", "k")} == "builtins" and ${get("__name__", "k")} in ` +
    `("int", "float", "complex", "bool", "str", "bytes", "NoneType", "list", "tuple", "set", ` +
    `"frozenset", "dict") else None`;
  const first = (items: string) => `([o for ${items} if o is not None] + [None])[0]`;
  const visit = `(lambda n: k if n is None ` +
    `else ${first("e in x for o in (p(p, e),)")} ` +
    `if n in ("list", "tuple", "set", "frozenset") ` +
    `else ${first("e, f in x.items() for o in (p(p, e), p(p, f))")} if n == "dict" ` +
    `else None)(${plain})`;
  return `(lambda t: (lambda p: p(p, ${name}))(lambda p, x: (lambda k: ${visit})(t(x))))` +
    `("".__class__.__class__)`;
}

/** A line's code and its trailing comment (with the spaces before it), split outside strings. */
function splitComment(line: string): { code: string; comment: string } {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#") {
      const code = line.slice(0, i).trimEnd();
      return { code, comment: line.slice(code.length) };
    }
  }
  return { code: line, comment: "" };
}

/**
 * For each line, whether a statement can start on it: it is not inside a bracket or a
 * triple-quoted string opened on an earlier line, nor after a backslash continuation.
 */
function statementStarts(lines: string[]): boolean[] {
  const starts: boolean[] = [];
  let depth = 0;
  let triple: string | null = null;
  let continued = false;
  for (const line of lines) {
    starts.push(depth === 0 && triple === null && !continued);
    let quote: string | null = null;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (triple) {
        if (c === "\\") i++;
        else if (line.startsWith(triple, i)) {
          i += 2;
          triple = null;
        }
      } else if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = null;
      } else if (c === "#") break;
      else if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
        triple = line.slice(i, i + 3);
        i += 2;
      } else if (c === '"' || c === "'") quote = c;
      else if ("([{".includes(c)) depth++;
      else if (")]}".includes(c)) depth = Math.max(0, depth - 1);
    }
    continued = triple === null && line.endsWith("\\");
  }
  return starts;
}
