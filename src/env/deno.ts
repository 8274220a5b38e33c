/**
 * Building a Deno repository's npm packages once, on the host, from the registry Deno is
 * configured with on this machine (never inside the jail, which has no network): `deno install`
 * of the repository's `deno.json` (or `deno.jsonc`) imports, `--frozen` to its `deno.lock`, into a
 * `DENO_DIR` of its own. Deno runs no lifecycle scripts without `--allow-scripts`, never given
 * here. A repository without a lock gets one written by that install, and the note says so.
 *
 * The result lives in the cache at `<cache>/deno-<hash>` (a `DENO_DIR`: its `npm` folder holds
 * the packages, `import_map.json` the config's bare names of them, `deno.lock` their versions),
 * made under a temporary name and renamed when complete, without Deno's SQLite caches (see
 * {@linkcode removeSqliteCaches}); the jail binds it read-only and `deno test` reads it as its
 * `DENO_DIR` with `--cached-only`, that import map and that lock.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { npmImportMap, readDenoConfig } from "./_deno_config.ts";
import {
  type BuildOptions,
  type BuildResult,
  EnvBuildError,
  environmentDir,
  isReady,
  NETWORK_ENV,
  readEnv,
  removeQuietly,
  stagingDir,
} from "./build.ts";
import {
  type DenoLock,
  formatLock,
  LOCK_FORMAT,
  LOCK_VERSION,
  lockHash,
  parseLock,
} from "./lock.ts";

/** Environment variables `deno install` gets from this process: registry, certificates. */
const DENO_ENV = [
  "HOME",
  "NPM_CONFIG_REGISTRY",
  "npm_config_registry",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  // Deno reads Node's extra certificates too (a proxy's CA, as on machines that intercept TLS).
  "NODE_EXTRA_CA_CERTS",
];

/** The import map of a Deno environment (see {@linkcode npmImportMap}), in its folder. */
export const DENO_IMPORT_MAP_FILE = "import_map.json";

/** The file of a Deno environment naming the npm registry it was installed from, if not npm's. */
export const DENO_REGISTRY_FILE = "registry";

/** The note every Deno environment carries about lifecycle scripts. */
export const DENO_SCRIPTS_NOTE =
  "installed without --allow-scripts: lifecycle scripts would run package code on the host; a package that needs one (a native addon) does not work";

/** Whether the repository at `repo` is a Deno project whose config imports `npm:` packages. */
export function needsDenoEnvironment(repo: string): boolean {
  const config = readDenoConfig(repo);
  return config !== null && Object.keys(npmImportMap(config.value).imports).length > 0;
}

/**
 * Build (or find in the cache) the `DENO_DIR` of the repository at `repo`. Throws
 * {@linkcode EnvBuildError} with Deno's message.
 */
export async function buildDenoEnvironment(
  repo: string,
  options: BuildOptions,
): Promise<BuildResult> {
  const started = performance.now();
  const progress = options.progress ?? (() => {});
  const config = readDenoConfig(repo);
  if (config === null) {
    throw new EnvBuildError(
      `Cannot build a Deno environment for "${repo}": no readable deno.json or deno.jsonc`,
    );
  }
  const deno = Deno.version.deno;
  const notes = [DENO_SCRIPTS_NOTE];
  const lockFile = join(repo, "deno.lock");
  Deno.mkdirSync(options.cacheRoot, { recursive: true });
  // A build without a lock installs once to write it; that install becomes the entry if new.
  let staged: string | null = null;
  try {
    if (!existsSync(lockFile)) {
      progress(`env: ${repo}: no deno.lock; writing one with deno install`);
      staged = await install(repo, config.path, null, options, progress);
      Deno.copyFileSync(join(staged, ".project", "deno.lock"), lockFile);
      notes.push("deno.lock was missing: written with deno install");
    }
    const lockText = readFileSync(lockFile);
    const denoLock = sha256(lockText);
    const imports = sha256(
      JSON.stringify([config.value.imports ?? {}, config.value.scopes ?? {}]),
    );
    const existing = !options.relock && existsSync(options.lockPath)
      ? parseLock(readFileSync(options.lockPath, "utf8"), options.lockPath)
      : null;
    const lock: DenoLock = existing?.ecosystem === "deno" && existing.deno === deno &&
        existing.deno_lock === denoLock && existing.imports === imports
      ? existing
      : {
        format: LOCK_FORMAT,
        version: LOCK_VERSION,
        ecosystem: "deno",
        deno,
        deno_lock: denoLock,
        imports,
        packages: lockedDenoPackages(lockText),
        source_roots: [],
        pytest_args: [],
        notes,
        made_at: new Date().toISOString(),
      };
    const lockWritten = lock !== existing;
    const hash = lockHash(lock);
    const dir = environmentDir(options.cacheRoot, hash, "deno");
    const warm = isReady(dir);
    if (warm) {
      progress(`env: ${repo}: warm cache ${dir}`);
      // An entry built before its caches were removed gets them removed now.
      removeSqliteCaches(dir);
    } else {
      progress(`env: ${repo}: deno install of ${lock.packages.length} packages into ${dir}`);
      staged ??= await install(repo, config.path, lockText, options, progress);
      Deno.removeSync(join(staged, ".project"), { recursive: true });
      removeSqliteCaches(staged);
      Deno.mkdirSync(join(staged, "npm"), { recursive: true });
      // The lock a test run resolves versions with (the registry's own data is not cached).
      Deno.writeFileSync(join(staged, "deno.lock"), lockText);
      Deno.writeTextFileSync(
        join(staged, DENO_IMPORT_MAP_FILE),
        JSON.stringify(npmImportMap(config.value), null, 2) + "\n",
      );
      Deno.writeTextFileSync(join(staged, "ready.json"), formatLock(lock));
      if (!isReady(dir)) {
        removeQuietly(dir);
        Deno.renameSync(staged, dir);
      }
    }
    if (lockWritten) {
      Deno.mkdirSync(dirname(options.lockPath), { recursive: true });
      Deno.writeTextFileSync(options.lockPath, formatLock(lock));
    }
    return {
      lock,
      hash,
      dir,
      cache: warm ? "warm" : "cold",
      lockWritten,
      notes: lock.notes,
      durationMs: performance.now() - started,
    };
  } finally {
    if (staged) removeQuietly(staged);
  }
}

