/**
 * The judge outside the jail: a pure function from what the tests reported (the framework's
 * outcomes, the values each test observed at its separated checks, the end markers it reached) and
 * the expected values kept here (`separate.ts`) to each test's outcome. A test passes only when
 * the framework says it passed, its body ran to the end, every check of its own body ran, and
 * every observed value meets its expected value.
 */
import type { TestOutcome } from "../sandbox/junit.ts";
import type { Observations } from "../sandbox/test_runner.ts";
import { isPythonRunner, type RunnerName } from "../task/spec.ts";
import {
  observedPython,
  parsePython,
  pyContains,
  pyEqual,
  pyFloat,
  type PyValue,
  showPython,
} from "./_python_value.ts";
import { jsDeep, jsIs, jsLoose, observedJs, parseJs, showJs } from "./_js_value.ts";
import type { Separated, Site } from "./separate.ts";

/** Where a test's verdict was reached. */
export type JudgedWhere = "outside" | "inside";

/** What the judge decided for a run. */
export interface Judgement {
  outcomes: Map<string, TestOutcome>;
  /** Why a test the framework passed failed here, by test id. */
  failures: Map<string, string>;
  /** Per test id: judged wholly outside, or with checks left inside (or none known). */
  where: Map<string, JudgedWhere>;
}

/**
 * Judge a run: `outcomes` and `observations` by test id as the run reported them, `plans` the
 * separation of each graded file.
 */
export function judge(
  runner: RunnerName,
  outcomes: ReadonlyMap<string, TestOutcome>,
  observations: ReadonlyMap<string, Observations>,
  plans: ReadonlyMap<string, Separated>,
): Judgement {
  const python = isPythonRunner(runner);
  const result = new Map(outcomes);
  const failures = new Map<string, string>();
  const where = new Map<string, JudgedWhere>();
  const siteById = new Map<string, Site>();
  for (const plan of plans.values()) for (const site of plan.sites) siteById.set(site.id, site);
  for (const [id, outcome] of outcomes) {
    const sep = id.indexOf("::");
    if (sep < 0) continue;
    const plan = plans.get(id.slice(0, sep));
    if (plan === undefined) continue;
    const path = id.slice(sep + 2);
    // A deno step is judged with its test; a node test is named with its suites (a subtest with
    // its test).
    const method = python
      ? lastName(path)
      : runner === "node_test" || runner === "jest"
      ? [...plan.inside.keys()].filter((fn) => path === fn || path.startsWith(`${fn} > `))
        .sort((a, b) => b.length - a.length)[0] ?? path
      : path.split(" > ")[0];
    const functions = [...plan.inside.keys()].filter((fn) =>
      (python ? lastName(fn) : fn) === method
    );
    const seen = observations.get(id) ?? { observed: [], ends: [] };
    if (functions.length === 0) {
      // A test the plan cannot name (one inside a jest `describe.each`, or a suite named by a
      // variable) is judged inside, but what it observed is still judged: the expected values of
      // its separated checks left the file.
      where.set(id, "inside");
      if (result.get(id) === "passed") judgeObserved(id, sep, seen);
      continue;
    }
    let fn: string | undefined = functions.length === 1 ? functions[0] : undefined;
    if (python) {
      const reached = seen.ends.map((end) => plan.ends.get(end)).filter((f) => f !== undefined);
      fn = reached.find((f) => functions.includes(f!)) ?? fn;
      if (outcome === "passed" && !reached.some((f) => functions.includes(f!))) {
        fail(
          id,
          "the test's body did not run to its end: something it called stopped it early " +
            "(a skip, an expected failure, a stop signal, an exit or an interrupt counts as a failure)",
        );
      }
    }
    where.set(id, fn !== undefined && plan.inside.get(fn) === 0 ? "outside" : "inside");
    if (result.get(id) !== "passed") continue;
    for (const site of plan.sites) {
      if (
        (site.top || site.required) && site.test === fn &&
        !seen.observed.some((o) => o.site === site.id)
      ) {
        fail(
          id,
          site.kind === "reached"
            ? `the block of \`${site.text}\` did not run to its end (its context manager swallowed an exception)`
            : `the check \`${site.text}\` did not run`,
        );
        break;
      }
    }
    judgeObserved(id, sep, seen);
  }
  return { outcomes: result, failures, where };

  /** Fail the passed test `id` at the first value it observed that misses its expected value. */
  function judgeObserved(id: string, sep: number, seen: Observations): void {
    for (const { site: siteId, value } of seen.observed) {
      const site = siteById.get(siteId);
      if (site === undefined) continue;
      const problem = checkSite(site, value, python);
      if (problem !== null) {
        // Written like the framework's own traceback, so the grade shows the test's own line.
        const where = python && site.line !== undefined
          ? `Traceback (most recent call last):\n  File "${
            id.slice(0, sep)
          }", line ${site.line}, in ${lastName(site.test)}\n    ${site.text}\n`
          : "";
        failures.set(id, `${where}AssertionError: ${problem}`);
        result.set(id, "failed");
        return;
      }
    }
  }

  function fail(id: string, why: string): void {
    if (result.get(id) !== "passed") return;
    result.set(id, "failed");
    failures.set(id, `AssertionError: ${why}`);
  }
}

