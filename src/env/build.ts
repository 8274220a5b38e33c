/**
 * Building a repository's dependency environment once, on the host, from the package index pip is
 * configured with on this machine (never inside the jail, which has no network).
 *
 * What runs: the standard-library inspector (`_inspect_python.ts`, which only parses files) and
 * `pip install --target` of the dependencies, for the interpreter the jail runs as `python3`.
 * The repository itself is never installed, so its build backend never runs: its code is put on
 * the path instead (its root and source roots such as `src/`), which makes src layouts, namespace
 * packages and tests anywhere work the same way in every workspace copy. pip runs with a scrubbed
 * environment (no API keys); an sdist among the dependencies runs that package's own build code.
 *
 * The result lives in the cache at `<cache>/py-<hash of the lock>/site`, made under a temporary
 * name and renamed when complete, so a half-built environment is never used.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { findProgram } from "../sandbox/mounts.ts";
import { INSPECT_PYTHON, type PythonProject } from "./_inspect_python.ts";
import {
  type EnvLock,
  formatLock,
  LOCK_FORMAT,
  LOCK_VERSION,
  lockHash,
  parseLock,
} from "./lock.ts";

/** Packages the jail's interpreter provides to run the tests; an environment never shadows them. */
export const JAIL_TEST_PACKAGES = ["pytest", "pluggy", "iniconfig", "_pytest", "py"];

/** pytest options of plugins the reporter does not load, or that break a run of a subset. */
const DROPPED_OPTIONS: { prefix: string; value: boolean; why: string }[] = [
  { prefix: "--cov", value: false, why: "coverage (its thresholds fail a run of a subset)" },
  { prefix: "--no-cov", value: false, why: "coverage" },
  { prefix: "-n", value: true, why: "pytest-xdist (tests run in one process)" },
  { prefix: "--numprocesses", value: true, why: "pytest-xdist" },
  { prefix: "--dist", value: true, why: "pytest-xdist" },
  { prefix: "--maxprocesses", value: true, why: "pytest-xdist" },
  { prefix: "--reruns", value: true, why: "pytest-rerunfailures (a rerun hides a failure)" },
  { prefix: "--benchmark", value: false, why: "pytest-benchmark" },
  { prefix: "--doctest-glob", value: true, why: "doctests are not graded" },
  { prefix: "--doctest-modules", value: false, why: "doctests are not graded" },
  { prefix: "--color", value: true, why: "the model reads the output as plain text" },
  { prefix: "--code-highlight", value: true, why: "the model reads the output as plain text" },
];

/** Plugins never loaded even when installed, by top-level package (see {@linkcode DROPPED_OPTIONS}). */
const SKIPPED_PLUGINS = ["pytest_cov", "xdist", "pytest_rerunfailures", "pytest_benchmark"];

/** How to build. */
export interface BuildOptions {
  /** Cache root (see {@linkcode defaultCacheRoot}). */
  cacheRoot: string;
  /** Where the lock is read from and written to. */
  lockPath: string;
  /**
   * The npm registry a Deno project's packages come from (default: this process's
   * `NPM_CONFIG_REGISTRY`, else Deno's own default); a test run reads the cache under its name.
   */
  npmRegistry?: string;
  /** Ignore an existing lock and resolve the requirements again. */
  relock?: boolean;
  /** Progress lines for people (stderr). */
  progress?: (line: string) => void;
  /** The interpreter to install for (default: the `python3` the jail runs). */
  python?: string;
}

/** What a build did. */
export interface BuildResult {
  lock: EnvLock;
  hash: string;
  /** The environment's folder in the cache. */
  dir: string;
  /** `warm`: found in the cache; `cold`: installed now. */
  cache: "warm" | "cold";
  /** Whether the lock file was (re)written. */
  lockWritten: boolean;
  /** What the build left out or changed, for people (the lock's notes). */
  notes: string[];
  durationMs: number;
}

/** A build that could not finish; the message carries the installer's own words. */
export class EnvBuildError extends Error {}

