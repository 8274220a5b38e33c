/**
 * Building a Node repository's `node_modules` once, on the host, from the registry npm is
 * configured with on this machine (never inside the jail, which has no network): `npm ci` from the
 * repository's `package-lock.json`, with `--ignore-scripts` (install scripts would run package code
 * on the host, outside the jail; a package that needs one to work, e.g. to build a native addon,
 * fails its tests instead, and the note says so). A repository without a lock gets one written
 * with `npm install --package-lock-only` (also without scripts), and the note says so.
 *
 * The result lives in the cache at `<cache>/npm-<hash of the lock>/node_modules`, made under a
 * temporary name and renamed when complete; the jail binds it read-only at the repository's
 * `node_modules`.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { findProgram } from "../sandbox/mounts.ts";
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
  formatLock,
  LOCK_FORMAT,
  LOCK_VERSION,
  lockHash,
  type NpmLock,
  parseLock,
} from "./lock.ts";

/** What `npm` always gets: no scripts, no audit or funding requests, no update check. */
const NPM_FLAGS = ["--ignore-scripts", "--no-audit", "--no-fund", "--no-update-notifier"];

/** Environment variables npm gets from this process: its configuration, proxies, certificates. */
const NPM_ENV = ["HOME", "NPM_CONFIG_REGISTRY", "npm_config_registry", "NODE_EXTRA_CA_CERTS"];

/** The note every npm environment carries about install scripts. */
export const SCRIPTS_NOTE =
  "installed with --ignore-scripts: install scripts would run package code on the host; a package that needs its install script (a native addon) does not work";

/** Whether the repository at `repo` is a Node project with dependencies to install. */
export function needsNpmEnvironment(repo: string): boolean {
  const manifest = readManifest(repo);
  if (manifest === null) return false;
  return ["dependencies", "devDependencies", "optionalDependencies"].some((key) =>
    Object.keys((manifest[key] ?? {}) as Record<string, unknown>).length > 0
  );
}

/**
 * Build (or find in the cache) the `node_modules` of the repository at `repo`. Throws
 * {@linkcode EnvBuildError} with npm's message.
 */