function lastName(path: string): string {
  const parts = path.split("::");
  return parts[parts.length - 1].replace(/\[.*$/s, "");
}

/** Null when `observed` meets the site's expected value, else why not. */
export function checkSite(site: Site, observed: unknown, python: boolean): string | null {
  if (site.kind === "reached") return null;
  if (!python && site.kind === "js_throws") return thrownOk(site, observed);
  if (!python) {
    const got = observedJs(observed);
    const expected = parseJs(site.expected);
    if (expected === null) return `patchgym could not read the expected value of \`${site.text}\``;
    const ok = site.kind === "js_is"
      ? jsIs(got, expected)
      : site.kind === "js_not_is"
      ? !jsIs(got, expected)
      : site.kind === "js_deep"
      ? jsDeep(got, expected)
      : site.kind === "js_equal"
      ? jsLoose(got, expected)
      : site.kind === "js_not_equal"
      ? !jsLoose(got, expected)
      : !jsDeep(got, expected);
    return ok ? null : `\`${site.text}\` failed: the value was ${showJs(got)}`;
  }
  if (["contains", "not_contains", "member_of", "not_member_of"].includes(site.kind)) {
    return membership(site, observed);
  }
  const got = observedPython(observed);
  if (site.kind === "raises") {
    return raisedOk(observed, site.expected.split(","))
      ? null
      : `\`${site.text}\` failed: ${describeRaised(observed)}`;
  }
  const needsExpected = !["is_none", "is_not_none", "is_true", "is_false"].includes(site.kind);
  const expected = needsExpected ? parsePython(site.expected) : null;
  if (needsExpected && expected === null) {
    return `patchgym could not read the expected value of \`${site.text}\``;
  }
  const ok = pythonCheck(site, got, expected!);
  if (ok) return null;
  if (site.kind === "equal") return `${showPython(got)} != ${showPython(expected!)}`;
  if (site.kind === "not_equal") return `${showPython(got)} == ${showPython(expected!)}`;
  return `\`${site.text}\` failed: the value was ${showPython(got)}`;
}

/**
 * A membership observation, `(value, its own answer)`: the plain value decides when it has one;
 * a container of the code under test's own answered inside.
 */
function membership(site: Site, observed: unknown): string | null {
  if (!Array.isArray(observed) || observed[0] !== "t" || !Array.isArray(observed[1])) {
    return `patchgym could not read what \`${site.text}\` observed`;
  }
  const [value, answer] = observed[1] as unknown[];
  const got = observedPython(value);
  const expected = parsePython(site.expected);
  if (expected === null) return `patchgym could not read the expected value of \`${site.text}\``;
  const plain = site.kind === "contains" || site.kind === "not_contains"
    ? pyContains(got, expected)
    : pyContains(expected, got);
  const inside = observedPython(answer);
  const found = got.t !== "opaque" && plain !== null
    ? plain
    : inside.t === "num" && inside.bool === true
    ? inside.n === 1n
    : null;
  const ok = found !== null && found === (site.kind === "contains" || site.kind === "member_of");
  return ok ? null : `\`${site.text}\` failed: the value was ${showPython(got)}`;
}

function pythonCheck(site: Site, got: PyValue, expected: PyValue): boolean {
  switch (site.kind) {
    case "equal":
      return pyEqual(got, expected);
    case "not_equal":
      return !pyEqual(got, expected) && got.t !== "opaque";
    case "less":
    case "less_equal":
    case "greater":
    case "greater_equal": {
      const c = compare(got, expected);
      if (c === null) return false;
      return site.kind === "less"
        ? c < 0
        : site.kind === "less_equal"
        ? c <= 0
        : site.kind === "greater"
        ? c > 0
        : c >= 0;
    }
    case "almost": {
      if (pyEqual(got, expected)) return true;
      const [a, b] = [pyFloat(got), pyFloat(expected)];
      if (a === null || b === null) return false;
      const diff = Math.abs(a - b);
      if (site.delta !== undefined) return diff <= site.delta;
      const places = site.places ?? 7;
      return Math.round(diff * 10 ** places) === 0;
    }
    case "count_equal": {
      const [a, b] = [items(got), items(expected)];
      if (a === null || b === null || a.length !== b.length) return false;
      const left = [...b];
      for (const item of a) {
        const at = left.findIndex((x) => pyEqual(x, item));
        if (at < 0) return false;
        left.splice(at, 1);
      }
      return true;
    }
    case "contains":
      return pyContains(got, expected) === true;
    case "not_contains":
      return pyContains(got, expected) === false;
    case "member_of":
      return pyContains(expected, got) === true;
    case "not_member_of":
      return pyContains(expected, got) === false;
    case "is_none":
      return got.t === "none";
    case "is_not_none":
      return got.t !== "none";
    case "is_true":
    case "is_false":
      return got.t === "num" && got.bool === true && got.n === (site.kind === "is_true" ? 1n : 0n);
    default:
      return false;
  }
}

function items(value: PyValue): PyValue[] | null {
  if (value.t === "list" || value.t === "tuple" || value.t === "set") return value.items;
  if (value.t === "dict") return value.entries.map(([k]) => k);
  if (value.t === "str") return [...value.v].map((v) => ({ t: "str", v }));
  return null;
}

/** -1, 0 or 1 for numbers or strings of one kind, else null (Python would raise). */
function compare(a: PyValue, b: PyValue): number | null {
  if (a.t === "num" && b.t === "num") {
    const d = a.n * b.d - b.n * a.d;
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  }
  if ((a.t === "num" || a.t === "float") && (b.t === "num" || b.t === "float")) {
    const [x, y] = [pyFloat(a)!, pyFloat(b)!];
    if (Number.isNaN(x) || Number.isNaN(y)) return null;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if ((a.t === "str" && b.t === "str") || (a.t === "bytes" && b.t === "bytes")) {
    const [x, y] = [[...a.v].map((c) => c.codePointAt(0)!), [...b.v].map((c) => c.codePointAt(0)!)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) {
        return x[i] < y[i] ? -1 : 1;
      }
    }
    return x.length - y.length === 0 ? 0 : x.length < y.length ? -1 : 1;
  }
  if ((a.t === "list" && b.t === "list") || (a.t === "tuple" && b.t === "tuple")) {
    for (let i = 0; i < Math.min(a.items.length, b.items.length); i++) {
      if (pyEqual(a.items[i], b.items[i])) continue;
      return compare(a.items[i], b.items[i]);
    }
    return a.items.length === b.items.length ? 0 : a.items.length < b.items.length ? -1 : 1;
  }
  return null;
}

/**
 * A deno `assert.throws` observation, `["t", [constructor names], string form]` or `["n"]` (nothing
 * thrown), against the expected class (by name) or regular expression (on the string form).
 */
function thrownOk(site: Site, observed: unknown): string | null {
  if (!Array.isArray(observed) || observed[0] !== "t" || !Array.isArray(observed[1])) {
    return `\`${site.text}\` failed: nothing was thrown`;
  }
  const names = (observed[1] as unknown[]).map(String);
  const text = String(observed[2] ?? "");
  const expected = site.expected;
  if (expected === "") return null;
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(expected);
  let ok: boolean;
  if (regex) {
    try {
      ok = new RegExp(regex[1], regex[2]).test(text);
    } catch {
      return `patchgym could not read the expected value of \`${site.text}\``;
    }
  } else ok = names.includes(expected.slice(expected.lastIndexOf(".") + 1));
  return ok
    ? null
    : `\`${site.text}\` failed: it threw ${names[0] ?? "a value"}: ${text.slice(0, 200)}`;
}

/** Python's builtin exception names: an expected one must be the builtin class itself. */
const BUILTIN_EXCEPTIONS = new Set([
  "BaseException",
  "Exception",
  "ArithmeticError",
  "AssertionError",
  "AttributeError",
  "BufferError",
  "EOFError",
  "FloatingPointError",
  "ImportError",
  "IndexError",
  "KeyError",
  "LookupError",
  "MemoryError",
  "ModuleNotFoundError",
  "NameError",
  "NotImplementedError",
  "OSError",
  "OverflowError",
  "RecursionError",
  "ReferenceError",
  "RuntimeError",
  "StopIteration",
  "StopAsyncIteration",
  "SyntaxError",
  "SystemError",
  "TypeError",
  "UnboundLocalError",
  "UnicodeError",
  "UnicodeDecodeError",
  "UnicodeEncodeError",
  "ValueError",
  "ZeroDivisionError",
  "FileNotFoundError",
  "FileExistsError",
  "PermissionError",
  "TimeoutError",
  "ConnectionError",
  "IsADirectoryError",
  "NotADirectoryError",
  "LookupError",
  "Warning",
  "UserWarning",
  "DeprecationWarning",
  "RuntimeWarning",
]);

/** Whether an observed exception (`["x", [[module, qualname], ...]]`) is one of `names`. */
function raisedOk(observed: unknown, names: string[]): boolean {
  if (!Array.isArray(observed) || observed[0] !== "x" || !Array.isArray(observed[1])) return false;
  const mro = observed[1] as unknown[];
  return names.some((name) => {
    const last = name.slice(name.lastIndexOf(".") + 1);
    return mro.some((entry) => {
      if (!Array.isArray(entry)) return false;
      const [module, qualname] = entry;
      if (qualname !== last) return false;
      return !BUILTIN_EXCEPTIONS.has(name) || module === "builtins";
    });
  });
}

function describeRaised(observed: unknown): string {
  if (Array.isArray(observed) && observed[0] === "x" && Array.isArray(observed[1])) {
    const first = observed[1][0];
    return Array.isArray(first) ? `it raised ${first[0]}.${first[1]}` : "it raised something else";
  }
  return "nothing was raised";
}