/** `$PATCHGYM_ENV_CACHE`, else `~/.cache/patchgym/env`. */
export function defaultCacheRoot(): string {
  const fromEnv = readEnv("PATCHGYM_ENV_CACHE");
  if (fromEnv) return fromEnv;
  return join(readEnv("HOME") || "/tmp", ".cache", "patchgym", "env");
}

/** The folder of the environment with `hash` under `cacheRoot`. */
export function environmentDir(
  cacheRoot: string,
  hash: string,
  ecosystem: "python" | "npm" | "deno" = "python",
): string {
  return join(cacheRoot, `${ecosystem === "python" ? "py" : ecosystem}-${hash}`);
}

/** Whether a repository declares anything an environment is for (dependencies or a src layout). */
export async function inspectRepository(repo: string, python?: string): Promise<PythonProject> {
  const interpreter = python ?? jailPython();
  const out = await new Deno.Command(interpreter, {
    args: ["-I", "-c", INSPECT_PYTHON, repo],
    clearEnv: true,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8" },
    stdin: "null",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr).trim();
  if (!out.success) {
    throw new EnvBuildError(`Cannot read the dependency files of "${repo}": ${lastLines(stderr)}`);
  }
  return JSON.parse(new TextDecoder().decode(out.stdout)) as PythonProject;
}

/** Whether the project needs an environment at all. */
export function needsEnvironment(project: PythonProject): boolean {
  return project.requirements.length > 0 || project.source_roots.length > 0 ||
    (project.addopts ?? []).some((o) => droppedOption(o) !== null);
}

/**
 * Build (or find in the cache) the environment of the repository at `repo`. With a lock at
 * `options.lockPath`, exactly its pins are installed; without one, the declared requirements are
 * resolved, installed, and the lock is written. Throws {@linkcode EnvBuildError} with pip's message.
 */
export async function buildEnvironment(repo: string, options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const progress = options.progress ?? (() => {});
  const python = options.python ?? jailPython();
  const version = await pythonVersion(python);
  const project = await inspectRepository(repo, python);
  const read = !options.relock && existsSync(options.lockPath)
    ? parseLock(readFileSync(options.lockPath, "utf8"), options.lockPath)
    : null;
  const existing = read?.ecosystem === "python" ? read : null;
  if (existing && existing.python !== version) {
    progress(
      `env: the lock is for Python ${existing.python}, the jail runs ${version}: resolving again`,
    );
  }
  const lock = existing && existing.python === version ? existing : null;
  if (lock) {
    const hash = lockHash(lock);
    const dir = environmentDir(options.cacheRoot, hash);
    if (isReady(dir)) {
      progress(`env: ${repo}: warm cache ${dir}`);
      return done(lock, hash, dir, "warm", false);
    }
    progress(`env: ${repo}: installing ${lock.packages.length} locked packages into ${dir}`);
    await install(python, dir, lock.packages, { noDeps: true, progress });
    return done(lock, hash, dir, "cold", false);
  }
  const notes = projectNotes(project);
  progress(
    `env: ${repo}: ${project.requirements.length} requirements from ${
      project.sources.join(", ") || "no dependency file"
    }`,
  );
  Deno.mkdirSync(options.cacheRoot, { recursive: true });
  const staging = stagingDir(options.cacheRoot);
  try {
    const site = join(staging, "site");
    // The jail's pytest runs the tests: asking for another one would only be removed again.
    const jailOwn = project.requirements.filter((r) =>
      JAIL_TEST_PACKAGES.includes(requirementName(r))
    );
    if (jailOwn.length > 0) {
      notes.push(
        `left out ${jailOwn.map((r) => `"${r}"`).join(", ")}: the jail's own pytest runs the tests`,
      );
    }
    let left = project.requirements.filter((r) => !jailOwn.includes(r));
    if (left.length > 0) {
      const whole = await pipInstall(python, site, left, { progress });
      if (!whole.ok) {
        // Install what the index has, one requirement at a time, and say what was left out.
        progress("env: installing them together failed; trying one at a time");
        const kept: string[] = [];
        for (const req of left) {
          const one = await pipInstall(python, site, [req], { progress });
          if (one.ok) {
            kept.push(req);
            continue;
          }
          // A pin the index lacks while it has other versions: the newest it has, said so.
          const loose = /from versions: (?!none\))/.test(one.message) ? unpinned(req) : null;
          if (loose && (await pipInstall(python, site, [loose], { progress })).ok) {
            kept.push(loose);
            notes.push(
              `installed "${loose}" in place of "${req}": the package index has no version that matches (${
                /\(from versions: ([^)]*)\)/.exec(one.message)?.[1] ?? ""
              }); tests that need the pinned version may fail`,
            );
            continue;
          }
          notes.push(`left out "${req}": pip could not install it (${one.message})`);
        }
        if (kept.length === 0) {
          throw new EnvBuildError(
            `Cannot install the dependencies of "${repo}": pip: ${whole.message}`,
          );
        }
        left = kept;
      }
    }
    Deno.mkdirSync(site, { recursive: true });
    const removed = removeJailPackages(site);
    if (removed.length > 0) {
      notes.push(
        `left out ${
          removed.join(", ")
        }: the jail's own pytest runs the tests (plugins that need a newer one may fail)`,
      );
    }
    const packages = installedPins(site);
    const plugins = pytestPlugins(site, await jailTestVersions(python), notes);
    const lockValue: EnvLock = {
      format: LOCK_FORMAT,
      version: LOCK_VERSION,
      ecosystem: "python",
      python: version,
      packages,
      source_roots: project.source_roots,
      pytest_args: [...plugins.flatMap((p) => ["-p", p]), ...addoptsOverride(project, notes)],
      notes,
      made_at: new Date().toISOString(),
    };
    const hash = lockHash(lockValue);
    const dir = environmentDir(options.cacheRoot, hash);
    if (!isReady(dir)) {
      Deno.writeTextFileSync(join(staging, "ready.json"), formatLock(lockValue));
      removeQuietly(dir);
      Deno.renameSync(staging, dir);
    }
    Deno.mkdirSync(dirname(options.lockPath), { recursive: true });
    Deno.writeTextFileSync(options.lockPath, formatLock(lockValue));
    return done(lockValue, hash, dir, "cold", true);
  } finally {
    removeQuietly(staging);
  }

  function done(
    lock: EnvLock,
    hash: string,
    dir: string,
    cache: "warm" | "cold",
    lockWritten: boolean,
  ): BuildResult {
    return {
      lock,
      hash,
      dir,
      cache,
      lockWritten,
      notes: lock.notes,
      durationMs: performance.now() - started,
    };
  }
}

