/**
 * Plain literal comparisons: at grading time, in the graded Python test files, every single-line
 * equality assertion at the top level of a test's body with a literal on one side compares the
 * literal with the *plain value* of the other side (see {@linkcode plainValue}), read before the
 * comparison. Python lets the left operand's `__eq__` decide, and it sees the expected value: a
 * result of a `str` subclass could tell a real expected value from a mutant canary's by looking at
 * it (see `canary.ts`), or be equal to anything. A plain value is builtin data (exactly an `int`,
 * `float`, `complex`, `bool`, `str`, `bytes` or `None`, or a `list`, `tuple`, `dict`, `set` or
 * `frozenset` of such), taken from the result without showing it the literal, so nothing of the
 * result runs during the comparison. A result with no plain value fails the test with a message
 * saying why.
 *
 * The check is written into the assertion's own line and looks up no name: it reaches `type`
 * through `"".__class__.__class__` and reads type names, flags and modules through `type`'s own
 * descriptors. Code under test can rebind any global or builtin (and put it back before the
 * reporter's next integrity check, from the result's `__eq__` or `__del__`), but it cannot change
 * the test's code, nor the builtin types. Deno tests need nothing: `node:assert/strict` compares
 * primitives with `Object.is` and objects by strict deep equality, which calls no code of theirs.
 */
import {
  isLiteral,
  splitComment,
  splitTopLevel,
  statementStarts,
  withoutBrackets,
} from "./_literal.ts";

/**
 * Failure output with each plain-value reading a rewritten line shows (a long expression) cut
 * back to `plain_value(NAME)`, so a traceback reads like the test's own line.
 */
export function readableFailure(text: string): string {
  for (const local of new Set(text.match(/_patchgym_value\d*/g) ?? [])) {
    text = text.replaceAll(plainValue(local), `plain_value(${local})`);
  }
  return text;
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
  return `${local} = ${value}; ${local}, ${offender} = ${plainValue(local)}; ` +
    `assert ${offender} is None, ${JSON.stringify(MESSAGE)} % (${offender},); ` +
    `${rewritten}${comment}`;
}

/** What a test that compared a non-plain value with a literal fails with. */
const MESSAGE = "patchgym: compared a %s with a literal: a result compared with a literal value " +
  "must have a plain builtin value (int, float, complex, bool, str, bytes, None, lists, tuples, " +
  "dicts, sets and frozensets of them, their subclasses, or a number with as_integer_ratio())";

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

/**
 * A Python expression whose value is `(plain, None)`, with `plain` the value of `name` as plain
 * builtin data, or `(None, type name)` when it has none. It reads the value without ever showing
 * it the literal it will be compared with, so the value cannot adapt to it:
 * - a plain scalar (exactly int, float, complex, bool, str, bytes or None) is itself;
 * - a plain list, tuple, set, frozenset or dict is rebuilt from its items, each made plain;
 * - an instance of a subclass of one of those (a namedtuple, an IntEnum, a `str` subclass with its
 *   own `__eq__`) is copied out of its storage by the builtin base's own method (`str.__str__`,
 *   `int.__index__`, `tuple.__add__`, `list.copy`, ...), which no subclass can override, and made
 *   plain in turn;
 * - any other number (`Fraction`, `Decimal`) is its `as_integer_ratio()`: an int when the
 *   denominator is 1, else the quotient as a float;
 * - anything else has no plain value.
 * It names nothing code under test could rebind: `type` comes from a string literal's class, and
 * names, flags, modules, class dictionaries and MROs are read through `type`'s own descriptors,
 * which a metaclass cannot override; a type is builtin when it is static (flag 1 << 9 clear) and
 * its module is `builtins`.
 */
