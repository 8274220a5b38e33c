/**
 * npm environments: `npm ci --ignore-scripts` on the host into a cache keyed by the lock, mounted
 * read-only at the repository's node_modules. The dependency is a tarball made here with
 * `npm pack` (a `file:` dependency), so no registry is needed.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { EnvBuildError } from "../../src/env/build.ts";
import { parseLock } from "../../src/env/lock.ts";
import { buildNpmEnvironment, needsNpmEnvironment, SCRIPTS_NOTE } from "../../src/env/npm.ts";
import { resolveLock } from "../../src/env/resolve.ts";
import { runTests } from "../../src/sandbox/test_runner.ts";
import { testSandbox, writeFiles } from "../_fixtures.ts";

const HAS_NPM = existsSync("/usr/bin/npm") || existsSync("/usr/local/bin/npm");
if (!HAS_NPM) console.warn("tests/env/npm_test.ts: skipping: npm is not installed");

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-npm-test-" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** `npm pack` a one-file package `padder` in `dir`; returns the tarball's path. */
async function packDependency(dir: string): Promise<string> {
  const source = join(dir, "padder-src");
  writeFiles(source, {
    "package.json": JSON.stringify({
      name: "padder",
      version: "1.2.0",
      type: "module",
      main: "index.js",
      // Never run: env build passes --ignore-scripts.
      scripts: { postinstall: "node -e \"require('fs').writeFileSync('/tmp/patchgym-ran', '')\"" },
    }),
    "index.js": 'export function padLeft(text, width, fill = " ") {\n' +
      "  return String(text).padStart(width, fill);\n}\n",
  });
  const out = await new Deno.Command("npm", {
    args: ["pack", "--silent", "--pack-destination", dir],
    cwd: source,
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return join(dir, "padder-1.2.0.tgz");
}

function repoFiles(tarball: string): Record<string, string> {
  return {
    "package.json": JSON.stringify(
      {
        name: "labels",
        version: "0.1.0",
        type: "module",
        dependencies: { padder: `file:${tarball}` },
      },
      null,
      2,
    ),
    "src/label.js": 'import { padLeft } from "padder";\n' +
      'export const label = (n) => "#" + padLeft(n, 4, "0");\n',
    "test/label.test.js":
      'import test from "node:test";\nimport assert from "node:assert/strict";\n' +
      'import { label } from "../src/label.js";\n' +
      'test("pads", () => {\n  assert.equal(label(7), "#0007");\n});\n',
  };
}

Deno.test({
  name: "buildNpmEnvironment() writes a missing lock, installs once, then finds the cache warm",
  ignore: !HAS_NPM,
  fn: () =>
    withTemp(async (dir) => {
      const tarball = await packDependency(dir);
      const repo = join(dir, "repo");
      writeFiles(repo, repoFiles(tarball));
      assert.equal(needsNpmEnvironment(repo), true);
      const cacheRoot = join(dir, "cache");
      const lockPath = join(dir, "env.lock");
      const lines: string[] = [];
      const cold = await buildNpmEnvironment(repo, {
        cacheRoot,
        lockPath,
        progress: (l) => lines.push(l),
      });
      assert.equal(cold.cache, "cold");
      assert.ok(existsSync(join(repo, "package-lock.json")), "the lock npm wrote");
      assert.ok(cold.notes.includes(SCRIPTS_NOTE));
      assert.ok(
        cold.notes.some((n) => n.includes("npm install --package-lock-only")),
        cold.notes.join("\n"),
      );
      assert.deepEqual(cold.lock.packages, ["padder@1.2.0"]);
      assert.ok(existsSync(join(cold.dir, "node_modules", "padder", "index.js")));
      assert.ok(!existsSync("/tmp/patchgym-ran"), "the install script must not run");
      assert.ok(lines.some((l) => l.includes("npm ci")), lines.join("\n"));
      const written = parseLock(readFileSync(lockPath, "utf8"), "env.lock");
      assert.equal(written.ecosystem, "npm");

      const warm = await buildNpmEnvironment(repo, { cacheRoot, lockPath });
      assert.equal(warm.cache, "warm");
      assert.equal(warm.dir, cold.dir);
      assert.equal(warm.lockWritten, false);

      // A changed lock is a different environment.
      const lock = JSON.parse(readFileSync(join(repo, "package-lock.json"), "utf8"));
      lock.name = "labels-renamed";
      Deno.writeTextFileSync(join(repo, "package-lock.json"), JSON.stringify(lock, null, 2));
      const other = await buildNpmEnvironment(repo, { cacheRoot, lockPath });
      assert.equal(other.cache, "cold");
      assert.notEqual(other.dir, cold.dir);
    }),
});

Deno.test({
  name: "buildNpmEnvironment() fails with npm's own message",
  ignore: !HAS_NPM,
  fn: () =>
    withTemp(async (dir) => {
      const repo = join(dir, "repo");
      writeFiles(repo, repoFiles(join(dir, "missing-9.9.9.tgz")));
      await assert.rejects(
        () =>
          buildNpmEnvironment(repo, { cacheRoot: join(dir, "cache"), lockPath: join(dir, "l") }),
        (error: Error) => {
          assert.ok(error instanceof EnvBuildError);
          assert.match(error.message, /^Cannot lock the dependencies of ".*": npm: npm error/);
          assert.match(error.message, /missing-9\.9\.9\.tgz/);
          return true;
        },
      );
      assert.ok(!existsSync(join(dir, "cache")), "nothing is cached");
    }),
});

Deno.test({
  name: "buildNpmEnvironment() leaves no half-built environment when npm ci fails",
  ignore: !HAS_NPM,
  fn: () =>
    withTemp(async (dir) => {
      const tarball = await packDependency(dir);
      const repo = join(dir, "repo");
      writeFiles(repo, repoFiles(tarball));
      const cacheRoot = join(dir, "cache");
      await buildNpmEnvironment(repo, { cacheRoot, lockPath: join(dir, "a.lock") });
      // The locked tarball is gone, and the changed lock is not in the cache: npm ci must fail.
      Deno.removeSync(tarball);
      const lock = JSON.parse(readFileSync(join(repo, "package-lock.json"), "utf8"));
      lock.name = "other";
      Deno.writeTextFileSync(join(repo, "package-lock.json"), JSON.stringify(lock));
      await assert.rejects(
        () => buildNpmEnvironment(repo, { cacheRoot, lockPath: join(dir, "b.lock") }),
        /^Error: Cannot install the npm dependencies of ".*": npm: npm error .*padder-1\.2\.0\.tgz/,
      );
      assert.equal(
        [...Deno.readDirSync(cacheRoot)].filter((e) => e.name.startsWith(".")).length,
        0,
      );
      assert.ok(!existsSync(join(dir, "b.lock")));
    }),
});

Deno.test("resolveLock() says an npm environment is not built and how to build it", async () => {
  await withTemp(async (dir) => {
    const lockPath = join(dir, "task", "env.lock");
    writeFiles(join(dir, "task"), {
      "env.lock": JSON.stringify({
        format: "patchgym-env-lock",
        version: 1,
        ecosystem: "npm",
        node: "20",
        package_lock: "a".repeat(64),
        packages: ["padder@1.2.0"],
        source_roots: [],
        pytest_args: [],
        notes: [SCRIPTS_NOTE],
        made_at: "2026-11-26T00:00:00Z",
      }),
    });
    const resolved = resolveLock(lockPath, join(dir, "cache"));
    assert.match(
      resolved.error ?? "",
      /is not built \(no ".*\/cache\/npm-[0-9a-f]{20}"\); run "deno task patchgym env build .*task"/,
    );
    await assert.rejects(
      () =>
        runTests({} as never, {
          runner: "node_test",
          dir,
          files: [],
          timeoutMs: 1000,
          environment: resolved,
        }),
      /Cannot run the tests: the dependency environment .* is not built/,
    );
  });
});

Deno.test({
  name: "runTests() node_test imports packages from the environment mounted at node_modules",
  ignore: !HAS_NPM,
  fn: () =>
    withTemp(async (dir) => {
      const tarball = await packDependency(dir);
      const repo = join(dir, "repo");
      writeFiles(repo, repoFiles(tarball));
      const lockPath = join(dir, "env.lock");
      await buildNpmEnvironment(repo, { cacheRoot: join(dir, "cache"), lockPath });
      const environment = resolveLock(lockPath, join(dir, "cache"));
      assert.equal(environment.error, undefined);
      const sandbox = await testSandbox();
      const run = await runTests(sandbox, {
        runner: "node_test",
        dir: repo,
        files: ["test/label.test.js"],
        timeoutMs: 20_000,
        environment,
      });
      const shown = `${run.result.stdout}\n${run.result.stderr}`;
      if (sandbox.isolation.level !== "bwrap") {
        assert.fail(`expected the jail: ${shown}`);
      }
      assert.equal(run.tests.get("test/label.test.js::pads"), "passed", shown);
      // The mount is read-only: the run cannot change the shared environment.
      assert.ok(existsSync(join(environment.dir!, "node_modules", "padder", "index.js")));
    }),
});