/** Install exact pins into `dir/site` (a cache entry), then mark it ready. */
async function install(
  python: string,
  dir: string,
  pins: string[],
  options: { noDeps: boolean; progress: (line: string) => void },
): Promise<void> {
  Deno.mkdirSync(dirname(dir), { recursive: true });
  const staging = stagingDir(dirname(dir));
  try {
    const site = join(staging, "site");
    Deno.mkdirSync(site);
    if (pins.length > 0) {
      const result = await pipInstall(python, site, pins, {
        progress: options.progress,
        noDeps: options.noDeps,
      });
      if (!result.ok) {
        throw new EnvBuildError(`Cannot install the locked packages: pip: ${result.message}`);
      }
    }
    Deno.writeTextFileSync(join(staging, "ready.json"), JSON.stringify({ pins }) + "\n");
    if (!isReady(dir)) {
      removeQuietly(dir);
      Deno.renameSync(staging, dir);
    }
  } finally {
    removeQuietly(staging);
  }
}

/**
 * Whether the cache entry at `dir` is complete (a Python `site`, an npm `node_modules` or a
 * `DENO_DIR` with its `npm` cache).
 */
export function isReady(dir: string): boolean {
  return existsSync(join(dir, "ready.json")) &&
    ["site", "node_modules", "npm"].some((name) => existsSync(join(dir, name)));
}

/** Proxies and certificates pip reads from the environment (granted by the CLI's planner too). */
export const NETWORK_ENV = [
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "SSL_CERT_FILE",
  "REQUESTS_CA_BUNDLE",
];

