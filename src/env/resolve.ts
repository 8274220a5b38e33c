/**
 * Finding a task's built environment at run time: the lock named by the task, its hash, and the
 * complete cache entry of that hash. Nothing is installed here; a missing or broken environment
 * becomes a {@linkcode TestEnvironment} with an `error`, which ends an episode as
 * `environment_error` (never a task failure) and tells the user the command that builds it.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { TestEnvironment } from "../sandbox/test_runner.ts";
import type { Task } from "../task/spec.ts";
import { displayPath } from "../task/load.ts";
import { defaultCacheRoot, environmentDir, isReady } from "./build.ts";
import { type EnvLock, lockHash, parseLock } from "./lock.ts";
import { patchgymCommand } from "../hint.ts";
import { DENO_IMPORT_MAP_FILE, DENO_REGISTRY_FILE } from "./deno.ts";

/** A resolved environment, with the lock it came from when there is one. */
export interface ResolvedEnvironment extends TestEnvironment {
  lock: EnvLock | null;
  /** The cache entry's folder, or null. */
  dir: string | null;
}

/** The environment of `task` (null when the task declares none). */
export function resolveTaskEnvironment(
  task: Task,
  cacheRoot: string = defaultCacheRoot(),
): ResolvedEnvironment | null {
  if (!task.spec.environment) return null;
  return resolveLock(join(task.dir, task.spec.environment), cacheRoot);
}

/** The environment a lock file names, from the cache under `cacheRoot`. */
export function resolveLock(lockPath: string, cacheRoot: string): ResolvedEnvironment {
  const build = `run "${
    patchgymCommand(`env build ${displayPath(lockPath.replace(/\/[^/]*$/, ""))}`)
  }"`;
  const broken = (error: string, lock: EnvLock | null = null): ResolvedEnvironment => ({
    mounts: [],
    pythonPaths: [],
    sourceRoots: lock?.source_roots ?? [],
    pytestArgs: [],
    error,
    lock,
    dir: null,
  });
  if (!existsSync(lockPath)) {
    return broken(`the environment lock "${displayPath(lockPath)}" is missing; ${build}`);
  }
  let lock: EnvLock;
  try {
    lock = parseLock(readFileSync(lockPath, "utf8"), displayPath(lockPath));
  } catch (error) {
    return broken((error as Error).message);
  }
  const dir = environmentDir(cacheRoot, lockHash(lock), lock.ecosystem);
  if (!isReady(dir)) {
    return broken(
      `the dependency environment of "${
        displayPath(lockPath)
      }" is not built (no "${dir}"); ${build}`,
      lock,
    );
  }
  // The jail binds only a path that is its own real path.
  const real = realpathSync(dir);
  if (lock.ecosystem === "deno") {
    // Deno finds npm packages in its cache under the registry's host: the run names the same one.
    const registryFile = join(real, DENO_REGISTRY_FILE);
    const registry = existsSync(registryFile) ? readFileSync(registryFile, "utf8").trim() : "";
    return {
      mounts: [real],
      pythonPaths: [],
      sourceRoots: [],
      pytestArgs: [],
      deno: { importMap: join(real, DENO_IMPORT_MAP_FILE), lock: join(real, "deno.lock") },
      env: { DENO_DIR: real, ...(registry ? { NPM_CONFIG_REGISTRY: registry } : {}) },
      lock,
      dir: real,
    };
  }
  if (lock.ecosystem === "npm") {
    return {
      mounts: [],
      pythonPaths: [],
      sourceRoots: [],
      pytestArgs: [],
      binds: [{ source: join(real, "node_modules"), dest: "node_modules" }],
      lock,
      dir: real,
    };
  }
  return {
    mounts: [real],
    pythonPaths: [join(real, "site")],
    sourceRoots: lock.source_roots,
    pytestArgs: lock.pytest_args,
    lock,
    dir: real,
  };
}

/** `PYTHONPATH` for a command the agent runs in `workspace` with `environment`. */
export function commandPythonPath(environment: TestEnvironment, workspace: string): string {
  return [
    ...environment.pythonPaths,
    workspace,
    ...environment.sourceRoots.map((r) => join(workspace, r)),
  ].join(":");
}