/**
 * `deno install` of the config at `configPath` (with `lockText` as its lock, `--frozen`, or
 * writing one) into a new staging `DENO_DIR` under `cacheRoot`, whose `.project` folder holds the
 * copies installed from, and whose `registry` file names the registry when one was configured (the
 * npm cache is laid out by the registry's host). Returns the staging folder; removes it and throws
 * on failure.
 */
async function install(
  repo: string,
  configPath: string,
  lockText: Uint8Array | null,
  options: BuildOptions,
  progress: (line: string) => void,
): Promise<string> {
  const staging = stagingDir(options.cacheRoot);
  try {
    const project = join(staging, ".project");
    Deno.mkdirSync(project);
    Deno.copyFileSync(configPath, join(project, basename(configPath)));
    if (lockText) Deno.writeFileSync(join(project, "deno.lock"), lockText);
    const env: Record<string, string> = {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      LANG: "C.UTF-8",
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
      DENO_NO_PROMPT: "1",
      DENO_DIR: staging,
    };
    for (const name of [...DENO_ENV, ...NETWORK_ENV]) {
      const value = readEnv(name);
      if (value) env[name] = value;
    }
    const registry = options.npmRegistry ?? env.NPM_CONFIG_REGISTRY ?? env.npm_config_registry;
    delete env.npm_config_registry;
    if (registry) {
      env.NPM_CONFIG_REGISTRY = registry;
      Deno.writeTextFileSync(join(staging, DENO_REGISTRY_FILE), registry);
    }
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["install", ...(lockText ? ["--frozen"] : []), "--node-modules-dir=none"],
      cwd: project,
      clearEnv: true,
      env,
      stdin: "null",
    }).output().catch((error) => {
      throw new EnvBuildError(`Cannot run "${Deno.execPath()}": ${String(error)}`);
    });
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    for (const line of text.split("\n")) if (/^\+ |^error:/.test(line)) progress(`  deno: ${line}`);
    if (!out.success) {
      throw new EnvBuildError(
        `Cannot install the npm dependencies of "${repo}": deno: ${denoMessage(text)}`,
      );
    }
    return staging;
  } catch (error) {
    removeQuietly(staging);
    throw error;
  }
}

/**
 * Remove Deno's SQLite caches (`dep_analysis_cache_v2`, `node_analysis_cache_v2`, ...) and their
 * `-wal`, `-shm` and `-journal` files from the top of a `DENO_DIR`. `deno install` exits without
 * checkpointing them, and a deno that reads the folder read-only (every run in the jail) then at
 * times spun in SQLite's retry loop for a write-ahead log it could not recover (10 s per cache,
 * 20 s in all) before it fell back to a cache in memory, which it uses at once when there is no
 * file. The caches only speed up analysis; the packages are in `npm`. Best effort: a file that
 * cannot be removed is left.
 */
function removeSqliteCaches(dir: string): void {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (!entry.isFile || !(/-(?:wal|shm|journal)$/.test(entry.name) || isSqlite(path))) continue;
    try {
      Deno.removeSync(path);
    } catch {
      // Left: at worst that run is slow, as before.
    }
  }
}

const SQLITE_HEADER = "SQLite format 3\0";

/** Whether the file at `path` starts with SQLite's header. */
function isSqlite(path: string): boolean {
  try {
    using file = Deno.openSync(path);
    const head = new Uint8Array(SQLITE_HEADER.length);
    const read = file.readSync(head);
    return read === head.length && new TextDecoder().decode(head) === SQLITE_HEADER;
  } catch {
    return false;
  }
}

/** Deno's error, from its `error:` line to its stack backtrace, on one line. */
function denoMessage(text: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith("error:"));
  const tail = start < 0 ? lines : lines.slice(start);
  const end = tail.findIndex((l) => l.startsWith("Stack backtrace"));
  return (end < 0 ? tail : tail.slice(0, end)).map((l) => l.trim()).filter(Boolean)
    .slice(0, 8).join(" | ").slice(0, 1500);
}

/** `name@version` of every npm package a deno.lock names, sorted. */
export function lockedDenoPackages(text: Uint8Array | string): string[] {
  let lock: { npm?: Record<string, unknown> };
  try {
    lock = JSON.parse(typeof text === "string" ? text : new TextDecoder().decode(text));
  } catch (error) {
    throw new EnvBuildError(`Cannot read deno.lock: ${(error as Error).message}`);
  }
  // Keys are `name@version`, with peer dependencies after an underscore.
  return [...new Set(Object.keys(lock.npm ?? {}).map((key) => key.split("_")[0]))].sort();
}

function sha256(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}
