/**
 * The test's own traceback in failure output. Grading rewrites its copy of the test files (fresh
 * names, canaries among the tests, plain-value readings written into assertion lines), so a
 * Python traceback of a failing test names lines of that copy: a line number shifted by the
 * canaries above it, a source line thousands of characters long and a caret line of as many
 * spaces. Here each frame in a graded test file gets back the line number and the source line of
 * the test file as the task wrote it, and the caret line (which points into the rewritten line) is
 * dropped. A frame is placed by its function: its line's offset from the function's `def` is the
 * same in both texts (the rewrite keeps every line of a test where it was, and adds canaries as
 * functions of their own, whose bodies repeat the tests' lines, so a plain diff of the two texts
 * cannot tell a test from its copies). Display only: the grade is decided before and apart from
 * this.
 */
import { diffArrays } from "diff";

/** A graded test file: its text as the task wrote it and as the tests ran. */
export interface TestSource {
  original: string;
  rewritten: string;
}

/** Source lines longer than this that cannot be mapped back are cut, with a mark. */
const MAX_SOURCE_LINE = 160;

/**
 * For each line of `rewritten` (index = line number, 1-based), the line of `original` it came from,
 * or 0 for a line the rewrite added (a canary). Lines the rewrite replaced one for one (the
 * assertions it rewrote) map to the lines they replaced.
 */
export function lineMap(original: string, rewritten: string): number[] {
  const parts = diffArrays(original.split("\n"), rewritten.split("\n"));
  const map = [0];
  let line = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p];
    if (!part.added && !part.removed) {
      for (let i = 0; i < part.value.length; i++) map.push(++line);
    } else if (part.removed) {
      const next = parts[p + 1];
      const replaced = next?.added ? pairReplaced(part.value, next.value) : null;
      if (replaced) {
        for (const k of replaced) map.push(k < 0 ? 0 : line + k + 1);
        p++;
      }
      line += part.value.length;
    } else {
      for (let i = 0; i < part.value.length; i++) map.push(0);
    }
  }
  return map;
}

/**
 * For each added line, the index of the removed line it replaced, or -1 (a line added next to
 * it). One for one when the counts agree; otherwise rewritten assertions (they carry the
 * plain-value reading's name) pair with the removed lines in order.
 */
function pairReplaced(removed: string[], added: string[]): number[] | null {
  if (removed.length === added.length) return added.map((_, i) => i);
  const rewritten = added.flatMap((text, i) => (/_patchgym_value/.test(text) ? [i] : []));
  if (rewritten.length !== removed.length) return null;
  return added.map((_, i) => rewritten.indexOf(i));
}

/** The failing test: its file and its function's name as it ran (the fresh name). */
export interface FailingTest {
  file: string;
  fn: string;
}

/**
 * `text` (a test's failure output, as the run printed it, under the tests' fresh names) with every
 * traceback frame in one of `sources`' files showing that file's own line number and source line,
 * and no caret line under it. `names` maps each file's fresh test names to the tests' own. The
 * reporter keeps only the end of a long output, which can start inside a rewritten line whose
 * frame line was cut off: with `failing`, such a line of that test is shown as its own line,
 * under a frame line made for it.
 */
