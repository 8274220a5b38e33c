/**
 * The compiled launcher (`launcher/patchgym_launch.c`): every sandboxed child starts as it, and it
 * does the cgroup, rlimit, chown, privilege and descriptor set-up in one process before it execs
 * bwrap or an allowlisted program. Built on first use with the machine's C compiler into a cache
 * folder named after the hash of its source, by a process that may already run programs
 * (`launch.ts`, the tests, the bench); the orchestrator then gets `--allow-run=<its path>` instead
 * of `sh`. Without a compiler (or in a compiled binary, whose flags are baked) the shell launcher of
 * `_launch.ts` is the fallback.
 */
import { join } from "node:path";
import { ownId } from "../own_id.ts";
import { findProgram } from "./mounts.ts";
import { ALLOWED_PROGRAMS, CHILD_PATH, RUNNER_PROGRAMS } from "./programs.ts";

/**
 * What the spawner thread (`_spawner.ts`) reads to load its modules: this folder of patchgym's own
 * source and the layer-0 files of `src/` its modules import, `lines.ts`, `bytes.ts` and
 * `threads.ts` (none for a compiled binary, whose modules are embedded). Without it, children
 * start from the caller's thread.
 */
export const SPAWNER_MODULE_READS: string[] = import.meta.url.startsWith("file:")
  ? [".", "../lines.ts", "../bytes.ts", "../threads.ts", "../own_id.ts"].map((path) =>
    decodeURIComponent(new URL(path, import.meta.url).pathname).replace(/\/$/, "")
  )
  : [];

/** The variable through which `launch.ts` names the launcher it built to `main.ts`. */
export const LAUNCHER_PATH_ENV = "PATCHGYM_SANDBOX_LAUNCHER";

/** Where the launcher is, or why there is none. */
export type LauncherBuild = { path: string; reason?: undefined } | { path: null; reason: string };

const SOURCE = new URL("./launcher/patchgym_launch.c", import.meta.url);
const BINARY_NAME = "patchgym_launch";

/**
 * The launcher's full C source: its configuration (the bwrap and deno it may exec, the children's
 * PATH, the closed allowlists of `programs.ts`: run_command's programs and the test runners')
 * before the code of `patchgym_launch.c`.
 */
export function launcherSource(): string {
  const c = (text: string) => JSON.stringify(text);
  const config = [
    `#define BWRAP_PATH ${c(findProgram("bwrap")?.real ?? "")}`,
    `#define DENO_PATH ${c(Deno.build.standalone ? "" : Deno.execPath())}`,
    `#define CHILD_PATH ${c(CHILD_PATH)}`,
    `static const char *const ALLOWED_PROGRAMS[] = {${
      [...ALLOWED_PROGRAMS, ...RUNNER_PROGRAMS].map(c).join(", ")
    }};`,
  ];
  return `${config.join("\n")}\n${Deno.readTextFileSync(SOURCE)}`;
}

/** `$XDG_CACHE_HOME` or `~/.cache` (or `cache`), then `patchgym/<name>`; null when none is named. */
export function cacheFolder(name: string, cache?: string): string | null {
  if (cache) return join(cache, "patchgym", name);
  try {
    const xdg = Deno.env.get("XDG_CACHE_HOME");
    if (xdg?.startsWith("/")) return join(xdg, "patchgym", name);
    const home = Deno.env.get("HOME");
    return home?.startsWith("/") ? join(home, ".cache", "patchgym", name) : null;
  } catch {
    return null;
  }
}

/**
 * The launcher for this machine: found in the cache, else built there (`cc`, `gcc` or `clang`,
 * through a short `sh` script, so the caller needs to run programs but not to write files).
 * `options.cache` names another cache folder (tests: the environment is the process's, shared
 * with every test running beside them).
 */