/** Environment variables pip gets from this process: its configuration, proxies, certificates. */
const PIP_ENV = [
  "PIP_INDEX_URL",
  "PIP_EXTRA_INDEX_URL",
  "PIP_FIND_LINKS",
  "PIP_CERT",
  "PIP_CONSTRAINT",
  "PIP_RETRIES",
  "PIP_TIMEOUT",
  "PIP_DEFAULT_TIMEOUT",
  "PIP_NO_INDEX",
  "PIP_TRUSTED_HOST",
  "PIP_CONFIG_FILE",
  ...NETWORK_ENV,
  "HOME",
];

async function pipInstall(
  python: string,
  site: string,
  requirements: string[],
  options: { progress: (line: string) => void; noDeps?: boolean },
): Promise<{ ok: true } | { ok: false; message: string }> {
  const env: Record<string, string> = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
    PIP_NO_INPUT: "1",
    PYTHONDONTWRITEBYTECODE: "1",
  };
  for (const name of PIP_ENV) {
    const value = readEnv(name);
    if (value) env[name] = value;
  }
  const args = [
    "-I",
    "-m",
    "pip",
    "install",
    "--target",
    site,
    "--no-compile",
    "--upgrade",
    ...(options.noDeps ? ["--no-deps"] : []),
    "--",
    ...requirements,
  ];
  const child = new Deno.Command(python, {
    args,
    clearEnv: true,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: string[] = [];
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    let buffer = "";
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      const parts = buffer.split("\n");
      buffer = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(line);
        if (/^(Collecting|Installing|Successfully|ERROR)/.test(line)) {
          options.progress(`  pip: ${line}`);
        }
      }
    }
    if (buffer) lines.push(buffer);
  };
  const [status] = await Promise.all([child.status, pump(child.stdout), pump(child.stderr)]);
  if (status.success) return { ok: true };
  const errors = lines.filter((l) => /^ERROR|error:/i.test(l.trim()));
  return { ok: false, message: lastLines((errors.length > 0 ? errors : lines).join("\n")) };
}

/** `name==version` of every distribution installed in `site`, sorted. */
export function installedPins(site: string): string[] {
  const pins: string[] = [];
  for (const entry of safeReadDir(site)) {
    if (!entry.endsWith(".dist-info")) continue;
    const metadata = readText(join(site, entry, "METADATA"));
    const name = /^Name:\s*(.+)$/m.exec(metadata)?.[1]?.trim();
    const version = /^Version:\s*(.+)$/m.exec(metadata)?.[1]?.trim();
    if (name && version) pins.push(`${name}==${version}`);
  }
  return pins.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
}

/** Remove the packages the jail provides from `site`; returns what was removed. */
function removeJailPackages(site: string): string[] {
  const removed: string[] = [];
  for (const entry of safeReadDir(site)) {
    if (!entry.endsWith(".dist-info")) continue;
    const name = entry.replace(/-[^-]+\.dist-info$/, "").toLowerCase().replaceAll("-", "_");
    if (!JAIL_TEST_PACKAGES.includes(name)) continue;
    const record = readText(join(site, entry, "RECORD"));
    const tops = new Set(
      record.split("\n").map((l) => l.split(",")[0].split("/")[0]).filter((p) =>
        p && !p.startsWith("..")
      ),
    );
    for (const top of tops) {
      try {
        Deno.removeSync(join(site, top), { recursive: true });
      } catch { /* already gone */ }
    }
    removed.push(entry.replace(/\.dist-info$/, ""));
  }
  return removed.sort();
}

/** Versions of the test packages the jail's interpreter brings (`JAIL_TEST_PACKAGES`). */
export interface JailTestVersions {
  pytest: string;
  pluggy: string;
}

/**
 * The `pytest11` entry points (plugin modules) installed in `site` that the jail's pytest can load:
 * minus the skipped ones (by their top-level package: `pytest_cov.plugin` is pytest-cov's), and
 * minus those whose declared `pytest` or `pluggy` range excludes the jail's versions (a plugin
 * that fails to register fails every run), each left out with a note.
 */
