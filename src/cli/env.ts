/**
 * `env build`: build the dependency environments of tasks or repositories, once, on the host.
 * A task folder (with task.json) gets `env.lock` beside task.json and `"environment": "env.lock"`
 * in its spec; a tasks folder builds every task in it; any other folder is a repository, whose
 * lock goes to `<repo>/.patchgym/env.lock` (or `--lock FILE`), where `mine` and `synth` find it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../errors.ts";
import { type BuildResult, defaultCacheRoot, EnvBuildError } from "../env/build.ts";
import { buildRepoEnvironment, buildTaskEnvironment } from "../env/task_env.ts";
import { LOCK_FILE } from "../env/lock.ts";
import { displayPath } from "../task/load.ts";
import { detectStack, STACK_FILES } from "../mine/stack.ts";
import type { LANGUAGES } from "../task/spec.ts";
import { parseFlags, printJson } from "./_args.ts";

const HELP = `patchgym env: per-task dependency environments

Usage: patchgym env build PATH... [--env-cache DIR] [--lock FILE] [--relock] [--json]

PATH is a task folder (it gets env.lock and "environment": "env.lock" in task.json), a folder of
tasks (each task whose repository declares dependencies or a src/ layout), or a repository (its
lock goes to PATH/.patchgym/env.lock, where "mine" and "synth" look for it).

Dependencies come from pyproject.toml ([project] dependencies, test/dev extras, PEP 735
[dependency-groups], Poetry), setup.cfg and requirements*.txt, installed with
"python3 -m pip install --target" for the python3 the jail runs, from the package index pip is
configured with on this machine. The repository itself is never installed (its build backend never
runs): its root and source roots (src/, package-dir) are put on the path. The result is cached by
the hash of the lock under --env-cache (default $PATCHGYM_ENV_CACHE or ~/.cache/patchgym/env) and
mounted read-only into the jail; a second build with the same lock does nothing.

Node projects (a JavaScript task, or a repository whose package.json declares dependencies) are
installed with "npm ci --ignore-scripts" from package-lock.json (written first with "npm install
--package-lock-only" when the repository has none), on the host, into the same cache; the jail
mounts that node_modules read-only at the repository's node_modules. Install scripts never run:
they would run package code on the host.

Deno projects (a TypeScript task, or a repository whose deno.json or deno.jsonc imports npm:
packages) are installed with "deno install --frozen" from deno.lock (written first by that install
when the repository has none) into a DENO_DIR of their own in the same cache; deno test in the
jail reads it read-only with --cached-only. Lifecycle scripts never run (no --allow-scripts).

  --relock    resolve the requirements again instead of installing the lock's pins
`;

/** Run the `env` command. */
export async function envCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("env", args, {
    "env-cache": { type: "string" },
    lock: { type: "string" },
    relock: { type: "boolean" },
    json: { type: "boolean" },
  }, { positionals: true });
  if (values.help || positionals.length === 0) {
    console.log(HELP);
    return values.help ? 0 : 2;
  }
  const [sub, ...paths] = positionals;
  if (sub !== "build") {
    throw new UsageError(`env: unknown subcommand "${sub}"; use "patchgym env build PATH"`);
  }
  if (paths.length === 0) {
    throw new UsageError("env build: name a task, tasks folder or repository");
  }
  if (values.lock && paths.length > 1) {
    throw new UsageError("env build: --lock names one lock; give one PATH with it");
  }
  const cacheRoot = resolve(values["env-cache"] ?? defaultCacheRoot());
  const results: Record<string, unknown>[] = [];
  let failed = 0;
  for (const target of expand(paths.map((p) => resolve(p)))) {
    const progress = values.json ? undefined : (line: string) => console.error(line);
    try {
      const lockPath = values.lock
        ? resolve(values.lock)
        : target.kind === "task"
        ? join(target.dir, LOCK_FILE)
        : join(target.dir, ".patchgym", LOCK_FILE);
      const repo = target.kind === "task" ? join(target.dir, "repo") : target.dir;
      const build = { cacheRoot, lockPath, relock: values.relock, progress };
      const result = target.kind === "task" && !values.lock
        ? await buildTaskEnvironment(target.dir, { cacheRoot, relock: values.relock, progress })
        : await buildRepoEnvironment(repo, repoLanguage(repo), build);
      if (result === null) {
        results.push({ path: target.dir, status: "none", notes: ["no dependencies declared"] });
        if (!values.json) console.log(`${displayPath(target.dir)}: no dependencies declared`);
        continue;
      }
      results.push(summary(target.dir, lockPath, result));
      if (!values.json) report(target.dir, lockPath, result);
    } catch (error) {
      if (!(error instanceof EnvBuildError)) throw error;
      failed++;
      results.push({ path: target.dir, status: "error", error: error.message });
      if (!values.json) console.error(`${displayPath(target.dir)}: ${error.message}`);
    }
  }
  if (values.json) printJson({ ok: failed === 0, cache: cacheRoot, results });
  return failed > 0 ? 1 : 0;
}

type Target = { kind: "task" | "repo"; dir: string };

/**
 * A repository's language as `mine` reads it from its root files (deno.json: TypeScript on Deno;
 * a package.json whose tests run on Node: JavaScript; else Python), so that a Node or Deno
 * repository without dependencies builds nothing instead of a Python environment. A package.json
 * whose runner patchgym cannot run is still a Node project.
 */
function repoLanguage(repo: string): (typeof LANGUAGES)[number] {
  const files: Record<string, string> = {};
  for (const name of STACK_FILES) {
    const path = join(repo, name);
    if (existsSync(path)) files[name] = readFileSync(path, "utf8");
  }
  const found = detectStack(files);
  return found.ok ? found.stack.language : "javascript";
}

/** Task folders, tasks folders (each task in them) and repositories. */
function expand(paths: string[]): Target[] {
  const out: Target[] = [];
  for (const dir of paths) {
    if (!existsSync(dir)) throw new UsageError(`env build: "${dir}" not found`);
    if (existsSync(join(dir, "task.json"))) {
      out.push({ kind: "task", dir });
      continue;
    }
    const tasks = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, "task.json")))
      .map((e) => join(dir, e.name)).sort();
    if (tasks.length > 0) out.push(...tasks.map((t) => ({ kind: "task" as const, dir: t })));
    else out.push({ kind: "repo", dir });
  }
  return out;
}

function summary(dir: string, lockPath: string, result: BuildResult): Record<string, unknown> {
  return {
    path: dir,
    status: "built",
    cache: result.cache,
    lock: lockPath,
    hash: result.hash,
    environment: result.dir,
    packages: result.lock.packages,
    source_roots: result.lock.source_roots,
    pytest_args: result.lock.pytest_args,
    notes: result.notes,
    seconds: Math.round(result.durationMs) / 1000,
  };
}

function report(dir: string, lockPath: string, result: BuildResult): void {
  const seconds = (result.durationMs / 1000).toFixed(1);
  console.log(
    `${
      displayPath(dir)
    }: ${result.cache} cache, ${result.lock.packages.length} packages, ${seconds} s -> ${result.dir}`,
  );
  console.log(`  lock: ${displayPath(lockPath)}${result.lockWritten ? " (written)" : ""}`);
  for (const note of result.notes) console.log(`  note: ${note}`);
}
