/**
 * A workspace root owned by one process. Several patchgym processes (and test runs) share a parent
 * root such as /tmp/patchgym, so each process works in its own folder `proc-<pid>-<token>/` under
 * it, marked by an `.owner` file the process holds an exclusive lock on for as long as it lives.
 * The kernel drops the lock when the process dies, however it dies, so at start-up a folder whose
 * mark can be locked belongs to a dead process and is removed; a live process's folder (still
 * locked) and folders without the mark (not patchgym's, or kept on purpose) are never touched.
 * On exit (including `Deno.exit` from a signal listener, an uncaught error and an unhandled
 * rejection) the folder is removed with everything in it: in-flight workspaces, scoring copies and
 * test report folders.
 */
import { dirname, join, resolve } from "node:path";
import { RunError } from "../errors.ts";
import { ownId } from "../own_id.ts";
import { removeTreeSync } from "./remove.ts";

/** Format of the `.owner` file. */
export const OWNER_FORMAT = "patchgym.owner.v1";

const OWNER_FILE = ".owner";
const FOLDER = /^proc-\d+-[0-9a-f]{8,}$/;

/** A process's own folder under a shared root. */
export interface OwnedRoot {
  /** Absolute path of the folder. */
  dir: string;
  /** The shared root it is in. */
  parent: string;
  /** Folders of dead processes removed when it was claimed. */
  swept: string[];
  /** Remove the folder and everything in it now (also done at exit). Safe to call twice. */
  release(): void;
}

interface Claim {
  dir: string;
  lock: Deno.FsFile;
  unmount: (dir: string) => void;
}

/** How {@linkcode claimRoot} detaches leftover mounts. */
export interface ClaimOptions {
  /**
   * Detach every file system mounted under a folder (default: through `sh`; the orchestrator
   * passes the compiled sandbox launcher's, since it may not run `sh`).
   */
  unmount?: (dir: string) => void;
}

const claims = new Set<Claim>();
let exitHookInstalled = false;

/**
 * Make this process's folder under `parent` (created if missing), after removing the folders of
 * dead processes there. The folder is removed at exit; see {@linkcode exitOnSignal} for signals.
 */
export function claimRoot(parent: string, options: ClaimOptions = {}): OwnedRoot {
  const unmount = options.unmount ?? unmountUnder;
  // Who this process is, from the process itself (a folder in the root could be swapped for one
  // of another user's before it was looked at), and the root checked before anything is made in
  // it: after the root is made, once more, since another user could have made it in between.
  const uid = ownId("u");
  const gid = ownId("g") ?? undefined;
  const check = () => {
    const unsafe = uid === null ? null : unsafeRoot(resolve(parent), { uid, gid });
    if (unsafe) throw new RunError(unsafeRootMessage(parent, unsafe));
  };
  check();
  try {
    // 0755 whatever the umask: a root made here is writable by its owner only.
    Deno.mkdirSync(parent, { recursive: true, mode: 0o755 });
  } catch (error) {
    throw new RunError(`Cannot make the workspace root ${parent}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  check();
  // Resolved once: the sweep, the folder and `--keep-workspaces` all use this path.
  const real = Deno.realPathSync(parent);
  const token = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
  const dir = join(real, `proc-${Deno.pid}-${token}`);
  try {
    Deno.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    throw new RunError(
      `Cannot make this process's folder in ${parent}: ${(error as Error).message} (${
        ownerOf(real)
      }); pass --work-dir DIR, a folder of your own`,
      { cause: error },
    );
  }
  const swept = sweepDeadRoots(real, uid ?? undefined, unmount);
  const lock = Deno.openSync(join(dir, OWNER_FILE), { read: true, write: true, createNew: true });
  // Blocking: a sweeper may hold the lock for a moment while it reads the (still empty) mark.
  lock.lockSync(true);
  const mark = { format: OWNER_FORMAT, pid: Deno.pid, token, started_at: new Date().toISOString() };
  lock.writeSync(new TextEncoder().encode(`${JSON.stringify(mark)}\n`));
  const claim = { dir, lock, unmount };
  claims.add(claim);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    const releaseAll = () => {
      for (const c of claims) releaseClaim(c);
    };
    globalThis.addEventListener("unload", releaseAll);
    // An uncaught error or an unhandled rejection ends the process without "unload". A listener
    // added before this one may keep the process alive (preventDefault): then nothing is released.
    const onFatal = (event: Event) => {
      if (!event.defaultPrevented) releaseAll();
    };
    globalThis.addEventListener("error", onFatal);
    globalThis.addEventListener("unhandledrejection", onFatal);
  }
  return { dir, parent: real, swept, release: () => releaseClaim(claim) };
}

/**
 * Remove the folders under `parent` whose owner has died: those with an `.owner` mark of
 * {@linkcode OWNER_FORMAT} that no process holds locked, and that belong to `uid` (this process's
 * user; every one when undefined). Returns their paths.
 */
export function sweepDeadRoots(
  parent: string,
  uid: number | undefined,
  unmount: (dir: string) => void = unmountUnder,
): string[] {
  const removed: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(parent)];
  } catch {
    return removed;
  }
  for (const entry of entries) {
    if (!entry.isDirectory || !FOLDER.test(entry.name)) continue;
    const dir = join(parent, entry.name);
    // Another user's folder is that user's to remove: its tree may change while it is walked.
    if (uid !== undefined && ownerUid(dir) !== uid) continue;
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(join(dir, OWNER_FILE), { read: true });
    } catch {
      continue; // No mark: not ours to remove, or being created.
    }
    try {
      if (!file.tryLockSync(true)) continue; // Its owner is alive.
      if (!isMark(readAll(file))) continue; // Empty: its owner is between creating and writing it.
      unmount(dir);
      removeQuietly(dir);
      removed.push(dir);
    } finally {
      file.close();
    }
  }
  return removed;
}

/** Why a process will not work in `path`, for people: `unsafe` from {@linkcode unsafeRoot}. */
export function unsafeRootMessage(path: string, unsafe: string): string {
  return `Will not work in ${path}: ${unsafe}, so another user could move this process's folder and put a link in its place; pass --work-dir DIR, a folder of your own`;
}