export function pytestPlugins(site: string, jail: JailTestVersions, notes: string[]): string[] {
  const plugins: string[] = [];
  for (const entry of safeReadDir(site)) {
    if (!entry.endsWith(".dist-info")) continue;
    const text = readText(join(site, entry, "entry_points.txt"));
    const section = /\[pytest11\]\n([\s\S]*?)(?:\n\[|$)/.exec(text)?.[1] ?? "";
    const modules = section.split("\n").map((line) => line.split("=")[1]?.trim().split(":")[0])
      .filter((m): m is string => !!m && !SKIPPED_PLUGINS.includes(m.split(".")[0]));
    if (modules.length === 0) continue;
    const conflict = jailConflict(readText(join(site, entry, "METADATA")), jail);
    if (conflict) {
      notes.push(
        `pytest plugin ${
          entry.replace(/\.dist-info$/, "")
        } not loaded: it needs ${conflict}; tests that use it fail`,
      );
      continue;
    }
    plugins.push(...modules);
  }
  return [...new Set(plugins)].sort();
}

/** The plugin's `Requires-Dist` on pytest or pluggy the jail's version is outside of, or null. */
function jailConflict(metadata: string, jail: JailTestVersions): string | null {
  for (
    const match of metadata.matchAll(
      /^Requires-Dist:\s*(pytest|pluggy)\b\s*\(?([^;)\n]*)\)?\s*(;.*)?$/gim,
    )
  ) {
    if (match[3]?.includes("extra")) continue;
    const name = match[1].toLowerCase() as "pytest" | "pluggy";
    const have = jail[name];
    for (const spec of match[2].split(",").map((s) => s.trim()).filter(Boolean)) {
      const op = /^(>=|<=|==|~=|!=|>|<)\s*([\w.*+!-]+)$/.exec(spec);
      if (!op) continue;
      const order = compareVersions(have, op[2].replace(/\.\*$/, ""));
      const ok = op[1] === ">=" || op[1] === "~="
        ? order >= 0
        : op[1] === ">"
        ? order > 0
        : op[1] === "<"
        ? order < 0
        : op[1] === "<="
        ? order <= 0
        : op[1] === "=="
        ? op[2].endsWith(".*") ? have.startsWith(op[2].slice(0, -1)) : order === 0
        : true;
      if (!ok) return `${name}${spec}, the jail has ${name} ${have}`;
    }
  }
  return null;
}

/** Compare the numeric release parts of two versions (`1.0.0+repack` reads as 1.0.0). */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    (/^[\d.]+/.exec(v)?.[0] ?? "0").split(".").filter(Boolean).map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The pytest and pluggy versions of the jail's interpreter. */
export async function jailTestVersions(python: string): Promise<JailTestVersions> {
  const out = await new Deno.Command(python, {
    args: ["-I", "-c", "import pytest, pluggy; print(pytest.__version__, pluggy.__version__)"],
    clearEnv: true,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
    stdin: "null",
  }).output().catch((error) => {
    throw new EnvBuildError(`Cannot run "${python}": ${String(error)}`);
  });
  const [pytest, pluggy] = new TextDecoder().decode(out.stdout).trim().split(" ");
  if (!out.success || !pytest || !pluggy) {
    throw new EnvBuildError(
      `Cannot build a Python environment: "${python}" has no pytest; install python3-pytest`,
    );
  }
  return { pytest, pluggy };
}

/** Why `option` is dropped from addopts, or null to keep it. */
function droppedOption(option: string): string | null {
  for (const d of DROPPED_OPTIONS) {
    if (
      option === d.prefix || option.startsWith(`${d.prefix}=`) || option.startsWith(`${d.prefix}-`)
    ) {
      return d.why;
    }
    if (d.prefix === "-n" && /^-n\d+$/.test(option)) return d.why;
  }
  if (/^-p(pytest_cov|xdist)/.test(option)) return "plugin not loaded";
  return null;
}

