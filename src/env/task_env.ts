/**
 * A task folder's environment: built from its repository's declarations into `env.lock` beside
 * task.json, with `"environment": "env.lock"` set in the spec (npm's for a JavaScript task,
 * Deno's for a TypeScript one, pip's for the others). A repository that declares nothing
 * (no dependencies, no src layout, no addopts to change) needs no environment.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  buildEnvironment,
  type BuildResult,
  inspectRepository,
  needsEnvironment,
} from "./build.ts";
import { LOCK_FILE } from "./lock.ts";
import { buildNpmEnvironment, needsNpmEnvironment } from "./npm.ts";
import { buildDenoEnvironment, needsDenoEnvironment } from "./deno.ts";

/** Build the environment of the task at `taskDir`; null when it needs none. */
export async function buildTaskEnvironment(
  taskDir: string,
  options: { cacheRoot: string; relock?: boolean; progress?: (line: string) => void },
): Promise<BuildResult | null> {
  const repo = join(taskDir, "repo");
  const path = join(taskDir, "task.json");
  const spec = JSON.parse(readFileSync(path, "utf8"));
  const lockPath = join(taskDir, LOCK_FILE);
  // A JavaScript task's dependencies are npm's, a TypeScript (Deno) task's the npm imports of
  // its deno.json; every other task's are Python's.
  const result = spec.language === "javascript"
    ? needsNpmEnvironment(repo) ? await buildNpmEnvironment(repo, { ...options, lockPath }) : null
    : spec.language === "typescript"
    ? needsDenoEnvironment(repo) ? await buildDenoEnvironment(repo, { ...options, lockPath }) : null
    : needsEnvironment(await inspectRepository(repo))
    ? await buildEnvironment(repo, { ...options, lockPath })
    : null;
  if (result === null) return null;
  if (spec.environment !== LOCK_FILE) {
    spec.environment = LOCK_FILE;
    writeFileSync(path, JSON.stringify(spec, null, 2) + "\n");
  }
  return result;
}
