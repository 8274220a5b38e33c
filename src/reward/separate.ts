/**
 * Separating expected values from tests: at grading time every check of a graded test whose
 * expected value is a literal (`self.assertEqual(result, [1, 2])`, `assert x == "a"`,
 * `assert.deepEqual(got, { a: 1 })`, `assert x is None`, `self.assertTrue(ok)`,
 * `with pytest.raises(ValueError): ...`) is rewritten into an *observation*: the test computes the
 * value under check as before and hands it to patchgym's reporter, which serializes it with its
 * own code; the expected value leaves the file and stays here, in a {@linkcode Site}. The verdict
 * on that check is reached outside the jail (`judge.ts`), so no expected value is in the process
 * that runs code under test: nothing there can find it, copy it or compare equal to it.
 *
 * Every test also gets an *end marker*, a last statement that reports that its body ran to the
 * end: a test whose body was cut short (a skip, an expected failure, a stop signal or an exit
 * raised from code under test) never passes, whatever the framework says.
 *
 * A check this cannot separate (an expected value computed by the test, `pytest.raises(match=)`,
 * `assert.throws`) stays inside under the older defenses (`strict.ts`, mutant canaries), and the
 * test is recorded as judged inside.
 */
import { parsePython } from "./_python_value.ts";
import { parseJs } from "./_js_value.ts";
import {
  splitComment,
  splitTopLevel,
  statementStarts,
  withoutBrackets,
  withoutStrings,
} from "./_literal.ts";
import { isPythonRunner, type RunnerName } from "../task/spec.ts";
import { DENO_OBSERVE } from "../sandbox/test_runner.ts";

/** How an observed value is checked against a site's expected value. */
export type CheckKind =
  | "equal"
  | "not_equal"
  | "less"
  | "less_equal"
  | "greater"
  | "greater_equal"
  | "almost"
  | "count_equal"
  | "contains"
  | "not_contains"
  | "member_of"
  | "not_member_of"
  | "is_none"
  | "is_not_none"
  | "is_true"
  | "is_false"
  | "raises"
  | "reached"
  | "js_is"
  | "js_not_is"
  | "js_deep"
  | "js_not_deep"
  | "js_equal"
  | "js_not_equal"
  | "js_throws";

/** One check whose verdict is reached outside the jail. */
export interface Site {
  id: string;
  /** The test function it belongs to: `Class::test_x` or `test_x` (Python), the name (deno). */
  test: string;
  /** Whether it is a statement of the test's own body (it must run once when the test passes). */
  top: boolean;
  /**
   * Whether it must run once when the test passes though it is not at the top of the body (a
   * statement inside nothing but plain `with` blocks: a context manager of the code under test
   * could otherwise swallow an exception raised before the check and let the body reach its end).
   */
  required?: boolean;
  kind: CheckKind;
  /** The expected value's source text (a literal), exception names for `raises`, or "". */
  expected: string;
  /** For `almost`: decimal places, or the allowed difference when `delta` is set. */
  places?: number;
  delta?: number;
  /** The check as the test wrote it, for failure messages. */
  text: string;
  /** Its line (1-based) in the separated file, for failure messages placed like a traceback's. */
  line?: number;
}

/** What separation did to one test file. */
export interface Separated {
  source: string;
  sites: Site[];
  /** End markers by id, each with its test function. */
  ends: Map<string, string>;
  /** Per test function: checks left inside (0: the test is judged wholly outside). */
  inside: Map<string, number>;
  /** Per test function: the checks left inside, as written. */
  kept: Map<string, string[]>;
}

/** Rewrite one graded test file (see the module comment). `id` makes fresh site ids. */
export function separate(source: string, runner: RunnerName, id: () => string): Separated {
  if (runner === "node_test") return separateNode(source, id, NODE);
  if (runner === "jest") return separateNode(source, id, JEST);
  return isPythonRunner(runner) ? separatePython(source, id) : separateDeno(source, id);
}

/** The audit call a rewritten Python test makes: nothing in it is a name code under test sets. */
function pyReport(event: string, site: string, value?: string): string {
  return `__import__("sys").audit("patchgym.${event}", ${JSON.stringify(site)}${
    value === undefined ? "" : `, (${value})`
  })`;
}

