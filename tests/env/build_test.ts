import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../../src/agent/environment.ts";
import {
  buildEnvironment,
  inspectRepository,
  pytestPlugins,
  unpinned,
} from "../../src/env/build.ts";
import { formatLock, LOCK_FORMAT, parseLock } from "../../src/env/lock.ts";
import { resolveTaskEnvironment } from "../../src/env/resolve.ts";
import { validateTask } from "../../src/rollout/validate.ts";
import { loadTask } from "../../src/task/load.ts";
import { pipHas, projectFiles, writeFiles, writeTask } from "./_fixture.ts";

// An unreachable index must fail fast, not retry for minutes.
Deno.env.set("PIP_RETRIES", Deno.env.get("PIP_RETRIES") ?? "0");
Deno.env.set("PIP_TIMEOUT", Deno.env.get("PIP_TIMEOUT") ?? "5");

const HAS_DATEUTIL = await pipHas("python-dateutil");
if (!HAS_DATEUTIL) {
  console.warn(
    "tests/env/build_test.ts: skipping the builds: the package index pip is configured with lacks python-dateutil",
  );
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-env-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("inspectRepository() finds the src layout, dependency groups, requirements files and addopts", async () => {
  await withTemp(async (dir) => {
    await writeFiles(dir, {
      ...projectFiles(),
      "requirements-test.txt": "-r requirements/base.txt\nhypothesis>=6  # property tests\n-e .\n",
      "requirements/base.txt": "tomli; python_version < '3.11'\n",
      // A type checker's pins, not the tests' (seen on a real repository).
      "requirements-mypy.txt": "mypy==1.0.0\n",
      "requirements/typing.txt": "types-requests\n",
    });
    const project = await inspectRepository(dir);
    assert.equal(project.name, "shelfcount");
    assert.deepEqual(project.source_roots, ["src"]);
    assert.deepEqual(project.requirements, [
      "python-dateutil>=2.8",
      "pytest",
      "tomli; python_version < '3.11'",
      "hypothesis>=6",
    ]);
    assert.deepEqual(project.addopts, [
      "-ra",
      "--cov=shelfcount",
      "--cov-fail-under=95",
      "--color=yes",
    ]);
    assert.equal(project.addopts_file, "pyproject.toml");
    assert.equal(project.build_backend, "setuptools.build_meta");
  });
});

Deno.test("inspectRepository() reports version files a build backend would write", async () => {
  await withTemp(async (dir) => {
    await writeFiles(dir, {
      "pyproject.toml":
        '[project]\nname = "v"\ndynamic = ["version"]\n[tool.setuptools_scm]\nversion_file = "src/v/_version.py"\n',
      "src/v/__init__.py": "from ._version import version\n",
      "locale/de/LC_MESSAGES/v.po": 'msgid "a"\nmsgstr "b"\n',
    });
    const project = await inspectRepository(dir);
    assert.deepEqual(project.missing_generated, ["src/v/_version.py"]);
    assert.deepEqual(project.uncompiled_catalogs, ["locale/de/LC_MESSAGES/v.po"]);
  });
});

Deno.test("resolveTaskEnvironment() names the build command when the environment is not built", async () => {
  await withTemp(async (dir) => {
    const taskDir = await writeTask(dir);
    const spec = JSON.parse(readFileSync(join(taskDir, "task.json"), "utf8"));
    await Deno.writeTextFile(
      join(taskDir, "task.json"),
      JSON.stringify({ ...spec, environment: "env.lock" }),
    );
    const missingLock = resolveTaskEnvironment(loadTask(taskDir), join(dir, "cache"));
    assert.match(
      missingLock?.error ?? "",
      /lock .*env\.lock" is missing; run "deno task patchgym env build/,
    );
    await Deno.writeTextFile(
      join(taskDir, "env.lock"),
      formatLock({
        format: LOCK_FORMAT,
        version: 1,
        ecosystem: "python",
        python: "3.11",
        packages: ["python-dateutil==2.9.0.post0"],
        source_roots: ["src"],
        pytest_args: [],
        notes: [],
        made_at: "2026-01-01T00:00:00Z",
      }),
    );
    const unbuilt = resolveTaskEnvironment(loadTask(taskDir), join(dir, "cache"));
    assert.match(unbuilt?.error ?? "", /is not built .*run "deno task patchgym env build/);
    // validate says environment_error, never broken.
    const env = await Environment.open({
      tasksDir: dir,
      workRoot: join(dir, "work"),
      envCache: join(dir, "cache"),
    });
    const result = await validateTask(env, "py-shelfcount-total");
    assert.equal(result.status, "environment_error");
  });
});

Deno.test({
  name: "buildEnvironment() installs once, writes the lock, and is warm the second time",
  ignore: !HAS_DATEUTIL,
  async fn() {
    await withTemp(async (dir) => {
      await writeFiles(join(dir, "repo"), projectFiles());
      const lines: string[] = [];
      const options = {
        cacheRoot: join(dir, "cache"),
        lockPath: join(dir, "env.lock"),
        progress: (l: string) => lines.push(l),
      };
      const cold = await buildEnvironment(join(dir, "repo"), options);
      assert.equal(cold.cache, "cold");
      assert.ok(cold.lockWritten);
      assert.ok(lines.some((l) => l.includes("requirements from pyproject.toml")));
      const lock = parseLock(readFileSync(join(dir, "env.lock"), "utf8"), "env.lock");
      assert.ok(lock.packages.some((p) => p.startsWith("python-dateutil==")));
      assert.ok(
        !lock.packages.some((p) => p.startsWith("pytest==")),
        "the jail's pytest runs tests",
      );
      assert.deepEqual(lock.source_roots, ["src"]);
      assert.deepEqual(lock.pytest_args, ["-o", "addopts=-ra"]);
      assert.ok(lock.notes.some((n) => n.includes('"--cov-fail-under=95"')));
      // Seen on a real repository: --color=yes put escape codes in every test output the model read.
      assert.ok(lock.notes.some((n) => n.includes('"--color=yes"')));
      assert.ok(existsSync(join(cold.dir, "site", "dateutil")));
      // The jail's own unprivileged user reads it through a bind: not a private temp folder.
      assert.equal(Deno.statSync(cold.dir).mode! & 0o777, 0o755);
      const warm = await buildEnvironment(join(dir, "repo"), options);
      assert.equal(warm.cache, "warm");
      assert.equal(warm.dir, cold.dir);
      assert.ok(!warm.lockWritten);
    });
  },
});

Deno.test({
  name: "validateTask() validates a src-layout task with a dependency through its environment",
  ignore: !HAS_DATEUTIL,
  async fn() {
    await withTemp(async (dir) => {
      const taskDir = await writeTask(join(dir, "tasks"));
      const cache = join(dir, "cache");
      const open = () =>
        Environment.open({
          tasksDir: join(dir, "tasks"),
          workRoot: join(dir, "work"),
          envCache: cache,
        });
      // Without an environment, the package is not importable: the task cannot validate.
      const bare = await validateTask(await open(), "py-shelfcount-total");
      assert.equal(bare.status, "broken");
      await buildEnvironment(join(taskDir, "repo"), {
        cacheRoot: cache,
        lockPath: join(taskDir, "env.lock"),
      });
      const spec = JSON.parse(readFileSync(join(taskDir, "task.json"), "utf8"));
      await Deno.writeTextFile(
        join(taskDir, "task.json"),
        JSON.stringify({ ...spec, environment: "env.lock" }),
      );
      const result = await validateTask(await open(), "py-shelfcount-total");
      assert.deepEqual(result.problems, []);
      assert.equal(result.status, "valid");
    });
  },
});

/** A `site` folder with fake distributions: name -> [METADATA lines, pytest11 entry points]. */
async function fakeSite(dir: string, dists: Record<string, [string[], string[]]>): Promise<string> {
  const files: Record<string, string> = {};
  for (const [name, [requires, entries]] of Object.entries(dists)) {
    files[`${name}.dist-info/METADATA`] = [
      "Metadata-Version: 2.1",
      `Name: ${name.split("-")[0]}`,
      ...requires.map((r) => `Requires-Dist: ${r}`),
    ].join("\n") + "\n";
    files[`${name}.dist-info/entry_points.txt`] = `[pytest11]\n${entries.join("\n")}\n`;
  }
  await writeFiles(join(dir, "site"), files);
  return join(dir, "site");
}

// Seen on real repositories: pytest-cov 7 registers "pytest_cov.plugin" (not "pytest_cov") and
// needs pluggy>=1.2; loaded into a jail with pluggy 1.0 it failed every test run with a TypeError.
Deno.test("pytestPlugins() leaves out skipped plugins by package and those the jail's pytest cannot load", async () => {
  await withTemp(async (dir) => {
    const site = await fakeSite(dir, {
      "pytest_cov-7.1.0": [["pytest>=7", "pluggy>=1.2"], ["pytest_cov = pytest_cov.plugin"]],
      "needs_new-1.0": [["pytest (>=8.1)", "coverage"], ["needs_new = needs_new.plugin"]],
      "old_only-2.0": [["pytest<7"], ["old_only = old_only"]],
      "fits-1.0": [["pytest>=6.2,<10", "pluggy>=1.5; extra == 'dev'"], ["fits = fits.plugin"]],
    });
    const notes: string[] = [];
    const plugins = pytestPlugins(site, { pytest: "7.2.1", pluggy: "1.0.0+repack" }, notes);
    assert.deepEqual(plugins, ["fits.plugin"]);
    assert.deepEqual(notes, [
      "pytest plugin needs_new-1.0 not loaded: it needs pytest>=8.1, the jail has pytest 7.2.1; tests that use it fail",
      "pytest plugin old_only-2.0 not loaded: it needs pytest<7, the jail has pytest 7.2.1; tests that use it fail",
    ]);
  });
});

Deno.test("unpinned() drops the version specifier and keeps extras and markers", () => {
  assert.equal(unpinned("simplejson==3.*"), "simplejson");
  assert.equal(
    unpinned("Foo.Bar[x,y] >=1.2, <2 ; python_version < '3.12'"),
    "Foo.Bar[x,y] ; python_version < '3.12'",
  );
  assert.equal(unpinned("pytz"), null);
  assert.equal(unpinned("pkg @ https://example.invalid/pkg.whl"), null);
});

// Seen on a real repository: "simplejson==3.*" and "pytz==2025.2" were left out because the
// index had only newer versions, and the test module importing them could not be collected.
Deno.test({
  name:
    "buildEnvironment() installs the newest version the index has for a pin it lacks, with a note",
  ignore: !HAS_DATEUTIL,
  async fn() {
    await withTemp(async (dir) => {
      const files = projectFiles();
      files["pyproject.toml"] = files["pyproject.toml"].replace(
        '"python-dateutil>=2.8"',
        '"python-dateutil==0.0.1", "no-such-package-patchgym-test==1.0"',
      );
      await writeFiles(join(dir, "repo"), files);
      const result = await buildEnvironment(join(dir, "repo"), {
        cacheRoot: join(dir, "cache"),
        lockPath: join(dir, "env.lock"),
      });
      assert.ok(result.lock.packages.some((p) => p.startsWith("python-dateutil==2.")));
      assert.ok(
        result.notes.some((n) =>
          n.startsWith('installed "python-dateutil" in place of "python-dateutil==0.0.1"')
        ),
        result.notes.join("\n"),
      );
      assert.ok(
        result.notes.some((n) => n.startsWith('left out "no-such-package-patchgym-test==1.0"')),
        result.notes.join("\n"),
      );
    });
  },
});
