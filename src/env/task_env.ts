/**
 * A task folder's environment: built from its repository's declarations into `env.lock` beside
 * task.json, with `"environment": "env.lock"` set in the spec (npm's for a JavaScript task,
 * Deno's for a TypeScript one, pip's for the others). A repository that declares nothing
 * (no dependencies, no src layout, no addopts to change) needs no environment.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LANGUAGES } from "../task/spec.ts";
import {
  buildEnvironment,
  type BuildOptions,
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
  const path = join(taskDir, "task.json");
  const spec = JSON.parse(readFileSync(path, "utf8"));
  const result = await buildRepoEnvironment(join(taskDir, "repo"), spec.language, {
    ...options,
    lockPath: join(taskDir, LOCK_FILE),
  });
  if (result === null) return null;
  if (spec.environment !== LOCK_FILE) {
    spec.environment = LOCK_FILE;
    writeFileSync(path, JSON.stringify(spec, null, 2) + "\n");
  }
  return result;
}

/**
 * Build the environment of the repository at `repo` whose tests are in `language`, with its lock
 * at `options.lockPath`; null when it needs none.
 */
export async function buildRepoEnvironment(
  repo: string,
  language: (typeof LANGUAGES)[number],
  options: BuildOptions,
): Promise<BuildResult | null> {
  // A JavaScript repository's dependencies are npm's, a TypeScript (Deno) one's the npm imports
  // of its deno.json; every other one's are Python's.
  return language === "javascript"
    ? needsNpmEnvironment(repo) ? await buildNpmEnvironment(repo, options) : null
    : language === "typescript"
    ? needsDenoEnvironment(repo) ? await buildDenoEnvironment(repo, options) : null
    : needsEnvironment(await inspectRepository(repo))
    ? await buildEnvironment(repo, options)
    : null;
}