/** Statements that are checks (converted or not). */
const PY_CHECK =
  /^(?:self\.assert\w*\(|self\.fail\(|assert\b|pytest\.(?:raises|fail|approx)\b|with\s+(?:self\.assert\w+|pytest\.raises)\b)/;

/** A check anywhere in a line (strings emptied first). */
const PY_CHECK_ANYWHERE =
  /(?:^|[^\w.])(?:self\.assert\w*\(|self\.fail\(|assert\b|pytest\.(?:raises|fail|approx)\b)/;

interface PyFunction {
  path: string;
  header: number;
  body: number;
  end: number;
  indent: string;
}

function separatePython(source: string, id: () => string): Separated {
  const lines = source.split("\n");
  const starts = statementStarts(lines);
  const out: string[][] = lines.map((line) => [line]);
  const sites: Site[] = [];
  const ends = new Map<string, string>();
  const inside = new Map<string, number>();
  const kept = new Map<string, string[]>();
  for (const fn of pythonTests(lines, starts)) {
    let left = 0;
    const blockEnds: [number, string][] = [];
    const keep = (statement: string) => {
      left++;
      kept.set(fn.path, [...(kept.get(fn.path) ?? []), statement]);
    };
    for (let j = fn.body; j < fn.end; j++) {
      const line = lines[j];
      if (!starts[j] || line.trim() === "" || line.trim().startsWith("#")) continue;
      const indent = /^[ \t]*/.exec(line)![0];
      const statement = line.slice(indent.length);
      if (
        /^(?:async\s+)?with\b/.test(statement) && plainWith(statement) &&
        onlyPlainWithAbove(lines, starts, fn, j, indent)
      ) {
        // A plain `with` block must run to its last line when the test passes: its context
        // manager (code under test's, perhaps) could swallow an exception raised before a check
        // inside, kept inside or not. The block's end is a site that must be observed.
        const block = blockEnd(lines, starts, fn, j, indent);
        if (block !== null) {
          const site = id();
          sites.push({
            id: site,
            test: fn.path,
            top: false,
            required: true,
            kind: "reached",
            expected: "",
            text: statement,
            line: j,
          });
          // Added after the statements' own rewriting (a nested block's `except` lines come first),
          // innermost block first.
          blockEnds.unshift([block.last, `${block.indent}${pyReport("observe", site, "None")}`]);
        }
      }
      if (!PY_CHECK.test(statement)) {
        // A check that does not start its statement (`if x: assert y`, `a = 1; assert a`) stays
        // inside, and counts as such.
        if (PY_CHECK_ANYWHERE.test(withoutStrings(splitComment(statement).code))) keep(statement);
        continue;
      }
      const top = indent === fn.indent;
      const raises = /^with\s+(?:self\.assertRaises|pytest\.raises)\((.*)\)\s*:\s*(?:#.*)?$/.exec(
        statement,
      );
      if (raises) {
        const names = exceptionNames(raises[1]);
        // The block's lines: deeper than the `with`, up to the next statement at its indent.
        let last = j;
        for (let k = j + 1; k < fn.end; k++) {
          if (lines[k].trim() === "" || lines[k].trim().startsWith("#")) continue;
          if (
            starts[k] && !lines[k].startsWith(indent + " ") && !lines[k].startsWith(indent + "\t")
          ) break;
          last = k;
        }
        if (names !== null && last > j) {
          const site = id();
          sites.push({
            id: site,
            test: fn.path,
            top,
            kind: "raises",
            expected: names.join(","),
            text: statement,
            line: j,
          });
          if (!top && onlyPlainWithAbove(lines, starts, fn, j, indent)) {
            sites[sites.length - 1].required = true;
          }
          out[j] = [`${indent}try:`, ...out[j].slice(1)];
          out[last] = [
            ...out[last],
            `${indent}except BaseException as _patchgym_raised: ${
              pyReport("raised", site, "_patchgym_raised")
            }`,
            `${indent}else: ${pyReport("raised", site, "None")}`,
          ];
          continue;
        }
        keep(statement);
        continue;
      }
      const check = pythonCheck(statement);
      if (check === null) {
        keep(statement);
        continue;
      }
      const site = id();
      sites.push({ ...check.site, id: site, test: fn.path, top, text: statement, line: j });
      if (!top && onlyPlainWithAbove(lines, starts, fn, j, indent)) {
        sites[sites.length - 1].required = true;
      }
      out[j] = [`${indent}${pyReport("observe", site, check.observe)}`, ...out[j].slice(1)];
      if (check.inside) keep(statement);
    }
    for (const [last, marker] of blockEnds) out[last] = [...out[last], marker];
    inside.set(fn.path, (inside.get(fn.path) ?? 0) + left);
    const end = id();
    ends.set(end, fn.path);
    out[fn.end - 1] = [...out[fn.end - 1], `${fn.indent}${pyReport("end", end)}`];
  }
  // Each site's line in the separated file: lines added above it (end markers, `except`) move it.
  const first: number[] = [];
  let line = 1;
  for (const chunk of out) {
    first.push(line);
    line += chunk.length;
  }
  for (const site of sites) if (site.line !== undefined) site.line = first[site.line];
  return { source: out.flat().join("\n"), sites, ends, inside, kept };
}

/**
 * Whether every block around line `j` (at `indent`) up to the test's body is a plain `with`: one
 * that passes exceptions on (not `raises`, `assertRaises`, `suppress`), so in an honest run that
 * passes each statement in it runs. A loop, a condition or a `try` ends the chain.
 */
function onlyPlainWithAbove(
  lines: string[],
  starts: boolean[],
  fn: PyFunction,
  j: number,
  indent: string,
): boolean {
  let current = indent;
  for (let k = j - 1; k >= fn.body && current.length > fn.indent.length; k--) {
    const text = lines[k].trim();
    if (!starts[k] || text === "" || text.startsWith("#")) continue;
    const at = /^[ \t]*/.exec(lines[k])![0];
    if (at.length >= current.length) continue;
    const plain = /^(?:async\s+)?with\b/.test(text)
      ? plainWith(text)
      : literalLoop(lines, starts, fn, k, at, text);
    if (!plain) return false;
    current = at;
  }
  return current === fn.indent;
}

/**
 * Whether line `k` is a `for` over a non-empty literal (`for x in (1, 2):`) whose block neither
 * breaks nor continues: each pass runs its whole body, whatever the code under test does.
 */
function literalLoop(
  lines: string[],
  starts: boolean[],
  fn: PyFunction,
  k: number,
  indent: string,
  text: string,
): boolean {
  const loop = /^for\s+[\w\s,()]+?\s+in\s+(.+?)\s*:\s*(?:#.*)?$/.exec(splitComment(text).code);
  if (loop === null) return false;
  const literal = parsePython(loop[1].trim());
  if (literal === null || !/^[([{]\s*[^\s)\]}]/.test(loop[1].trim())) return false;
  for (let m = k + 1; m < fn.end; m++) {
    const line = lines[m].trim();
    if (line === "" || line.startsWith("#")) continue;
    const at = /^[ \t]*/.exec(lines[m])![0];
    if (starts[m] && at.length <= indent.length) break;
    if (starts[m] && /^(?:break|continue)\b/.test(line)) return false;
  }
  return true;
}

/** Whether a `with` statement's context managers pass exceptions on (none expects or suppresses). */
function plainWith(statement: string): boolean {
  return !/raises|Raises|suppress|subTest/.test(statement);
}

/**
 * The last line of the `with` block at line `j` and its body's indent, or null when the body is on
 * the `with` line or ends in a statement that leaves it (`return`, `raise`, `break`, `continue`, a
 * fail or skip call).
 */
function blockEnd(
  lines: string[],
  starts: boolean[],
  fn: PyFunction,
  j: number,
  indent: string,
): { last: number; indent: string } | null {
  let last = j;
  let body: string | null = null;
  let lastStatement = "";
  for (let k = j + 1; k < fn.end; k++) {
    const text = lines[k].trim();
    if (text === "" || text.startsWith("#")) continue;
    const at = /^[ \t]*/.exec(lines[k])![0];
    if (starts[k] && at.length <= indent.length) break;
    if (starts[k] && body === null) body = at;
    if (starts[k]) lastStatement = text;
    last = k;
  }
  if (body === null || last === j || body.length <= indent.length) return null;
  if (
    /^(?:return|raise|break|continue)\b|^(?:pytest\.(?:fail|skip|xfail)|self\.(?:fail|skipTest))\b/
      .test(lastStatement)
  ) {
    return null;
  }
  return { last, indent: body };
}

/** Test functions and methods (`def test*`) with their bodies `[body, end)`, last line non-blank. */
function pythonTests(lines: string[], starts: boolean[]): PyFunction[] {
  const found: PyFunction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = /^([ \t]*)(?:async[ \t]+)?def[ \t]+(test\w*)[ \t]*\(.*:[ \t]*(?:#.*)?$/.exec(
      lines[i],
    );
    if (!header || !starts[i]) continue;
    const indent = header[1];
    let body = i + 1;
    while (body < lines.length && (lines[body].trim() === "" || !starts[body])) body++;
    const bodyIndent = /^([ \t]*)\S/.exec(lines[body] ?? "")?.[1] ?? "";
    if (bodyIndent.length <= indent.length || !bodyIndent.startsWith(indent)) continue;
    let end = body + 1;
    let last = body;
    for (; end < lines.length; end++) {
      const line = lines[end];
      if (line.trim() === "" || line.trim().startsWith("#")) continue;
      if (starts[end] && !line.startsWith(bodyIndent)) break;
      last = end;
    }
    // A class method's path names its class: the nearest class header indented less.
    let path = header[2];
    if (indent !== "") {
      for (let k = i - 1; k >= 0; k--) {
        const cls = /^([ \t]*)class[ \t]+(\w+)/.exec(lines[k]);
        if (cls && cls[1].length < indent.length && starts[k]) {
          path = `${cls[2]}::${path}`;
          break;
        }
        if (/^\S/.test(lines[k]) && starts[k] && !/^(?:@|#)/.test(lines[k])) break;
      }
    }
    found.push({ path, header: i, body, end: last + 1, indent: bodyIndent });
  }
  return found;
}

/** `ValueError`, `mod.Error` or a tuple of them as names, or null (a variable, other arguments). */
function exceptionNames(args: string): string[] | null {
  const text = args.trim().replace(/^\((.*)\)$/, "$1");
  const names = text.split(",").map((n) => n.trim()).filter((n) => n !== "");
  // Class names only (`ValueError`, `errors.ParseError`): a lower-case name is a variable holding
  // the class (`pytest.raises(error)` under parametrize), whose name says nothing of the class.
  return names.length > 0 && names.every((n) => /^(?:[A-Za-z_]\w*\.)*_*[A-Z]\w*$/.test(n))
    ? names
    : null;
}

const UNITTEST_KINDS: Record<string, CheckKind> = {
  assertEqual: "equal",
  assertEquals: "equal",
  assertListEqual: "equal",
  assertTupleEqual: "equal",
  assertDictEqual: "equal",
  assertSetEqual: "equal",
  assertSequenceEqual: "equal",
  assertMultiLineEqual: "equal",
  assertNotEqual: "not_equal",
  assertNotEquals: "not_equal",
  assertCountEqual: "count_equal",
  assertAlmostEqual: "almost",
  assertAlmostEquals: "almost",
  assertLess: "less",
  assertLessEqual: "less_equal",
  assertGreater: "greater",
  assertGreaterEqual: "greater_equal",
  assertIn: "member_of",
  assertNotIn: "not_member_of",
};

/** Kinds with the literal on the left: `LIT op value` checks `value flipped-op LIT`. */
const FLIPPED: Partial<Record<CheckKind, CheckKind>> = {
  equal: "equal",
  not_equal: "not_equal",
  less: "greater",
  less_equal: "greater_equal",
  greater: "less",
  greater_equal: "less_equal",
  almost: "almost",
  count_equal: "count_equal",
  member_of: "contains",
  not_member_of: "not_contains",
};

type PyCheck = {
  site: Omit<Site, "id" | "test" | "top" | "text">;
  observe: string;
  /** Whether the observation needs the expected value inside too. */
  inside?: boolean;
};

/** A Python check statement as an observation, or null when its expected value is not a literal. */
function pythonCheck(statement: string): PyCheck | null {
  const code = splitComment(statement).code;
  const call = /^self\.(assert\w+)\((.*)\)$/.exec(code);
  if (call) {
    const args = splitTopLevel(call[2], ",")?.map((a) => a.trim());
    if (!args) return null;
    if (args.length > 0 && args[args.length - 1] === "") args.pop();
    const keywords = args.filter((a) => /^\w+\s*=[^=]/.test(a));
    const positional = args.filter((a) => !/^\w+\s*=[^=]/.test(a));
    const method = call[1];
    if (["assertTrue", "assertFalse", "assertIsNone", "assertIsNotNone"].includes(method)) {
      if (
        positional.length < 1 || positional.length > 2 || keywords.some((k) => !k.startsWith("msg"))
      ) return null;
      const value = positional[0];
      if (method === "assertIsNone" || method === "assertIsNotNone") {
        return {
          site: { kind: method === "assertIsNone" ? "is_none" : "is_not_none", expected: "" },
          observe: value,
        };
      }
      return {
        site: { kind: "equal", expected: method === "assertTrue" ? "False" : "True" },
        observe: `not (${value})`,
      };
    }
    if (method === "assertIs" || method === "assertIsNot") {
      if (positional.length < 2 || positional.length > 3) return null;
      const literal = [positional[0], positional[1]].findIndex((a) =>
        /^(True|False|None)$/.test(a)
      );
      if (literal < 0) return null;
      const word = positional[literal];
      const value = positional[1 - literal];
      const kind: CheckKind = word === "None"
        ? "is_none"
        : word === "True"
        ? "is_true"
        : "is_false";
      if (method === "assertIs") return { site: { kind, expected: "" }, observe: value };
      if (word !== "None") return null;
      return { site: { kind: "is_not_none", expected: "" }, observe: value };
    }
    if (method === "assertIsInstance" || method === "assertNotIsInstance") {
      if (positional.length < 2 || positional.length > 3) return null;
      return {
        site: { kind: "equal", expected: method === "assertIsInstance" ? "False" : "True" },
        observe: `not isinstance(${positional[0]}, ${positional[1]})`,
      };
    }
    const kind = UNITTEST_KINDS[method];
    if (kind === undefined || positional.length < 2) return null;
    let places: number | undefined;
    let delta: number | undefined;
    if (kind === "almost") {
      for (const k of keywords) {
        const m = /^(places|delta)\s*=\s*([\d.eE+-]+)$/.exec(k);
        if (m) m[1] === "places" ? (places = Number(m[2])) : (delta = Number(m[2]));
        else if (!k.startsWith("msg")) return null;
      }
      if (positional.length === 3) {
        if (!/^\d+$/.test(positional[2])) return null;
        places = Number(positional[2]);
      } else if (positional.length > 3) return null;
      places ??= delta === undefined ? 7 : undefined;
    } else if (positional.length > 3 || keywords.some((k) => !k.startsWith("msg"))) return null;
    return literalCheck(kind, positional[0], positional[1], { places, delta });
  }
  if (!code.startsWith("assert ")) return null;
  const [condition, ...message] = splitTopLevel(code.slice("assert ".length), ",") ?? [];
  if (condition === undefined || message.length > 1) return null;
  const expr = condition.trim();
  const top = withoutBrackets(expr);
  for (
    const [op, kind] of [
      ["==", "equal"],
      ["!=", "not_equal"],
      ["<=", "less_equal"],
      [">=", "greater_equal"],
      ["<", "less"],
      [">", "greater"],
    ] as const
  ) {
    if (!top.includes(op)) continue;
    const sides = splitOperator(expr, op);
    if (sides === null) return null;
    return literalCheck(kind, sides[0], sides[1], {});
  }
  const isNot = splitWord(expr, " is not ");
  if (isNot !== null) {
    return isNot[1] === "None"
      ? { site: { kind: "is_not_none", expected: "" }, observe: isNot[0] }
      : null;
  }
  const is = splitWord(expr, " is ");
  if (is !== null) {
    const kind = is[1] === "None"
      ? "is_none"
      : is[1] === "True"
      ? "is_true"
      : is[1] === "False"
      ? "is_false"
      : null;
    return kind === null ? null : { site: { kind, expected: "" }, observe: is[0] };
  }
  const notIn = splitWord(expr, " not in ");
  if (notIn !== null) return literalCheck("not_member_of", notIn[0], notIn[1], {});
  const inside = splitWord(expr, " in ");
  if (inside !== null) return literalCheck("member_of", inside[0], inside[1], {});
  // A truth check; one whose condition compares or combines (`a == 1 and b`) stays inside.
  if (/[<>=!]|\b(?:and|or|in|is|lambda|if|else|await)\b|:=/.test(top)) return null;
  return { site: { kind: "equal", expected: "False" }, observe: `not (${expr})` };
}

/** `value op literal` (or the literal first) as a check of `value`, or null. */
function literalCheck(
  kind: CheckKind,
  first: string,
  second: string,
  extra: { places?: number; delta?: number },
): PyCheck | null {
  const [a, b] = [first.trim(), second.trim()];
  const [la, lb] = [parsePython(a) !== null, parsePython(b) !== null];
  if (la === lb || a.startsWith("*") || b.startsWith("*")) return null;
  const value = la ? b : a;
  const expected = la ? a : b;
  let k: CheckKind | undefined = kind;
  if (kind === "member_of" || kind === "not_member_of") {
    // `value in LITERAL` checks membership in the literal; `LITERAL in value` checks the value.
    if (la) k = kind === "member_of" ? "contains" : "not_contains";
  } else if (la) k = FLIPPED[kind];
  if (k === undefined) return null;
  if (LOWER_THAN_COMPARISON.test(withoutBrackets(value))) return null;
  if (k === "contains" || k === "not_contains" || k === "member_of" || k === "not_member_of") {
    // A container of the code under test's own (a cache, a header map) answers `in` itself: the
    // observation carries its answer too, used only when the value has no plain form. The
    // literal is then inside, so the check counts as kept inside.
    const question = k === "contains" || k === "not_contains"
      ? `(${expected}) in v`
      : `v in (${expected})`;
    return {
      site: { kind: k, expected, ...clean(extra) },
      observe: `(lambda v: (v, ${question}))(${value})`,
      inside: true,
    };
  }
  return { site: { kind: k, expected, ...clean(extra) }, observe: value };
}

function clean(extra: { places?: number; delta?: number }): { places?: number; delta?: number } {
  const out: { places?: number; delta?: number } = {};
  if (extra.places !== undefined) out.places = extra.places;
  if (extra.delta !== undefined) out.delta = extra.delta;
  return out;
}

const LOWER_THAN_COMPARISON = /\b(?:and|or|not|if|else|lambda|in|is|await|yield)\b|[<>=!]|:=/;

/** The two sides of a top-level `op`, or null when it is not exactly one comparison. */
function splitOperator(expr: string, op: string): [string, string] | null {
  const parts = splitTopLevel(expr, op);
  if (parts === null || parts.length !== 2) return null;
  // `a <= b` also splits at `<`; `a == b` at `=`: the neighbours must not extend the operator.
  if (/[<>=!]$/.test(parts[0]) || /^[<>=]/.test(parts[1])) return null;
  return [parts[0], parts[1]];
}

function splitWord(expr: string, word: string): [string, string] | null {
  const parts = splitTopLevel(expr, word);
  if (parts === null || parts.length !== 2) return null;
  return [parts[0].trim(), parts[1].trim()];
}

// ---- deno test ----

const JS_KINDS: Record<string, CheckKind> = {
  equal: "js_is",
  strictEqual: "js_is",
  notEqual: "js_not_is",
  notStrictEqual: "js_not_is",
  deepEqual: "js_deep",
  deepStrictEqual: "js_deep",
  notDeepEqual: "js_not_deep",
  notDeepStrictEqual: "js_not_deep",
};

/**
 * How a JavaScript test file writes its checks: where a check statement starts, a check anywhere
 * in a line, and the check a statement is when its expected value can be judged outside.
 */
interface JsDialect {
  start: RegExp;
  anywhere: RegExp;
  check: (statement: string) => PyCheck | null;
}

/** `node:assert` checks (deno and node tests). */
const NODE: JsDialect = {
  start: /^(?:await\s+)?assert(?:\.\w+|\w*)\(/,
  anywhere: /(?:^|[^\w.$])assert(?:\.\w+)?\(/,
  check: (statement) => denoCheck(statement),
};

/** jest's `expect(...)` matchers, and `node:assert` checks a jest test may use too. */
const JEST: JsDialect = {
  start: /^(?:await\s+)?(?:assert(?:\.\w+|\w*)|expect)\(/,
  anywhere: /(?:^|[^\w.$])(?:assert(?:\.\w+)?|expect)\(/,
  check: (statement) => jestCheck(statement) ?? denoCheck(statement),
};

function separateDeno(source: string, id: () => string): Separated {
  const lines = joinJsStatements(source.split("\n"), NODE);
  const sites: Site[] = [];
  const inside = new Map<string, number>();
  const ends = new Map<string, string>();
  const kept = new Map<string, string[]>();
  for (let i = 0; i < lines.length; i++) {
    const header = /^Deno\.test\(\s*(?:\{\s*name\s*:\s*)?("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/
      .exec(lines[i]);
    if (!header) continue;
    const close = lines.findIndex((l, k) =>
      k > i && /^\}\)?\)?;?\s*$/.test(l) && l.startsWith("}")
    );
    if (close < 0) continue;
    let name: string;
    try {
      name = JSON.parse(
        header[1].startsWith("'") ? `"${header[1].slice(1, -1).replace(/"/g, '\\"')}"` : header[1],
      );
    } catch {
      continue;
    }
    separateJsTest(lines, i, close, name, id, { sites, inside, kept }, NODE);
    i = close;
  }
  return { source: lines.join("\n"), sites, ends, inside, kept };
}

/**
 * Separate the checks of one JavaScript test, its body on lines `from + 1` to `close - 1`, in
 * place: each assertion that starts its line and compares with a literal becomes an observation.
 */
function separateJsTest(
  lines: string[],
  from: number,
  close: number,
  name: string,
  id: () => string,
  out: Pick<Separated, "sites" | "inside" | "kept">,
  dialect: JsDialect,
): void {
  const bodyIndent = /^(\s+)\S/.exec(
    lines.slice(from + 1, close).find((l) => l.trim() !== "") ?? "",
  )?.[1] ?? "  ";
  let left = 0;
  for (let j = from + 1; j < close; j++) {
    const line = lines[j];
    const indent = /^\s*/.exec(line)![0];
    const statement = line.slice(indent.length);
    if (!dialect.start.test(statement)) {
      // A check that does not start its line (`if (x) assert.ok(y);`) stays inside.
      if (dialect.anywhere.test(withoutStrings(statement))) {
        left++;
        out.kept.set(name, [...(out.kept.get(name) ?? []), statement]);
      }
      continue;
    }
    const check = dialect.check(statement);
    if (check === null) {
      left++;
      out.kept.set(name, [...(out.kept.get(name) ?? []), statement]);
      continue;
    }
    const site = id();
    out.sites.push({
      ...check.site,
      id: site,
      test: name,
      top: indent === bodyIndent,
      text: statement,
    });
    lines[j] = `${indent}${DENO_OBSERVE}(${JSON.stringify(site)}, ${check.observe});`;
  }
  out.inside.set(name, (out.inside.get(name) ?? 0) + left);
}

// ---- node test ----

/**
 * A node:test file: each `test`/`it` call whose name is a literal, named under the `describe`/
 * `suite` calls around it (`suite > test`, as the node_test reporter names it; nesting read from
 * indentation), separated like a deno test. Its body ends at the first line after it that starts
 * with `}` at its own indentation.
 */
function separateNode(source: string, id: () => string, dialect: JsDialect): Separated {
  const lines = joinJsStatements(source.split("\n"), dialect);
  const out = { sites: [] as Site[], inside: new Map<string, number>(), kept: new Map() };
  const suites: { indent: number; name: string }[] = [];
  const bodies: boolean[] = lines.map(() => false);
  for (let i = 0; i < lines.length; i++) {
    const header =
      /^(\s*)(describe|suite|test|it)(?:\.only)?\(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/
        .exec(lines[i]);
    if (!header) continue;
    const indent = header[1];
    while (suites.length > 0 && suites[suites.length - 1].indent >= indent.length) suites.pop();
    let name: string;
    try {
      name = JSON.parse(
        header[3].startsWith("'") ? `"${header[3].slice(1, -1).replace(/"/g, '\\"')}"` : header[3],
      );
    } catch {
      continue;
    }
    const full = [...suites.map((s) => s.name), name].join(" > ");
    if (header[2] === "describe" || header[2] === "suite") {
      suites.push({ indent: indent.length, name });
      continue;
    }
    const close = lines.findIndex((l, k) =>
      k > i && l.startsWith(`${indent}}`) && /^\}\)?\)?;?\s*$/.test(l.slice(indent.length))
    );
    if (close < 0) continue;
    separateJsTest(lines, i, close, full, id, out, dialect);
    for (let k = i; k <= close; k++) bodies[k] = true;
    i = close;
  }
  // A check outside every test body (in a helper the tests call) runs inside the jail for whichever
  // test calls it: without a call graph, every test of the file counts it as kept inside.
  const helpers = lines.filter((line, k) =>
    !bodies[k] && dialect.anywhere.test(withoutStrings(line.trim()))
  ).map((line) => line.trim());
  if (helpers.length > 0) {
    for (const name of out.inside.keys()) {
      out.inside.set(name, out.inside.get(name)! + helpers.length);
      out.kept.set(name, [...(out.kept.get(name) ?? []), ...helpers]);
    }
  }
  return { source: lines.join("\n"), ...out, ends: new Map() };
}

function denoCheck(statement: string): PyCheck | null {
  const call = /^assert(?:\.(\w+))?\((.*)\);?\s*(?:\/\/.*)?$/.exec(statement);
  if (!call) return null;
  const args = splitTopLevel(call[2], ",")?.map((a) => a.trim());
  if (!args) return null;
  if (args.length > 0 && args[args.length - 1] === "") args.pop();
  const method = call[1] ?? "ok";
  if (method === "throws") {
    // The preload calls the function and observes what it threw: its constructors' names and its
    // string form, matched here with the expected class or regular expression.
    if (args.length < 1 || args.length > 3) return null;
    const matcher = args[1] ?? "";
    if (
      matcher !== "" && !/^[A-Za-z_$][\w$.]*$/.test(matcher) && !/^\/.+\/[a-z]*$/s.test(matcher)
    ) {
      return null;
    }
    return { site: { kind: "js_throws", expected: matcher }, observe: `${args[0]}, 1` };
  }
  if (method === "ok") {
    if (args.length < 1 || args.length > 2) return null;
    return { site: { kind: "js_is", expected: "false" }, observe: `!(${args[0]})` };
  }
  const kind = JS_KINDS[method];
  if (kind === undefined || args.length < 2 || args.length > 3) return null;
  const [la, lb] = [parseJs(args[0]) !== null, parseJs(args[1]) !== null];
  if (la === lb) return null;
  return { site: { kind, expected: la ? args[0] : args[1] }, observe: la ? args[1] : args[0] };
}

/**
 * Lines with each multi-line check statement (`assert...(`, jest's `expect(`) written on its first line and its other lines
 * left empty, so line numbers stay.
 */
function joinJsStatements(lines: string[], dialect: JsDialect): string[] {
  const out = [...lines];
  for (let i = 0; i < out.length; i++) {
    if (!dialect.start.test(out[i].trimStart())) continue;
    let depth = 0;
    let end = i;
    for (; end < out.length; end++) {
      const d = bracketDepth(out[end]);
      if (d === null) break;
      depth += d;
      if (depth <= 0) break;
    }
    if (end === i || end >= out.length || depth !== 0) continue;
    const parts = out.slice(i, end + 1).map((l, k) => (k === 0 ? l.trimEnd() : l.trim()));
    out[i] = parts.reduce((joined, part) =>
      /[([{]$/.test(joined) || /^[)\]}]/.test(part) ? joined + part : `${joined} ${part}`
    );
    for (let k = i + 1; k <= end; k++) out[k] = "";
    i = end;
  }
  return out;
}

/** Brackets a JS line opens minus those it closes, outside strings and comments; null on a template. */
function bracketDepth(line: string): number | null {
  return jsBrackets(line)?.depth ?? null;
}

/**
 * A walk over a JS line's brackets outside strings, regular expressions and comments: the depth it
 * ends at, and the index of the first bracket that closes below the start (-1 when none does);
 * null on a template or an unterminated string or regular expression.
 */
function jsBrackets(line: string): { depth: number; under: number } | null {
  let depth = 0;
  let under = -1;
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === "`") return null;
    else if (c === '"' || c === "'") quote = c;
    else if (
      c === "/" && line[i + 1] !== "/" && /(?:[(,=:[!&|?{};]|^)\s*$/.test(line.slice(0, i))
    ) {
      // A regular expression literal: skip to its closing slash (brackets in it do not count).
      let inClass = false;
      for (i++; i < line.length; i++) {
        if (line[i] === "\\") i++;
        else if (line[i] === "[") inClass = true;
        else if (line[i] === "]") inClass = false;
        else if (line[i] === "/" && !inClass) break;
      }
      if (i >= line.length) return null;
    } else if (c === "/" && line[i + 1] === "/") break;
    else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) {
      depth--;
      if (depth < 0 && under < 0) under = i;
    }
  }
  return quote ? null : { depth, under };
}

/** jest matchers judged outside, by name: the check kind, and its negation's (null: kept inside). */
const JEST_KINDS: Record<string, [CheckKind, CheckKind | null]> = {
  toBe: ["js_is", "js_not_is"],
  toEqual: ["js_equal", "js_not_equal"],
  toStrictEqual: ["js_deep", "js_not_deep"],
  toThrow: ["js_throws", null],
  toThrowError: ["js_throws", null],
};

/** What a jest matcher without an argument checks: an observation and the value it must be. */
const JEST_BARE: Record<string, { observe: (actual: string) => string; is: string }> = {
  toBeNull: { observe: (a) => a, is: "null" },
  toBeUndefined: { observe: (a) => a, is: "undefined" },
  toBeNaN: { observe: (a) => a, is: "NaN" },
  toBeTruthy: { observe: (a) => `!(${a})`, is: "false" },
  toBeFalsy: { observe: (a) => `!(${a})`, is: "true" },
};

/**
 * A jest check that starts its line, `expect(actual).matcher(expected);` (or `.not.matcher`), as an
 * observation: `toBe`, `toEqual` and `toStrictEqual` with a literal, `toBeNull`, `toBeUndefined`,
 * `toBeDefined`, `toBeNaN`, `toBeTruthy`, `toBeFalsy`, and `toThrow` with nothing or a class (its
 * name matched as for `assert.throws`; a message or regular expression stays inside, jest matches
 * those against the error's message only). Null for anything else (`.resolves`, asymmetric
 * matchers, an expected value the test computes).
 */
function jestCheck(statement: string): PyCheck | null {
  if (!statement.startsWith("expect(")) return null;
  const scan = jsBrackets(statement.slice(7));
  if (scan === null || scan.under < 0) return null;
  const actual = statement.slice(7, 7 + scan.under).trim();
  if (actual === "" || splitTopLevel(actual, ",")?.length !== 1) return null;
  const call = /^(\.not)?\.(\w+)\((.*)\);?\s*(?:\/\/.*)?$/.exec(statement.slice(8 + scan.under));
  if (!call) return null;
  const args = splitTopLevel(call[3], ",")?.map((a) => a.trim());
  if (!args) return null;
  if (args.length > 0 && args[args.length - 1] === "") args.pop();
  const [not, matcher] = [call[1] !== undefined, call[2]];
  const bare = JEST_BARE[matcher];
  if (bare && args.length === 0) {
    return {
      site: { kind: not ? "js_not_is" : "js_is", expected: bare.is },
      observe: bare.observe(actual),
    };
  }
  if (matcher === "toBeDefined" && args.length === 0) {
    return { site: { kind: not ? "js_is" : "js_not_is", expected: "undefined" }, observe: actual };
  }
  const kinds = JEST_KINDS[matcher];
  const kind = kinds?.[not ? 1 : 0];
  if (!kind) return null;
  if (kind === "js_throws") {
    if (args.length > 1 || (args.length === 1 && !/^[A-Za-z_$][\w$.]*$/.test(args[0]))) return null;
    return { site: { kind, expected: args[0] ?? "" }, observe: `${actual}, 1` };
  }
  if (args.length !== 1 || parseJs(args[0]) === null) return null;
  return {
    site: { kind, expected: args[0] },
    // toEqual compares by keys whatever the object's class: the driver reads it that way (mode 2).
    observe: kind === "js_equal" || kind === "js_not_equal" ? `${actual}, 2` : actual,
  };
}