/** Who this process is, for {@linkcode unsafeRoot}: its uid, and its group where known. */
export interface RootUser {
  uid: number;
  /**
   * A folder writable by this group is still safe (a user's own group, umask 002), unless the user
   * is root. An ACL that lets another user write a folder of this group is not seen.
   */
  gid?: number;
}

/**
 * Why `path` (absolute) is not safe to work in for `user`, or null: every folder on it, from `/`,
 * must be root's or the user's and writable by no one else (the user's own group aside) unless
 * sticky, as /tmp is, where no one but an entry's owner (or the folder's) may move it; every link
 * on it must be root's or the user's, and is followed one step at a time, each step checked the
 * same way. Only the last part may be missing (this process makes it, as its own): a missing
 * folder above it could be made by anyone in between. A folder Deno's permission flags do not let
 * this process look at is passed over (the orchestrator may read its work root, not /tmp):
 * `launch.ts`, which may read everything, checks the whole path before it starts the
 * orchestrator.
 */
export function unsafeRoot(path: string, user: RootUser): string | null {
  const parts = (p: string) => p.split("/").filter((part) => part !== "" && part !== ".");
  const pending = parts(path);
  let at = "/";
  let links = 0;
  for (let next = "/"; next !== "";) {
    let info: Deno.FileInfo | null = null;
    try {
      info = Deno.lstatSync(next);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        return pending.length === 0 ? null : `${next} does not exist: make it first`;
      }
      // Not a folder on the way, or one this user may not search: nothing to work in.
      if (!(error instanceof Deno.errors.NotCapable)) return `${next}: ${(error as Error).message}`;
    }
    if (info?.isSymlink) {
      const owner = info.uid ?? 0;
      if (owner !== 0 && owner !== user.uid) return `${next} is a link of uid ${owner}`;
      const target = readLinkIfAllowed(next);
      if (target !== null) {
        if (++links > 40) return `${path} goes through too many links`;
        pending.unshift(...parts(target));
        at = target.startsWith("/") ? "/" : at;
      } else {
        at = next;
      }
    } else if (info) {
      if (!info.isDirectory) return `${next} is not a folder`;
      const open = openFolder(info, user);
      if (open && "owner" in open) return `${next} belongs to uid ${open.owner}`;
      if (open) {
        return `${next} may be written by others (mode ${open.mode.toString(8)}) and is not sticky`;
      }
      at = next;
    } else {
      at = next;
    }
    const part = pending.shift();
    next = part === undefined ? "" : part === ".." ? dirname(at) : join(at, part);
    if (part === "..") at = dirname(at);
  }
  return null;
}

