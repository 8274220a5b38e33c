/**
 * The allowlisted programs as one prepared folder per destination (usually just `/usr/bin`), so the
 * jail binds one folder instead of one file per program: every bind costs bwrap a re-read of the
 * whole mount table, and 18 file binds were about a third of a jail's mounts. The folder holds
 * exactly the allowlisted programs found on the children's PATH, each under its in-jail path
 * (`<folder>/usr/bin/python3` is shown at `/usr/bin/python3`): a hard link to the host's file where
 * the file system and `fs.protected_hardlinks` allow it, else a copy. A program too large to copy
 * (`node`) that cannot be linked is an empty placeholder there, and the jail binds the host's file
 * over it.
 *
 * It is built once, like the compiled launcher, into a cache folder named after the hash of what it
 * holds (each program's in-jail path, real path, device, inode, size and modification time): a host
 * program that changes gives another name, so a stale folder is never the one looked for. Before
 * use, every folder and file is checked (see {@linkcode checkProgramFolder}): owned by this
 * process's user and writable by no one else (a hard link is the host's own file instead), and
 * holding exactly the programs its manifest lists. Anything else is refused and the jail binds each
 * program on its own, as before.
 */
import { basename, dirname, join } from "node:path";
import { cacheFolder } from "./launcher.ts";
import { ownId } from "../own_id.ts";
import { findProgram } from "./mounts.ts";
import { ALLOWED_PROGRAMS, RUNNER_PROGRAMS } from "./programs.ts";
import { entryExists } from "../workspace/remove.ts";
import { openFolder } from "../workspace/root.ts";

/** The variable through which `launch.ts` names the folder it built to `main.ts`. */
export const PROGRAMS_PATH_ENV = "PATCHGYM_SANDBOX_PROGRAMS";

/** Bumped when the folder's layout changes, so an old layout is never taken for a new one. */
const FORMAT = "patchgym-programs/1";
/** A program larger than this is never copied: linked, or bound on its own over a placeholder. */
const MAX_COPY_BYTES = 32 * 1024 ** 2;
const MANIFEST = "manifest.json";

/** One file of the folder: an allowlisted program, or a placeholder for a file bound over it. */
export interface ProgramEntry {
  /** In-jail path, e.g. `/usr/bin/python3`. */
  path: string;
  /** Host file it holds (its real path), or null for an empty placeholder. */
  real: string | null;
  /** The host file's identity when the folder was planned (null for a placeholder). */
  dev: number | null;
  ino: number | null;
  size: number | null;
  mtime: number | null;
  /** Whether it may be copied (small enough); otherwise linked, or an empty placeholder. */
  copy: boolean;
}

/** A checked folder, ready to bind. */
export interface ProgramFolder {
  /** The folder (`<cache>/patchgym/programs/<hash>`). */
  folder: string;
  /** Destination folders, each bound from `folder + dest`, e.g. `["/usr/bin"]`. */
  dests: string[];
  /** In-jail paths held in the folder, sorted. */
  paths: string[];
  /**
   * Programs the folder holds as empty placeholders (too large to copy, not linkable): the jail
   * binds each host file over its placeholder.
   */
  own: { path: string; real: string }[];
}

/** Where the folder is, or why there is none. */
export type ProgramFolderFind = { folder: ProgramFolder; reason?: undefined } | {
  folder: null;
  reason: string;
};

/**
 * What the folder should hold on this machine now: each allowlisted program (but `deno`, whose
 * executable the sandbox binds for deno runs only) as found on the children's PATH, and an empty
 * placeholder where `extraFiles` (the deno executable) would be bound inside one of the folders.
 */
