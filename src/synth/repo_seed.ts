/**
 * A synthesis seed from a plain repository (no task.json): its test modules become the visible
 * tests, its dependency environment (built by `patchgym env build REPO`, in `.patchgym/env.lock`)
 * is the seed's, and its layout stays as it is (src/ layouts work through the environment's
 * source roots). Nothing is written into the repository.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { LOCK_FILE } from "../env/lock.ts";
import { type Task, TaskSpecSchema } from "../task/spec.ts";
import { discoverTestIds } from "../task/test_ids.ts";
import { NOISE_DIRS } from "../workspace/snapshot.ts";

/** Folders never searched for tests. */
const SKIPPED = new Set([...NOISE_DIRS, ".patchgym", "build", "dist", "site-packages", "venv"]);

/** What a build backend writes in place of a version file (setuptools-scm, hatch-vcs). */
export const VERSION_STUB =
  "# Written by patchgym in place of the build backend's version file.\n" +
  '__version__ = version = "0.0.0"\n__version_tuple__ = version_tuple = (0, 0, 0)\n';

/** Python test modules of `repo` (relative paths, sorted). */
export function testModules(repo: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(rel ? join(repo, rel) : repo, { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name) && !entry.name.startsWith(".")) walk(path);
      } else if (entry.isFile() && /^(test_.*|.*_test)\.py$/.test(entry.name)) out.push(path);
    }
  };
  walk("");
  return out.sort();
}

/**
 * A seed task over `repo`, described in `scratch` (a folder of the caller's that holds the seed's
 * task.json-less metadata and a copy of the lock); throws an Error when the repository has no test.
 */
export function repositorySeed(repo: string, scratch: string): Task {
  const tests = testModules(repo);
  const ids = tests.flatMap((file) =>
    discoverTestIds(file, readFileSync(join(repo, file), "utf8"), "pytest")
  );
  if (ids.length === 0) {
    throw new Error(
      `Cannot use "${repo}" as a seed: no test_*.py or *_test.py module with test functions`,
    );
  }
  const id = `repo-${
    basename(repo).toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "seed"
  }`;
  const dir = join(scratch, id);
  mkdirSync(join(dir, "hidden"), { recursive: true });
  const lock = join(repo, ".patchgym", LOCK_FILE);
  if (existsSync(lock)) copyFileSync(lock, join(dir, LOCK_FILE));
  const folders = [...new Set(tests.map((t) => /^(.*?(?:^|\/)tests?\/)/.exec(t)?.[1] ?? t))];
  const spec = TaskSpecSchema.parse({
    id,
    title: `Seed from ${basename(repo)}`,
    language: "python",
    difficulty: "medium",
    kind: "one_line_bug",
    statement: "A seed for synthesis.",
    runner: "pytest",
    visible_tests: tests,
    // The schema needs one; synthesis decides the real lists from what passes.
    fail_to_pass: [ids[0]],
    pass_to_pass: [],
    protected_paths: folders,
    solution: null,
    ...(existsSync(lock) ? { environment: LOCK_FILE } : {}),
    provenance: { made_by: "synth", made_at: new Date().toISOString(), upstream_repo: repo },
  });
  return { spec, dir, repoDir: repo, hiddenDir: join(dir, "hidden"), solutionPath: null };
}