export function ownTraceback(
  text: string,
  sources: ReadonlyMap<string, TestSource>,
  names: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(),
  failing?: FailingTest,
): string {
  if (sources.size === 0) return text;
  const entries = new Map<string, Entry>();
  const entry = (file: string) => {
    let found = entries.get(file);
    if (!found) {
      const source = sources.get(file)!;
      found = {
        file,
        map: lineMap(source.original, source.rewritten),
        lines: source.original.split("\n"),
        rewritten: source.rewritten.split("\n"),
      };
      entries.set(file, found);
    }
    return found;
  };
  const fileOf = (path: string) =>
    [...sources.keys()].find((f) => path === f || path.endsWith(`/${f}`));
  const orphans = failing && sources.has(failing.file)
    ? rewrittenLines(entry(failing.file), failing.fn, names.get(failing.file))
    : [];
  const lines = text.split("\n");
  const out: string[] = [];
  const skipMarkers = (i: number) => {
    while (i + 1 < lines.length && MARKER.test(lines[i + 1])) i++;
    return i;
  };
  for (let i = 0; i < lines.length; i++) {
    const frame = /^(\s*)File "([^"]+)", line (\d+)(.*)$/.exec(lines[i]);
    const file = frame ? fileOf(frame[2]) : undefined;
    if (!frame || file === undefined) {
      const trimmed = lines[i].trim();
      const orphan = trimmed.length > 0 &&
        orphans.find((o) => o.text === trimmed || (i === 0 && o.text.endsWith(trimmed)));
      if (!orphan) {
        out.push(lines[i]);
        continue;
      }
      // A rewritten line of the failing test whose frame line was cut off.
      out.push(`  File "${failing!.file}", line ${orphan.line}, in ${orphan.fn}`);
      out.push(`    ${clip(orphan.own)}`);
      i = skipMarkers(i);
      continue;
    }
    const found = entry(file);
    const [, indent, , number, rest] = frame;
    const fn = /^, in (\S+)$/.exec(rest)?.[1];
    const own = (fn && byFunction(found, Number(number), fn, names.get(file))) ||
      sameLine(found, Number(number));
    // The test file's own path: the grading copy's folder is gone by the time anyone reads this.
    out.push(`${indent}File "${file}", line ${own > 0 ? own : number}${rest}`);
    // The frame's source line, indented deeper than the frame line, then its marker lines.
    const next = lines[i + 1];
    if (next === undefined || !next.startsWith(`${indent} `) || /^\s*File "/.test(next)) continue;
    i++;
    const shown = own > 0 ? found.lines[own - 1].trim() : next.trim();
    out.push(`${indent}  ${clip(shown)}`);
    i = skipMarkers(i);
  }
  return out.join("\n");
}

/** A graded file's texts and the diff's line map. */
interface Entry {
  file: string;
  map: number[];
  lines: string[];
  rewritten: string[];
}

/** A caret or tilde line Python prints under a source line. */
const MARKER = /^\s*[\^~]+[\s^~]*$/;

/** The diff's original line for `number`, when that line reads the same in both texts. */
function sameLine(entry: Entry, number: number): number {
  const own = entry.map[number] ?? 0;
  return own > 0 && entry.lines[own - 1] === entry.rewritten[number - 1] ? own : 0;
}

/**
 * The lines of test function `fn` (its fresh name) that the rewrite changed, each with the line
 * and text it replaced and the test's own name.
 */
function rewrittenLines(
  entry: Entry,
  fn: string,
  names: ReadonlyMap<string, string> | undefined,
): { text: string; line: number; own: string; fn: string }[] {
  const bare = fn.replace(/\[.*$/, "");
  if (!/^\w+$/.test(bare)) return [];
  const start = entry.rewritten.findIndex((l) => defOf(bare).test(l));
  if (start < 0) return [];
  const indent = /^\s*/.exec(entry.rewritten[start])![0].length;
  const found = [];
  for (let k = start + 1; k < entry.rewritten.length; k++) {
    const text = entry.rewritten[k];
    if (text.trim() && /^\s*/.exec(text)![0].length <= indent) break;
    const line = byFunction(entry, k + 1, bare, names);
    if (line > 0 && entry.lines[line - 1] !== text && text.trim()) {
      found.push({
        text: text.trim(),
        line,
        own: entry.lines[line - 1].trim(),
        fn: names?.get(bare) ?? bare,
      });
    }
  }
  return found;
}

/** The `def` line of function `name`. */
function defOf(name: string): RegExp {
  return new RegExp(`^\\s*(?:async\\s+)?def\\s+${name}\\s*\\(`);
}

/**
 * The original line of line `number` of the rewritten file, found through the function `fn` it is
 * in (under its fresh name when it is a test): the same offset from the function's `def`. 0 when
 * the function is not found once in each text.
 */
function byFunction(
  entry: Entry,
  number: number,
  fn: string,
  names: ReadonlyMap<string, string> | undefined,
): number {
  if (!/^\w+$/.test(fn)) return 0;
  const own = names?.get(fn) ?? fn;
  const rewrittenDef = entry.rewritten.slice(0, number).findLastIndex((l) => defOf(fn).test(l));
  const originalDefs = entry.lines.flatMap((l, i) => (defOf(own).test(l) ? [i] : []));
  if (rewrittenDef < 0 || originalDefs.length !== 1) return 0;
  const line = originalDefs[0] + (number - 1 - rewrittenDef) + 1;
  return line <= entry.lines.length ? line : 0;
}

function clip(line: string): string {
  return line.length > MAX_SOURCE_LINE ? `${line.slice(0, MAX_SOURCE_LINE)} ...` : line;
}