/**
 * Whether a user other than `user` (or root) could rename what is in folder `info` (its lstat):
 * it is another user's (`owner`), or writable by others without the sticky bit (`mode`); null when
 * neither. A group of the user's own (`user.gid`, umask 002) may write, never for root: root's
 * group is no one's own, and the group bits may be an ACL's mask over another user's write.
 */
export function openFolder(
  info: Deno.FileInfo,
  user: RootUser,
): { owner: number } | { mode: number } | null {
  // Unknown owner and mode (not on Unix): as open as can be.
  const owner = info.uid ?? -1;
  if (owner !== 0 && owner !== user.uid) return { owner };
  const mode = (info.mode ?? 0o777) & 0o7777;
  const ownGroup = user.uid !== 0 && user.gid !== undefined && info.gid === user.gid;
  const others = (mode & 0o002) !== 0 || ((mode & 0o020) !== 0 && !ownGroup);
  return others && (mode & 0o1000) === 0 ? { mode } : null;
}

/** Where link `path` leads, or null where this process's flags do not let it read the link. */
function readLinkIfAllowed(path: string): string | null {
  try {
    return Deno.readLinkSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return null;
    throw error;
  }
}

/** Whose `dir` is and its mode, for messages. */
function ownerOf(dir: string): string {
  try {
    const info = Deno.lstatSync(dir);
    return `it belongs to uid ${info.uid}, mode ${((info.mode ?? 0) & 0o7777).toString(8)}`;
  } catch (error) {
    return (error as Error).message;
  }
}

function ownerUid(path: string): number | null {
  try {
    return Deno.lstatSync(path).uid;
  } catch {
    return null;
  }
}

/**
 * On `signal`, exit with the shell's code for it (128 + number), which removes the folders
 * claimed with {@linkcode claimRoot}. Installed once per signal.
 */
export function exitOnSignal(signal: "SIGINT" | "SIGTERM" | "SIGHUP"): void {
  if (installedSignals.has(signal)) return;
  installedSignals.add(signal);
  Deno.addSignalListener(signal, () => Deno.exit(128 + SIGNAL_NUMBERS[signal]));
}

const installedSignals = new Set<string>();
const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

function releaseClaim(claim: Claim): void {
  if (!claims.delete(claim)) return;
  claim.unmount(claim.dir);
  // The mark goes last: a folder left half-removed must still read as a dead process's.
  for (const entry of safeReadDir(claim.dir)) {
    if (entry.name !== OWNER_FILE) removeQuietly(join(claim.dir, entry.name));
  }
  // Something still there (being written, or a workspace mounted just now): keep the mark, so the
  // next start-up sweeps what is left.
  if (safeReadDir(claim.dir).every((entry) => entry.name === OWNER_FILE)) {
    try {
      Deno.removeSync(join(claim.dir, OWNER_FILE));
      Deno.removeSync(claim.dir);
    } catch {
      // Removed meanwhile by another sweeper.
    }
  }
  claim.lock.close();
}

function safeReadDir(dir: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(dir)];
  } catch {
    return [];
  }
}

/** {@linkcode removeTreeSync}, where a failure is someone else's concurrent removal. */
function removeQuietly(path: string): void {
  try {
    removeTreeSync(path);
  } catch {
    // Removed concurrently by another sweeper, or busy: nothing to do.
  }
}

function readAll(file: Deno.FsFile): string {
  const buffer = new Uint8Array(4096);
  const n = file.readSync(buffer) ?? 0;
  return new TextDecoder().decode(buffer.subarray(0, n));
}

function isMark(text: string): boolean {
  try {
    return JSON.parse(text).format === OWNER_FORMAT;
  } catch {
    return false;
  }
}

/**
 * Detach every file system mounted under `dir` (as root, workspaces are capped tmpfs mounts of
 * their own; see `WorkspaceMount`), so the folder can be removed. Through `sh`: Deno reads
 * /proc/self only with --allow-all. Does nothing when nothing is mounted there.
 */
function unmountUnder(dir: string): void {
  try {
    new Deno.Command("sh", {
      args: [
        "-c",
        'while read -r _ _ _ _ mp _; do case $mp in "$1"/*) umount -l "$mp" 2>/dev/null ;; esac; done < /proc/self/mountinfo; true',
        "sh",
        dir,
      ],
      cwd: "/",
      clearEnv: true,
      env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).outputSync();
  } catch {
    // No shell here: nothing was mounted by us either.
  }
}
