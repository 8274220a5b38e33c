/**
 * Deno environments: `deno install --frozen` on the host into a `DENO_DIR` cached by the hash of
 * deno.lock, the config's imports and Deno's version, read read-only by `deno test` in the jail.
 * The npm package comes from a registry served here on 127.0.0.1, so no network is needed.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { EnvBuildError } from "../../src/env/build.ts";
import {
  buildDenoEnvironment,
  DENO_SCRIPTS_NOTE,
  needsDenoEnvironment,
} from "../../src/env/deno.ts";
import { npmImportMap, stripJsonComments } from "../../src/env/_deno_config.ts";
import { parseLock } from "../../src/env/lock.ts";
import { resolveLock } from "../../src/env/resolve.ts";
import { runTests } from "../../src/sandbox/test_runner.ts";
import { runCommandTool } from "../../src/tools/run_command.ts";
import { testSandbox, withContext, writeFiles } from "../_fixtures.ts";
import { call, okOutput } from "../tools/_call.ts";

/** A temp folder with an npm registry serving `padder@1.2.0` (with a postinstall script). */
async function withRegistry(
  fn: (dir: string, registry: string) => Promise<void>,
): Promise<void> {
  const dir = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-deno-env-test-" }));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/padder") {
      return Response.json(packument);
    }
    if (path === "/padder/-/padder-1.2.0.tgz") return new Response(tarball);
    return new Response("{}", { status: 404 });
  });
  const registry = `http://127.0.0.1:${server.addr.port}/`;
  let packument: unknown = null;
  let tarball = new Uint8Array();
  try {
    writeFiles(join(dir, "pack", "package"), {
      "package.json": JSON.stringify({
        name: "padder",
        version: "1.2.0",
        type: "module",
        main: "index.js",
        // Never run: deno install gets no --allow-scripts.
        scripts: { postinstall: "node -e \"require('fs').writeFileSync('/tmp/deno-ran', '')\"" },
      }),
      "index.js": 'export function padLeft(text, width, fill = " ") {\n' +
        "  return String(text).padStart(width, fill);\n}\n",
    });
    const out = await new Deno.Command("tar", {
      args: ["-czf", join(dir, "padder.tgz"), "-C", join(dir, "pack"), "package"],
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    tarball = Deno.readFileSync(join(dir, "padder.tgz"));
    const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`;
    packument = {
      name: "padder",
      "dist-tags": { latest: "1.2.0" },
      versions: {
        "1.2.0": {
          name: "padder",
          version: "1.2.0",
          scripts: { postinstall: "node -e 1" },
          dist: { tarball: `${registry}padder/-/padder-1.2.0.tgz`, integrity },
        },
      },
    };
    await fn(dir, registry);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

function repoFiles(dependency = "npm:padder@^1.2.0"): Record<string, string> {
  return {
    "deno.json": JSON.stringify({ imports: { padder: dependency } }, null, 2),
    "src/label.ts": 'import { padLeft } from "padder";\n' +
      'export const label = (n: number) => "#" + padLeft(n, 4, "0");\n',
    "test/label_test.ts": 'import { label } from "../src/label.ts";\n' +
      'Deno.test("pads", () => {\n  if (label(7) !== "#0007") throw new Error(label(7));\n});\n',
  };
}

Deno.test("buildDenoEnvironment() writes a missing lock, installs once, then finds the cache warm", () =>
  withRegistry(async (dir, registry) => {
    const repo = join(dir, "repo");
    writeFiles(repo, repoFiles());
    assert.equal(needsDenoEnvironment(repo), true);
    const cacheRoot = join(dir, "cache");
    const lockPath = join(dir, "env.lock");
    const lines: string[] = [];
    const options = { cacheRoot, lockPath, npmRegistry: registry };
    const cold = await buildDenoEnvironment(repo, { ...options, progress: (l) => lines.push(l) });
    assert.equal(cold.cache, "cold");
    assert.ok(existsSync(join(repo, "deno.lock")), "the lock deno wrote");
    assert.ok(cold.notes.includes(DENO_SCRIPTS_NOTE));
    assert.ok(cold.notes.some((n) => n.includes("deno.lock was missing")), cold.notes.join("\n"));
    assert.deepEqual(cold.lock.packages, ["padder@1.2.0"]);
    assert.match(cold.dir, /\/cache\/deno-[0-9a-f]{20}$/);
    assert.ok(existsSync(join(cold.dir, "npm")));
    assert.ok(!existsSync(join(cold.dir, ".project")));
    assert.ok(!existsSync("/tmp/deno-ran"), "the install script must not run");
    assert.ok(lines.some((l) => l.includes("deno install")), lines.join("\n"));
    assert.equal(parseLock(readFileSync(lockPath, "utf8"), "env.lock").ecosystem, "deno");

    const warm = await buildDenoEnvironment(repo, options);
    assert.equal(warm.cache, "warm");
    assert.equal(warm.dir, cold.dir);
    assert.equal(warm.lockWritten, false);

    // A changed lock is a different environment.
    const lock = JSON.parse(readFileSync(join(repo, "deno.lock"), "utf8"));
    Deno.writeTextFileSync(join(repo, "deno.lock"), JSON.stringify(lock, null, 4));
    const other = await buildDenoEnvironment(repo, options);
    assert.equal(other.cache, "cold");
    assert.notEqual(other.dir, cold.dir);
    assert.equal(other.lockWritten, true);
    assert.equal(
      [...Deno.readDirSync(cacheRoot)].filter((e) => e.name.startsWith(".")).length,
      0,
      "no staging folder is left",
    );
  }));

/** Files at the top of a DENO_DIR that are SQLite databases or their journals. */
function sqliteFiles(dir: string): string[] {
  return [...Deno.readDirSync(dir)].filter((entry) => entry.isFile).map((entry) => entry.name)
    .filter((name) =>
      /-(?:wal|shm|journal)$/.test(name) ||
      readFileSync(join(dir, name)).subarray(0, 16).toString() === "SQLite format 3\0"
    ).sort();
}

// Guards the agent's deno test that spent 20 s before its tests at times: deno install left its
// SQLite caches with their write-ahead logs in the environment, and a deno reading them read-only
// in the jail spun in SQLite's recovery retries (10 s per cache) before it fell back to memory.
Deno.test("buildDenoEnvironment() leaves none of deno's SQLite caches in the environment", () =>
  withRegistry(async (dir, registry) => {
    const repo = join(dir, "repo");
    writeFiles(repo, repoFiles());
    const options = { cacheRoot: join(dir, "cache"), lockPath: join(dir, "env.lock") };
    const cold = await buildDenoEnvironment(repo, { ...options, npmRegistry: registry });
    assert.deepEqual(sqliteFiles(cold.dir), []);
    assert.ok(existsSync(join(cold.dir, "npm")));
    // An entry built before (caches and logs as deno install leaves them) is cleaned when found.
    writeFiles(cold.dir, {
      "dep_analysis_cache_v2": "SQLite format 3\0" + "x".repeat(100),
      "dep_analysis_cache_v2-wal": "log",
      "dep_analysis_cache_v2-shm": "index",
    });
    assert.equal(sqliteFiles(cold.dir).length, 3);
    const warm = await buildDenoEnvironment(repo, { ...options, npmRegistry: registry });
    assert.equal(warm.cache, "warm");
    assert.deepEqual(sqliteFiles(warm.dir), []);
    assert.ok(existsSync(join(warm.dir, "import_map.json")), "patchgym's own files stay");
  }));

Deno.test("buildDenoEnvironment() fails with deno's own message and caches nothing", () =>
  withRegistry(async (dir, registry) => {
    const repo = join(dir, "repo");
    writeFiles(repo, repoFiles("npm:nowhere@^1.0.0"));
    const cacheRoot = join(dir, "cache");
    await assert.rejects(
      () =>
        buildDenoEnvironment(repo, { cacheRoot, lockPath: join(dir, "l"), npmRegistry: registry }),
      (error: Error) => {
        assert.ok(error instanceof EnvBuildError);
        assert.match(
          error.message,
          /^Cannot install the npm dependencies of ".*": deno: error: .*nowhere/,
        );
        return true;
      },
    );
    assert.deepEqual([...Deno.readDirSync(cacheRoot)], [], "nothing is cached");
    assert.ok(!existsSync(join(dir, "l")));
    assert.ok(!existsSync(join(repo, "deno.lock")));
  }));

Deno.test("buildDenoEnvironment() leaves nothing half-built when deno install --frozen fails", () =>
  withRegistry(async (dir, registry) => {
    const repo = join(dir, "repo");
    writeFiles(repo, repoFiles());
    const cacheRoot = join(dir, "cache");
    const options = { cacheRoot, npmRegistry: registry };
    await buildDenoEnvironment(repo, { ...options, lockPath: join(dir, "a.lock") });
    // The imports no longer match the lock: --frozen refuses to change it.
    writeFiles(repo, { "deno.json": JSON.stringify({ imports: { padder: "npm:padder@1" } }) });
    await assert.rejects(
      () => buildDenoEnvironment(repo, { ...options, lockPath: join(dir, "b.lock") }),
      /^Error: Cannot install the npm dependencies of ".*": deno: error: The lockfile is out of date/,
    );
    assert.equal(
      [...Deno.readDirSync(cacheRoot)].filter((e) => e.name.startsWith(".")).length,
      0,
    );
    assert.equal([...Deno.readDirSync(cacheRoot)].length, 1);
    assert.ok(!existsSync(join(dir, "b.lock")));
  }));

Deno.test("resolveLock() says a Deno environment is not built and how to build it", async () => {
  const dir = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-deno-env-test-" }));
  try {
    const lockPath = join(dir, "task", "env.lock");
    writeFiles(join(dir, "task"), {
      "env.lock": JSON.stringify({
        format: "patchgym-env-lock",
        version: 1,
        ecosystem: "deno",
        deno: "2.9.6",
        deno_lock: "a".repeat(64),
        imports: "b".repeat(64),
        packages: ["padder@1.2.0"],
        source_roots: [],
        pytest_args: [],
        notes: [DENO_SCRIPTS_NOTE],
        made_at: "2026-11-26T00:00:00Z",
      }),
    });
    const resolved = resolveLock(lockPath, join(dir, "cache"));
    assert.match(
      resolved.error ?? "",
      /is not built \(no ".*\/cache\/deno-[0-9a-f]{20}"\); run "deno task patchgym env build .*task"/,
    );
    await assert.rejects(
      () =>
        runTests({} as never, {
          runner: "deno_test",
          dir,
          files: [],
          timeoutMs: 1000,
          environment: resolved,
        }),
      /Cannot run the tests: the dependency environment .* is not built/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runTests() deno_test imports npm packages from the environment's read-only DENO_DIR", () =>
  withRegistry(async (dir, registry) => {
    const repo = join(dir, "repo");
    writeFiles(repo, repoFiles());
    const lockPath = join(dir, "env.lock");
    await buildDenoEnvironment(repo, {
      cacheRoot: join(dir, "first"),
      lockPath,
      npmRegistry: registry,
    });
    // Built again from the committed deno.lock (deno install --frozen caches no registry data: the
    // run resolves versions with the lock, as a bundled task's does).
    const cacheRoot = join(dir, "cache");
    await buildDenoEnvironment(repo, { cacheRoot, lockPath, npmRegistry: registry });
    const environment = resolveLock(lockPath, cacheRoot);
    assert.equal(environment.error, undefined);
    assert.equal(environment.env?.NPM_CONFIG_REGISTRY, registry);
    const sandbox = await testSandbox();
    const request = {
      runner: "deno_test" as const,
      dir: repo,
      files: ["test/label_test.ts"],
      timeoutMs: 30_000,
    };
    const run = await runTests(sandbox, { ...request, environment });
    const shown = `${run.result.stdout}\n${run.result.stderr}`;
    if (sandbox.isolation.level !== "bwrap") assert.fail(`expected the jail: ${shown}`);
    assert.equal(run.tests.get("test/label_test.ts::pads"), "passed", shown);
    assert.deepEqual(run.problems, [], shown);
    // Without the environment the jail has no package (and no network to fetch it).
    const bare = await runTests(sandbox, request);
    assert.notEqual(bare.tests.get("test/label_test.ts::pads"), "passed");
  }));

Deno.test("runCommandTool.run() gives the agent's own deno test the environment's DENO_DIR", () =>
  withRegistry(async (dir, registry) => {
    const repo = join(dir, "repo");
    writeFiles(repo, repoFiles());
    const lockPath = join(dir, "env.lock");
    const cacheRoot = join(dir, "cache");
    await buildDenoEnvironment(repo, { cacheRoot, lockPath, npmRegistry: registry });
    const environment = resolveLock(lockPath, cacheRoot);
    await withContext(repoFiles(), async (ctx) => {
      writeFiles(ctx.workspace.dir, { "deno.lock": readFileSync(join(repo, "deno.lock"), "utf8") });
      // --no-check: type-checking would put a wall-clock cost on a loaded machine into the test;
      // and the task's 20 s command limit is lifted: this test is about the DENO_DIR the command
      // gets, not its speed (a loaded CI machine once took longer than 20 s).
      ctx.commandTimeoutS = 600;
      const argv = ["deno", "test", "--no-check", "--cached-only", "test/label_test.ts"];
      const bare = await call(runCommandTool, { argv }, ctx);
      assert.match(okOutput(bare), /^exit code 1/);
      ctx.tests.environment = environment;
      const output = okOutput(await call(runCommandTool, { argv }, ctx));
      assert.match(output, /^exit code 0/, output);
      assert.match(output, /1 passed/, output);
    });
  }));

Deno.test("runTests() deno_test keeps the import map built with the environment, not the agent's", () =>
  withRegistry(async (dir, registry) => {
    const repo = join(dir, "repo");
    writeFiles(repo, {
      ...repoFiles(),
      "test/_expect.ts": "export function equal(a: unknown, b: unknown): void {\n" +
        "  if (a !== b) throw new Error(`${a} !== ${b}`);\n}\n",
      "test/label_test.ts": 'import { label } from "../src/label.ts";\n' +
        'import { equal } from "./_expect.ts";\n' +
        'Deno.test("pads", () => equal(label(7), "#0007"));\n',
    });
    const lockPath = join(dir, "env.lock");
    const cacheRoot = join(dir, "cache");
    await buildDenoEnvironment(repo, { cacheRoot, lockPath, npmRegistry: registry });
    // The agent breaks the code and maps the protected helper to one that checks nothing (with
    // the copy's deno.json as the import map, this run passed).
    writeFiles(repo, {
      "src/label.ts": 'export const label = (n: number) => "#" + n;\n',
      "src/lenient.ts": "export function equal(_a: unknown, _b: unknown): void {}\n",
      "deno.json": JSON.stringify({
        imports: {
          padder: "npm:padder@^1.2.0",
          [`file://${repo}/test/_expect.ts`]: "./src/lenient.ts",
          "./test/_expect.ts": "./src/lenient.ts",
        },
      }),
    });
    const sandbox = await testSandbox();
    const run = await runTests(sandbox, {
      runner: "deno_test",
      dir: repo,
      files: ["test/label_test.ts"],
      timeoutMs: 30_000,
      environment: resolveLock(lockPath, cacheRoot),
    });
    const shown = `${run.result.stdout}\n${run.result.stderr}`;
    assert.equal(run.tests.get("test/label_test.ts::pads"), "failed", shown);
  }));

Deno.test("npmImportMap() keeps bare names of npm: packages; stripJsonComments() reads deno.jsonc", () => {
  const text = `{
    // the config
    "imports": {
      "ms": "npm:ms@^2.1.3", /* a block */
      "url//like": "npm:x@1",
      "@/": "./src/",
      "./a.ts": "npm:y@1",
      "node:fs": "npm:z@1",
      "jsr": "jsr:@std/assert@1",
    },
  }`;
  const config = JSON.parse(stripJsonComments(text));
  assert.deepEqual(npmImportMap(config), {
    imports: { ms: "npm:ms@^2.1.3", "url//like": "npm:x@1" },
  });
  assert.deepEqual(npmImportMap({}), { imports: {} });
});