function plainValue(name: string): string {
  const builtin = (c: string) =>
    `(not g("__flags__", ${c}) & 512 and g("__module__", ${c}) == "builtins")`;
  const first = (offenders: string) => `([o for o in ${offenders} if o is not None] + [None])[0]`;
  const sequence = `(lambda items: (k([i[0] for i in items]), ${first("[i[1] for i in items]")}))` +
    `([r(r, e) for e in v])`;
  const mapping = `(lambda items: ({a[0]: b[0] for a, b in items}, ` +
    `${first("[o for a, b in items for o in (a[1], b[1])]")}))` +
    `([(r(r, a), r(r, b)) for a, b in g("__dict__", k)["items"](v)])`;
  const copy = `{"str": "__str__", "int": "__index__", "float": "__float__", ` +
    `"complex": "__complex__", "bytes": "__bytes__", "tuple": "__add__", "list": "copy", ` +
    `"dict": "copy", "set": "copy", "frozenset": "copy"}`;
  const fromBase =
    `(lambda b: (lambda m: r(r, m(v, ()) if g("__name__", b) == "tuple" else m(v)))` +
    `(g("__dict__", b)[${copy}[g("__name__", b)]]))(bases[0])`;
  const isRatio =
    `p[1] is None and t(p[0]) is t(()) and g("__dict__", t(()))["__len__"](p[0]) == 2` +
    ` and t(p[0][0]) is t(0) and t(p[0][1]) is t(0) and p[0][1] > 0`;
  const ratio =
    `(lambda p: ((p[0][0] if p[0][1] == 1 else p[0][0] / p[0][1]), None) if ${isRatio}` +
    ` else (None, n))(r(r, v.as_integer_ratio()))` +
    ` if [c for c in g("__mro__", k) if "as_integer_ratio" in g("__dict__", c)] else (None, n)`;
  const bases = `[b for b in g("__mro__", k)[1:] if ${builtin("b")} and g("__name__", b) in ` +
    `("int", "float", "complex", "str", "bytes", "list", "tuple", "dict", "set", "frozenset")]`;
  const cases = `(v, None) if s and n in ("int", "float", "complex", "bool", "str", "bytes", ` +
    `"NoneType") else ${sequence} if s and n in ("list", "tuple", "set", "frozenset") ` +
    `else ${mapping} if s and n == "dict" ` +
    `else (lambda bases: ${fromBase} if bases else ${ratio})(${bases})`;
  const step = `(lambda k: (lambda n, s: ${cases})(g("__qualname__", k), ${builtin("k")}))(t(v))`;
  return `(lambda t, g: (lambda r: r(r, ${name}))(lambda r, v: ${step}))` +
    `("".__class__.__class__, lambda a, c: "".__class__.__class__.__dict__[a].__get__(c))`;
}

/**
 * Python `source` with each statement that spans several lines inside brackets (or after a
 * backslash) written on its first line, its other lines left empty so every later line keeps its
 * number: a multi-line assertion is then one line that mutant canaries and the plain-value
 * reading see like any other. Comments inside it are dropped; a statement with a triple-quoted
 * string stays as it is.
 */
export function joinStatements(source: string): string {
  const lines = source.split("\n");
  const starts = statementStarts(lines);
  for (let i = 0; i < lines.length; i++) {
    if (!starts[i]) continue;
    let depth = 0;
    let end = i;
    const parts: string[] = [];
    for (; end < lines.length; end++) {
      const scan = scanLine(lines[end]);
      if (scan === null) break;
      const code = scan.code.replace(/\\$/, "").trimEnd();
      parts.push(end === i ? code : code.trim());
      depth += scan.depth;
      if (depth < 0 || (depth === 0 && !scan.code.endsWith("\\"))) break;
    }
    if (end >= lines.length || end === i || depth !== 0 || scanLine(lines[end]) === null) continue;
    lines[i] = parts.reduce((joined, part) =>
      /[([{]$/.test(joined) || /^[)\]}]/.test(part) ? joined + part : `${joined} ${part}`
    );
    for (let j = i + 1; j <= end; j++) lines[j] = "";
    i = end;
  }
  return lines.join("\n");
}

/**
 * One line's code without its comment, and how many brackets it leaves open (negative: closes
 * more than it opens), or null when it has a triple-quoted string or an unterminated quote.
 */
function scanLine(line: string): { code: string; depth: number } | null {
  let quote: string | null = null;
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      if (line[i + 1] === c && line[i + 2] === c) return null;
      quote = c;
    } else if (c === "#") return { code: line.slice(0, i).trimEnd(), depth };
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
  }
  return quote ? null : { code: line.trimEnd(), depth };
}