export function programEntries(extraFiles: string[] = []): ProgramEntry[] {
  const found = [...ALLOWED_PROGRAMS, ...RUNNER_PROGRAMS]
    .filter((p) => p !== "deno")
    .flatMap((name) => findProgram(name) ?? []);
  const entries = found.map(({ path, real }) => programEntry(path, real));
  const dests = new Set(entries.map((e) => dirname(e.path)));
  for (const file of extraFiles) {
    if (dests.has(dirname(file)) && !entries.some((e) => e.path === file)) {
      entries.push(placeholder(file));
    }
  }
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The entry of the host program `real` (its real path) shown at `path` in the jail. */
export function programEntry(path: string, real: string): ProgramEntry {
  const stat = Deno.statSync(real);
  return {
    path,
    real,
    dev: stat.dev,
    ino: stat.ino,
    size: stat.size,
    mtime: stat.mtime?.getTime() ?? null,
    copy: stat.size <= MAX_COPY_BYTES,
  };
}

/** An empty file at `path`, for a file bound over it. */
export function placeholder(path: string): ProgramEntry {
  return { path, real: null, dev: null, ino: null, size: null, mtime: null, copy: false };
}

/** The manifest's text: the format and the entries; the folder's name is its hash. */
function manifestText(entries: ProgramEntry[]): string {
  return JSON.stringify({ format: FORMAT, entries }, null, 1) + "\n";
}

async function folderName(manifest: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(manifest));
  return [...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/**
 * Why `folder` may not be bound for `entries`, or null when it may: the folder above it (the cache
 * root, whose owner could rename it), it and every folder in it are this user's and writable by no
 * one else, it holds exactly its manifest and the entries' files and nothing else, the manifest is
 * the one `entries` give now (so the host's programs are still the ones it was built from), and each
 * program is either the host's own file (a hard link: same device and inode) or a copy this user
 * owns, writable by no one else, of the host file's size; each placeholder is an empty file of this
 * user's. On success, which programs are placeholders to bind over.
 */
export function checkProgramFolder(
  folder: string,
  entries: ProgramEntry[],
  uid: number,
): { problem: string; own?: undefined } | { problem: null; own: ProgramEntry[] } {
  const mine = (path: string, info: Deno.FileInfo) => {
    if (info.uid !== uid) return `"${path}" belongs to uid ${info.uid}, not ${uid}`;
    if (((info.mode ?? 0o777) & 0o022) !== 0) return `"${path}" is writable by others`;
    return null;
  };
  const own: ProgramEntry[] = [];
  try {
    if (Deno.realPathSync(folder) !== folder) {
      return { problem: `"${folder}" leads through a symlink` };
    }
    for (const dir of [dirname(folder), folder]) {
      const info = Deno.lstatSync(dir);
      if (!info.isDirectory) return { problem: `"${dir}" is not a folder` };
      const problem = mine(dir, info);
      if (problem) return { problem };
    }
    const expected = new Set([MANIFEST, ...entries.map((e) => e.path.slice(1))]);
    const seen = new Set<string>();
    const walk = (rel: string): string | null => {
      for (const item of Deno.readDirSync(join(folder, rel))) {
        const path = rel ? `${rel}/${item.name}` : item.name;
        const full = join(folder, path);
        const info = Deno.lstatSync(full);
        if (info.isDirectory) {
          const problem = mine(full, info) ?? walk(path);
          if (problem) return problem;
          continue;
        }
        if (!expected.has(path)) return `"${full}" is not one of the allowlisted programs`;
        if (!info.isFile) return `"${full}" is not a plain file`;
        seen.add(path);
      }
      return null;
    };
    const extra = walk("");
    if (extra) return { problem: extra };
    const missing = [...expected].find((p) => !seen.has(p));
    if (missing) return { problem: `"${join(folder, missing)}" is missing` };
    const manifest = join(folder, MANIFEST);
    const problem = mine(manifest, Deno.lstatSync(manifest));
    if (problem) return { problem };
    if (Deno.readTextFileSync(manifest) !== manifestText(entries)) {
      return { problem: `"${manifest}" does not list the programs found on this machine now` };
    }
    for (const entry of entries) {
      const full = folder + entry.path;
      const info = Deno.lstatSync(full);
      const linked = entry.real !== null && info.dev === entry.dev && info.ino === entry.ino;
      if (linked) {
        // The host's own file, as trusted as the host's program (root's or this user's).
        if ((info.uid !== 0 && info.uid !== uid) || ((info.mode ?? 0o777) & 0o022) !== 0) {
          return { problem: `"${full}" may be changed by uid ${info.uid} or others` };
        }
        continue;
      }
      const problem = mine(full, info);
      if (problem) return { problem };
      if (info.size === 0 && entry.size !== 0 && !entry.copy) {
        own.push(entry);
        continue;
      }
      if (entry.real === null ? info.size !== 0 : !entry.copy || info.size !== entry.size) {
        return { problem: `"${full}" is not a copy of "${entry.real ?? "nothing"}"` };
      }
    }
  } catch (error) {
    return { problem: `cannot read "${folder}": ${String(error)}` };
  }
  return { problem: null, own };
}

/**
 * The folder for `entries`: found in the cache, else built there (through `sh`, like the launcher,
 * so the caller needs to run programs but not to write files), then checked. A folder found
 * untrusted is removed and built again. `options.cache` names another cache root (tests);
 * `options.uid` the user it must belong to (default: this process's).
 */
export async function buildProgramFolder(
  entries: ProgramEntry[],
  options: { cache?: string; uid?: number } = {},
): Promise<ProgramFolderFind> {
  const named = cacheFolder("programs", options.cache);
  const root = named && realFolder(named);
  if (!root) {
    return { folder: null, reason: "neither XDG_CACHE_HOME nor HOME names a cache folder" };
  }
  const uid = options.uid ?? ownId("u");
  if (uid === null) return { folder: null, reason: "cannot tell which user this process runs as" };
  const manifest = manifestText(entries);
  const folder = join(root, await folderName(manifest));
  // The folders above the cache root (main.ts may not read them; this process may): another user
  // who may rename one of them could put a tree of their own in the folder's place.
  const above = openAbove(root, uid);
  if (above) return { folder: null, reason: above };
  let check = checkProgramFolder(folder, entries, uid);
  if (check.problem !== null) {
    const built = await build(folder, manifest, entries);
    if (built) return { folder: null, reason: built };
    check = checkProgramFolder(folder, entries, uid);
    if (check.problem !== null) return { folder: null, reason: check.problem };
  }
  return { folder: prepared(folder, entries, check.own) };
}

/**
 * Check the folder `folder` (named by `launch.ts`) for `entries`; the folder to bind or why not.
 */
export function useProgramFolder(
  folder: string,
  entries: ProgramEntry[],
  uid: number,
): ProgramFolderFind {
  const check = checkProgramFolder(folder, entries, uid);
  if (check.problem !== null) return { folder: null, reason: check.problem };
  return { folder: prepared(folder, entries, check.own) };
}

/** `path` with its existing part resolved to its real path (the rest is made by the build). */
function realFolder(path: string): string {
  const missing: string[] = [];
  for (let dir = path; dir !== "/"; dir = dirname(dir)) {
    try {
      return join(Deno.realPathSync(dir), ...missing);
    } catch {
      missing.unshift(basename(dir));
    }
  }
  return path;
}

/**
 * Why a folder above `path` lets a user other than `uid` or root rename what is in it (it is theirs,
 * or writable by group or others without the sticky bit), or null. Folders not made yet are
 * skipped: the build makes them with mode 0755.
 */
function openAbove(path: string, uid: number): string | null {
  for (let dir = dirname(path);; dir = dirname(dir)) {
    let info: Deno.FileInfo | null = null;
    try {
      info = Deno.lstatSync(dir);
    } catch {
      // Not made yet.
    }
    if (info) {
      if (!info.isDirectory) return `"${dir}" above the programs folder is not a folder`;
      // No group of the user's own is trusted here (no gid given).
      const open = openFolder(info, { uid });
      if (open && "owner" in open) {
        return `"${dir}" above the programs folder belongs to uid ${open.owner}`;
      }
      if (open) return `"${dir}" above the programs folder is writable by others`;
    }
    if (dir === "/") return null;
  }
}

function prepared(folder: string, entries: ProgramEntry[], own: ProgramEntry[]): ProgramFolder {
  return {
    folder,
    dests: [...new Set(entries.map((e) => dirname(e.path)))].sort(),
    paths: entries.map((e) => e.path),
    own: own.map((e) => ({ path: e.path, real: e.real! })),
  };
}

/**
 * Make `folder` in a temporary folder beside it, then rename it into place (a folder that is there
 * but failed its check is removed first). Null on success, else why not.
 */
async function build(
  folder: string,
  manifest: string,
  entries: ProgramEntry[],
): Promise<string | null> {
  const script = `set -e
umask 022
final=$1
replace=$2
shift 2
root=\${final%/*}
mkdir -p "$root"
chmod 0755 "$root"
tmp=$(mktemp -d "$root/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/${MANIFEST}"
while [ $# -ge 3 ]; do
  dest="$tmp$3"
  mkdir -p "\${dest%/*}"
  case $1 in
    copy) ln "$2" "$dest" 2>/dev/null || cp "$2" "$dest" ;;
    link) ln "$2" "$dest" 2>/dev/null || : > "$dest" ;;
    empty) : > "$dest" ;;
  esac
  shift 3
done
chmod 0755 "$tmp"
if [ "$replace" = 1 ]; then rm -rf "$final"; fi
# Another process may have built the same folder meanwhile: then its folder is checked.
mv -T "$tmp" "$final" 2>/dev/null || [ -d "$final" ]`;
  const args = entries.flatMap((e) => [
    e.real === null ? "empty" : e.copy ? "copy" : "link",
    e.real ?? "",
    e.path,
  ]);
  try {
    const child = new Deno.Command("sh", {
      args: ["-c", script, "sh", folder, entryExists(folder) ? "1" : "0", ...args],
      stdin: "piped",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(manifest)).catch(() => {});
    await writer.close().catch(() => {});
    const out = await child.output();
    if (out.success) return null;
    const lines = new TextDecoder().decode(out.stderr).trim().split("\n");
    return `cannot build the programs folder: ${lines.slice(-3).join("; ") || "sh failed"}`;
  } catch (error) {
    return `cannot build the programs folder: ${String(error)}`;
  }
}

/**
 * The programs folder this process (running as `uid`) may use for `entries`: the one `launch.ts`
 * named in {@linkcode PROGRAMS_PATH_ENV} (checked here), else (a process that may run any program:
 * tests, the bench) one built now.
 */
export async function findProgramFolder(
  entries: ProgramEntry[],
  uid: number | null,
): Promise<ProgramFolderFind> {
  if (uid === null) return { folder: null, reason: "cannot tell which user this process runs as" };
  let named: string | null = null;
  try {
    named = Deno.env.get(PROGRAMS_PATH_ENV) || null;
  } catch {
    // Not readable: not named.
  }
  if (named) return useProgramFolder(named, entries, uid);
  if (Deno.permissions.querySync({ name: "run" }).state === "granted") {
    return await buildProgramFolder(entries, { uid });
  }
  return {
    folder: null,
    reason: `${PROGRAMS_PATH_ENV} is not set (patchgym was not started by launch.ts)`,
  };
}
