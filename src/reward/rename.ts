/**
 * Blind test names: at grading time every test in the graded files gets a fresh random name, so
 * nothing the code under test can observe about the running test (pytest's
 * `PYTEST_CURRENT_TEST`, a unittest id, the order unittest derives from names) tells a real test
 * from a canary the grader added: canaries are born with names of the same form. The grade maps
 * the fresh names back, so it shows the tests' own names.
 */
import { isPythonRunner, type RunnerName } from "../task/spec.ts";

/** For each test file, each fresh test name and the name it replaced. */
export type TestNames = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** A fresh name for one file: a random token, never in its source and never given before. */
export type FreshName = () => string;

/**
 * `source` with every test renamed by `fresh`: Python functions and methods named `test*` become
 * `test_<token>`, wherever the file names them (a call, a fixture parameter, a string compared
 * with `_testMethodName`); `Deno.test` names given as a string literal become `<token>`. Returns
 * the new source and each fresh name with the name it replaced. Class names and parametrization
 * stay as they are.
 */
export function renameTests(
  source: string,
  runner: RunnerName,
  fresh: FreshName,
): { source: string; names: Map<string, string> } {
  const names = new Map<string, string>();
  // Node tests keep their names (not renamed yet).
  if (runner === "node_test" || runner === "jest") return { source, names };
  if (isPythonRunner(runner)) {
    const given = new Map<string, string>();
    for (const [, name] of source.matchAll(/^[ \t]*(?:async[ \t]+)?def[ \t]+(test\w*)[ \t]*\(/gm)) {
      if (!given.has(name)) given.set(name, `test_${fresh()}`);
    }
    if (given.size === 0) return { source, names };
    for (const [name, renamed] of given) names.set(renamed, name);
    const words = new RegExp(`\\b(?:${[...given.keys()].join("|")})\\b`, "g");
    return { source: source.replace(words, (name) => given.get(name)!), names };
  }
  const renamed = source.replace(DENO_TEST_NAME, (whole, head: string, literal: string) => {
    const name = stringValue(literal);
    if (name === null) return whole;
    const token = fresh();
    names.set(token, name);
    return `${head}${JSON.stringify(token)}`;
  });
  return { source: renamed, names };
}

/** The name literal of a `Deno.test("name", ...)` or `Deno.test({ name: "name", ... })` call. */
const DENO_TEST_NAME =
  /(Deno\.test(?:\.only|\.ignore)?\(\s*(?:\{\s*name\s*:\s*)?)("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/g;

/** The value of a quoted string literal, or null when it uses escapes JSON does not have. */
function stringValue(literal: string): string | null {
  const body = literal.slice(1, -1);
  const json = literal.startsWith("'")
    ? body.replace(/\\'/g, "'").replace(/(?<!\\)"/g, '\\"')
    : body;
  try {
    return JSON.parse(`"${json}"`);
  } catch {
    return null;
  }
}

/**
 * Test id `id` (`file::...`), as a run with fresh names reports it, with the test's own name
 * back; ids of tests that were not renamed (canaries, tests named otherwise) are unchanged.
 */
export function originalId(id: string, names: TestNames): string {
  const sep = id.indexOf("::");
  if (sep < 0) return id;
  const fresh = names.get(id.slice(0, sep));
  if (fresh === undefined || fresh.size === 0) return id;
  // Fresh names are whole words, so each word of the short tail is looked up: a run's many ids
  // then need no pattern compiled from this grade's names, as `originalText` compiles for text.
  return `${id.slice(0, sep)}${id.slice(sep).replace(WORD, (word) => fresh.get(word) ?? word)}`;
}

/** A word: a fresh name is one, never part of one. */
const WORD = /\w+/g;

/** `text` about tests of `file` (an id's tail, failure output) with their own names back. */
export function originalText(file: string, text: string, names: TestNames): string {
  const fresh = names.get(file);
  if (fresh === undefined || fresh.size === 0) return text;
  return text.replace(freshWords(fresh), (name) => fresh.get(name)!);
}

/** The pattern of a file's fresh names, made once per name map (every test id of a run asks). */
const patterns = new WeakMap<ReadonlyMap<string, string>, { size: number; words: RegExp }>();

function freshWords(fresh: ReadonlyMap<string, string>): RegExp {
  const known = patterns.get(fresh);
  if (known && known.size === fresh.size) return known.words;
  // Fresh names are tokens of letters and digits, so a whole-word match finds only them.
  const words = new RegExp(`\\b(?:${[...fresh.keys()].join("|")})\\b`, "g");
  patterns.set(fresh, { size: fresh.size, words });
  return words;
}