export async function buildNpmEnvironment(
  repo: string,
  options: BuildOptions,
): Promise<BuildResult> {
  const started = performance.now();
  const progress = options.progress ?? (() => {});
  if (readManifest(repo) === null) {
    throw new EnvBuildError(`Cannot build a Node environment for "${repo}": no package.json`);
  }
  const npm = npmProgram();
  const node = await nodeMajor();
  const notes = [SCRIPTS_NOTE];
  const lockFile = join(repo, "package-lock.json");
  if (!existsSync(lockFile)) {
    progress(
      `env: ${repo}: no package-lock.json; writing one with npm install --package-lock-only`,
    );
    await runNpm(npm, repo, ["install", "--package-lock-only"], progress).then((r) => {
      if (!r.ok) {
        throw new EnvBuildError(`Cannot lock the dependencies of "${repo}": npm: ${r.message}`);
      }
    });
    notes.push("package-lock.json was missing: written with npm install --package-lock-only");
  }
  const lockText = readFileSync(lockFile);
  const packageLock = createHash("sha256").update(lockText).digest("hex");
  const existing = !options.relock && existsSync(options.lockPath)
    ? parseLock(readFileSync(options.lockPath, "utf8"), options.lockPath)
    : null;
  const lock: NpmLock = existing?.ecosystem === "npm" && existing.node === node &&
      existing.package_lock === packageLock
    ? existing
    : {
      format: LOCK_FORMAT,
      version: LOCK_VERSION,
      ecosystem: "npm",
      node,
      package_lock: packageLock,
      packages: lockedPackages(lockText),
      source_roots: [],
      pytest_args: [],
      notes,
      made_at: new Date().toISOString(),
    };
  const lockWritten = lock !== existing;
  const hash = lockHash(lock);
  const dir = environmentDir(options.cacheRoot, hash, "npm");
  const warm = isReady(dir);
  if (warm) {
    progress(`env: ${repo}: warm cache ${dir}`);
  } else {
    progress(`env: ${repo}: npm ci of ${lock.packages.length} packages into ${dir}`);
    Deno.mkdirSync(options.cacheRoot, { recursive: true });
    const staging = stagingDir(options.cacheRoot);
    try {
      Deno.copyFileSync(join(repo, "package.json"), join(staging, "package.json"));
      Deno.writeFileSync(join(staging, "package-lock.json"), lockText);
      const result = await runNpm(npm, staging, ["ci"], progress);
      if (!result.ok) {
        throw new EnvBuildError(
          `Cannot install the npm dependencies of "${repo}": npm: ${result.message}`,
        );
      }
      Deno.mkdirSync(join(staging, "node_modules"), { recursive: true });
      Deno.writeTextFileSync(join(staging, "ready.json"), formatLock(lock));
      if (!isReady(dir)) {
        removeQuietly(dir);
        Deno.renameSync(staging, dir);
      }
    } finally {
      removeQuietly(staging);
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
}

function readManifest(repo: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"));
    return value !== null && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}

/** `name@version` of every package a package-lock.json (v2/v3) installs, sorted. */
export function lockedPackages(text: Uint8Array | string): string[] {
  let lock: { packages?: Record<string, { version?: string; link?: boolean }> };
  try {
    lock = JSON.parse(typeof text === "string" ? text : new TextDecoder().decode(text));
  } catch (error) {
    throw new EnvBuildError(`Cannot read package-lock.json: ${(error as Error).message}`);
  }
  const out = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (path === "" || entry.link || !entry.version) continue;
    const name = path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
    out.add(`${name}@${entry.version}`);
  }
  return [...out].sort();
}

/** The `npm` on the children's PATH, by its path. */
export function npmProgram(): string {
  const found = findProgram("npm");
  if (!found) throw new EnvBuildError("Cannot build a Node environment: npm is not installed");
  return found.path;
}

async function nodeMajor(): Promise<string> {
  const found = findProgram("node");
  if (!found) throw new EnvBuildError("Cannot build a Node environment: node is not installed");
  const out = await new Deno.Command(found.path, {
    args: ["--version"],
    clearEnv: true,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
    stdin: "null",
  }).output();
  const version = /^v(\d+)\./.exec(new TextDecoder().decode(out.stdout).trim())?.[1];
  if (!out.success || version === undefined) {
    throw new EnvBuildError(`Cannot run "${found.path} --version" to learn Node's version`);
  }
  return version;
}

async function runNpm(
  npm: string,
  cwd: string,
  args: string[],
  progress: (line: string) => void,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const env: Record<string, string> = { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8" };
  for (const name of [...NPM_ENV, ...NETWORK_ENV]) {
    const value = readEnv(name);
    if (value) env[name] = value;
  }
  const out = await new Deno.Command(npm, {
    args: [...args, ...NPM_FLAGS],
    cwd,
    clearEnv: true,
    env,
    stdin: "null",
  }).output().catch((error) => {
    throw new EnvBuildError(`Cannot run "${npm}": ${String(error)}`);
  });
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  for (const line of text.split("\n")) {
    if (/^added \d+ packages|^npm (error|ERR!)/.test(line)) progress(`  npm: ${line}`);
  }
  if (out.success) return { ok: true };
  // npm's pointer to its debug log names a file under HOME: left out.
  const errors = text.split("\n").filter((l) =>
    /^npm (error|ERR!)/.test(l) && !/A complete log of this run/.test(l) &&
    !/^npm (error|ERR!)\s*\w*\s*$/.test(l)
  );
  return {
    ok: false,
    message: (errors.length > 0 ? errors : text.trim().split("\n")).slice(-6).join(" | ")
      .slice(0, 1500),
  };
}