export async function buildLauncher(options: { cache?: string } = {}): Promise<LauncherBuild> {
  const root = cacheFolder("launcher", options.cache);
  if (!root) return { path: null, reason: "neither XDG_CACHE_HOME nor HOME names a cache folder" };
  let source: string;
  try {
    source = launcherSource();
  } catch (error) {
    return { path: null, reason: `cannot read the launcher's source: ${String(error)}` };
  }
  const bytes = new TextEncoder().encode(source);
  // The build's own script counts: a launcher built another way is another launcher.
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${COMPILE_SCRIPT}\n${source}`)),
  );
  const hash = [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const dir = join(root, hash);
  const path = join(dir, BINARY_NAME);
  if (!trusted(path)) {
    const built = await compile(dir, bytes);
    if (built) return { path: null, reason: built };
    if (!trusted(path)) {
      return { path: null, reason: `"${path}" or its folder is writable by others` };
    }
  }
  return { path };
}

/**
 * How the launcher is built: linked statically where the C library allows it (the launcher is
 * exec'd twice per run, outside the jail and in it, and a static one skips the dynamic loader:
 * 400 against 550 us of CPU per exec here), else dynamically. `$1`: the folder; the source on stdin.
 */
const COMPILE_SCRIPT = `set -e
umask 022
cc=
for c in cc gcc clang; do if command -v "$c" >/dev/null 2>&1; then cc=$c; break; fi; done
[ -n "$cc" ] || { echo "no C compiler (cc, gcc or clang) on PATH" >&2; exit 1; }
mkdir -p "$1"
t="$1/.build.$$"
trap 'rm -f "$t" "$t.c"' EXIT
cat > "$t.c"
"$cc" -std=c11 -O2 -Wall -static -o "$t" -x c "$t.c" 2>/dev/null ||
  "$cc" -std=c11 -O2 -Wall -o "$t" -x c "$t.c"
mv -f "$t" "$1/${BINARY_NAME}"`;

/** Compile `source` into `dir` (made 0755); null on success, else why not. */
async function compile(dir: string, source: Uint8Array): Promise<string | null> {
  try {
    const child = new Deno.Command("sh", {
      args: ["-c", COMPILE_SCRIPT, "sh", dir],
      stdin: "piped",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    // The script stops before reading its source when there is no compiler: say why, below.
    await writer.write(source).catch(() => {});
    await writer.close().catch(() => {});
    const out = await child.output();
    if (out.success) return null;
    const lines = new TextDecoder().decode(out.stderr).trim().split("\n");
    return `cannot build the launcher: ${lines.slice(-3).join("; ") || "the compiler failed"}`;
  } catch (error) {
    return `cannot build the launcher: ${String(error)}`;
  }
}

/**
 * Whether `path` is a launcher no one else can have replaced: a file of this process's user, not
 * writable by group or others, in a folder of that user that is not either (a cache folder under a
 * shared root such as /tmp could otherwise hold another user's program).
 */
function trusted(path: string): boolean {
  try {
    const file = Deno.lstatSync(path);
    const dir = Deno.lstatSync(join(path, ".."));
    if (!file.isFile || !dir.isDirectory || file.uid !== dir.uid) return false;
    if (((file.mode ?? 0o777) & 0o022) !== 0 || ((dir.mode ?? 0o777) & 0o022) !== 0) return false;
    return file.uid === ownId("u");
  } catch {
    return false;
  }
}

/**
 * The launcher this process may use: the one `launch.ts` named in {@linkcode LAUNCHER_PATH_ENV},
 * else (a process that may run any program: tests, the bench) one built now.
 */
export async function findLauncher(): Promise<LauncherBuild> {
  const named = namedLauncher();
  if (named) return { path: named };
  if (Deno.permissions.querySync({ name: "run" }).state === "granted") return await buildLauncher();
  return {
    path: null,
    reason: Deno.build.standalone
      ? "a compiled binary's permission flags are baked and name sh"
      : `${LAUNCHER_PATH_ENV} is not set (launch.ts found no C compiler, or patchgym was not started by it)`,
  };
}

/** The launcher `launch.ts` named in {@linkcode LAUNCHER_PATH_ENV}, or null. */
function namedLauncher(): string | null {
  try {
    return Deno.env.get(LAUNCHER_PATH_ENV) || null;
  } catch {
    return null;
  }
}

/**
 * How to detach every file system mounted under a folder (an exiting or dead run's workspaces, see
 * `claimRoot`) through `launcher` (default: the one `launch.ts` named); undefined without one (then
 * `claimRoot` does it through `sh`). The launcher first closes the folder to mounts, once those in
 * flight below it have landed, so a mount request its helper still runs lands nowhere after this.
 */
export function launcherUnmount(
  launcher: string | null = namedLauncher(),
): ((dir: string) => void) | undefined {
  if (!launcher) return undefined;
  return (dir) => {
    try {
      new Deno.Command(launcher, {
        args: ["umount-under", dir],
        cwd: "/",
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).outputSync();
    } catch {
      // Not runnable here: nothing was mounted through it either.
    }
  };
}
