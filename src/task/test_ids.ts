/**
 * Static discovery of the test ids a test file defines, so a task whose `fail_to_pass` names a
 * test that does not exist is rejected at load time rather than silently scoring zero.
 */
import type { RunnerName } from "./spec.ts";

/** Test ids defined in one test file, in source order (`<file>::<Class>::<name>` or `<file>::<name>`). */
export function discoverTestIds(file: string, source: string, runner: RunnerName): string[] {
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