/** `-o addopts=...` without the dropped options, or nothing when nothing is dropped. */
function addoptsOverride(project: PythonProject, notes: string[]): string[] {
  const opts = project.addopts ?? [];
  const kept: string[] = [];
  const dropped: string[] = [];
  for (let i = 0; i < opts.length; i++) {
    const option = opts[i];
    const why = droppedOption(option);
    if (why === null) {
      // `-p pytest_cov` as two words.
      if (option === "-p" && /^(pytest_cov|xdist)/.test(opts[i + 1] ?? "")) {
        dropped.push(`${option} ${opts[++i]}`);
        continue;
      }
      kept.push(option);
      continue;
    }
    const spec = DROPPED_OPTIONS.find((d) => option === d.prefix);
    if (spec?.value && i + 1 < opts.length) {
      dropped.push(`${option} ${opts[++i]}`);
    } else {
      dropped.push(option);
    }
  }
  if (dropped.length === 0) return [];
  notes.push(
    `pytest addopts in ${project.addopts_file}: left out ${
      dropped.map((d) => `"${d}"`).join(", ")
    } (options of plugins patchgym does not load, that fail a run of some tests, or that color the output the model reads)`,
  );
  return ["-o", `addopts=${kept.join(" ")}`];
}

function projectNotes(project: PythonProject): string[] {
  const notes = [...project.notes];
  for (const file of project.missing_generated) {
    notes.push(
      `"${file}" is written by the build backend at install time and is missing; patchgym does not run the build backend: add the file (tasks made by mine/synth get a stub)`,
    );
  }
  if (project.uncompiled_catalogs.length > 0) {
    notes.push(
      `${project.uncompiled_catalogs.length} message catalog(s) (.po) have no compiled .mo beside them (e.g. "${
        project.uncompiled_catalogs[0]
      }"); tests that need translations fail until they are compiled`,
    );
  }
  if (project.source_roots.length > 0) {
    notes.push(
      `on the path: the repository root and ${project.source_roots.map((r) => `${r}/`).join(", ")}`,
    );
  }
  return notes;
}

/** The `python3` the jail runs (first on the children's PATH), by its real path. */
export function jailPython(): string {
  const found = findProgram("python3");
  if (!found) {
    throw new EnvBuildError("Cannot build a Python environment: python3 is not installed");
  }
  return found.path;
}

async function pythonVersion(python: string): Promise<string> {
  const out = await new Deno.Command(python, {
    args: ["-I", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
    clearEnv: true,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
    stdin: "null",
  }).output().catch((error) => {
    throw new EnvBuildError(`Cannot run "${python}": ${String(error)}`);
  });
  if (!out.success) throw new EnvBuildError(`Cannot run "${python}" to learn its version`);
  return new TextDecoder().decode(out.stdout).trim();
}

/** An environment variable, or undefined when unset or not permitted. */
export function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/**
 * A requirement without its version specifier (`simplejson==3.*` -> `simplejson`), extras and
 * environment markers kept; null when it has no specifier or names a URL.
 */
export function unpinned(requirement: string): string | null {
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([^;]*?)\s*(;.*)?$/.exec(
    requirement,
  );
  if (!m || m[3] === "" || m[3].startsWith("@")) return null;
  return `${m[1]}${m[2] ?? ""}${m[4] ? ` ${m[4]}` : ""}`;
}

/** The normalized distribution name of a requirement string (`Foo-Bar>=1` -> `foo_bar`). */
function requirementName(requirement: string): string {
  return (/^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(requirement)?.[1] ?? "").toLowerCase()
    .replace(/[-.]+/g, "_");
}

/**
 * A fresh folder to build in, readable by everyone: the jail's user (an unprivileged uid of its
 * own) reads the environment through a read-only bind, and a temporary folder is private (0700).
 */
export function stagingDir(parent: string): string {
  const dir = Deno.makeTempDirSync({ dir: parent, prefix: ".staging-" });
  Deno.chmodSync(dir, 0o755);
  return dir;
}

/** Remove a folder that may not exist (a staging folder already renamed into place). */
export function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch {
    // Not there.
  }
}

function safeReadDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function lastLines(text: string, n = 6): string {
  return text.trim().split("\n").slice(-n).join(" | ").slice(0, 1500);
}
