/**
 * Removing a folder the agent's code wrote, whatever its depth. `Deno.remove(dir, { recursive })`
 * walks the tree by recursion on a thread's fixed stack: a tree 20,000 folders deep (one
 * `run_command` makes it in a second) overflowed it and aborted the whole patchgym process, every
 * episode in it. So a folder found deeper than {@linkcode MAX_DEPTH} levels or
 * {@linkcode MAX_PATH_BYTES} bytes below `dir` is first moved up to `dir` itself (a rename of the
 * folder, never of what a symlink leads to), until no chain is long, then the shallow tree goes in
 * one call.
 */
import { join } from "node:path";

/** Folders deeper than this below the root are moved up before the removal. */
const MAX_DEPTH = 256;
/** Paths longer than this are moved up too (a name may add 255 bytes, PATH_MAX is 4096). */
const MAX_PATH_BYTES = 2048;

/**
 * How a tree that Deno cannot walk is removed: by GNU rm, which walks by folder handles at any
 * depth and names entries by their bytes; a sandbox sets its launcher's `rmtree` mode instead (see
 * {@linkcode removeByBytesWith}), the one program a compiled launcher's permissions let the
 * orchestrator start.
 */
let remover: { argv: (dir: string) => string[]; env: Record<string, string> } = {
  // Owner access back first (without root a folder closed with chmod 0 stops rm).
  argv: (dir) => ["sh", "-c", 'chmod -R u+rwx -- "$1" 2>/dev/null; exec rm -rf -- "$1"', "sh", dir],
  env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
};

/**
 * Remove what Deno cannot with `argv(dir)`: a folder whose name is not UTF-8 comes back changed
 * from a listing and cannot be moved up or walked by that name, so a chain below it (20,000
 * folders from one command) would reach Deno's recursive removal, which overflows its thread's
 * stack and aborts the process.
 */
export function removeByBytesWith(
  argv: (dir: string) => string[],
  env: Record<string, string>,
): void {
  remover = { argv, env };
}

/** The removal of `dir` by bytes, as a command. */
function removerCommand(dir: string): Deno.Command {
  const [program, ...args] = remover.argv(dir);
  return new Deno.Command(program, {
    args,
    cwd: "/",
    clearEnv: true,
    env: remover.env,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  });
}

/** Run the remover on `dir` (see {@linkcode removeByBytesWith}); true when `dir` is gone. */
async function removeByBytes(dir: string): Promise<boolean> {
  await removerCommand(dir).output().catch(() => null);
  return await Deno.lstat(dir).then(() => false, () => true);
}

function removeByBytesSync(dir: string): boolean {
  try {
    removerCommand(dir).outputSync();
  } catch {
    return false;
  }
  return !entryExists(dir);
}

/** Remove `dir` and everything in it, at any depth; a missing `dir` is fine. */
export async function removeTree(dir: string): Promise<void> {
  // Most folders removed here are empty by now (a workspace's own file system was just
  // unmounted): one call instead of a look, a listing and the removal. A folder with anything in
  // it refuses, and is walked below.
  try {
    await Deno.remove(dir);
    return;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
  }
  let reopened = false;
  await reopenedOnDenial(dir, async () => {
    const root = await Deno.lstat(dir).catch(() => null);
    if (!root) return;
    // A name Deno cannot follow may hide a chain of any depth: never the recursive removal then.
    if (root.isDirectory && !await flatten(dir) && await removeByBytes(dir)) return;
    // Moving long chains up brings what lay past PATH_MAX within reach of the reopening.
    if (reopened) await reopenTree(dir);
    reopened = true;
    await Deno.remove(dir, { recursive: true }).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  });
}

/**
 * `work` over the tree at `dir`, and when it meets a `PermissionDenied`, once more after
 * {@linkcode reopenTree}: for what the orchestrator reads or removes of a tree the sandbox's code
 * wrote (the final diff, the removal). Nothing is walked while nothing is denied.
 */
export async function reopenedOnDenial<T>(dir: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof Deno.errors.PermissionDenied)) throw error;
    await reopenTree(dir);
    return await work();
  }
}

/**
 * Gives the owner back its access to everything under `dir` it owns: folders `rwx`, files `rw`
 * (other bits kept); links are never followed, and what this user may not change is left as it
 * is. Without root the sandbox's code runs as the orchestrator's own user and can close up what
 * it wrote (`chmod 0 .`, `chmod 0 file`) so that the final diff or the removal fails, which would
 * end its episode ungraded instead of with the reward its change earns.
 */
export async function reopenTree(dir: string): Promise<void> {
  const stack = [dir];
  while (stack.length > 0) {
    const path = stack.pop()!;
    const info = await Deno.lstat(path).catch(() => null);
    if (!info || info.isSymlink) continue;
    const needed = info.isDirectory ? 0o700 : 0o600;
    const mode = info.mode ?? needed;
    if ((mode & needed) !== needed) {
      // Not this user's (root's, another user's): left alone.
      if (!await Deno.chmod(path, (mode & 0o7777) | needed).then(() => true, () => false)) continue;
    }
    if (!info.isDirectory) continue;
    try {
      for await (const entry of Deno.readDir(path)) {
        // A name Deno gave back changed is not walked: it would name another entry (a real
        // U+FFFD folder beside it, walked twice at every level: 2^depth listings), and the
        // removal hands such a tree to rm.
        if (!entry.isSymlink && !changedName(entry.name)) stack.push(join(path, entry.name));
      }
    } catch {
      // Gone meanwhile, or a path too long to name: the work that follows reports it.
    }
  }
}

/**
 * Remove `dir` at once when it is a small folder of at most `most` entries, none a folder, that
 * hold at most a mebibyte: for a folder in a memory-backed file system (a Python test run's report
 * folder in its workspace's own tmpfs), where each call takes microseconds and never waits for a
 * disk, so a hand-off to Deno's blocking pool would cost more than the work. True when `dir` is
 * gone; false when it is left for {@linkcode removeTree} (a bigger folder, a folder inside, more
 * than a mebibyte in its files, a link in its place, a refusal), with what could not be removed
 * here still in it. The checks come before any listing or removal, so what code under test left
 * there never holds this thread long.
 */
export function removeFlatSync(dir: string, most: number): boolean {
  try {
    const folder = Deno.lstatSync(dir);
    // A folder's link count is 2 plus its subfolders; its size grows with its entries on tmpfs
    // (20 bytes each) and stays one block on ext4 until it holds about a hundred.
    if (!folder.isDirectory || folder.nlink !== 2 || folder.size > FLAT_FOLDER_BYTES) return false;
    const names = [];
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.isDirectory || changedName(entry.name) || names.length === most) return false;
      names.push(entry.name);
    }
    let bytes = 0;
    for (const name of names) {
      bytes += Deno.lstatSync(join(dir, name)).size;
      if (bytes > FLAT_BYTES) return false;
    }
    for (const name of names) Deno.removeSync(join(dir, name));
    Deno.removeSync(dir);
    return true;
  } catch (error) {
    return error instanceof Deno.errors.NotFound && !entryExists(dir);
  }
}

/** The largest folder (its own size) {@linkcode removeFlatSync} lists. */
const FLAT_FOLDER_BYTES = 4096;
/** The most bytes {@linkcode removeFlatSync} frees (freeing big files takes milliseconds). */
const FLAT_BYTES = 1024 * 1024;

/** Whether `path` exists (a link counts, whatever it leads to). */
export function entryExists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** {@linkcode removeTree}, synchronous (for exit handlers). */
export function removeTreeSync(dir: string): void {
  let root: Deno.FileInfo;
  try {
    root = Deno.lstatSync(dir);
  } catch {
    return;
  }
  if (root.isDirectory && !flattenSync(dir) && removeByBytesSync(dir)) return;
  try {
    Deno.removeSync(dir, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/**
 * Moves every folder of a long chain under `dir` up to `dir`, so none is long. False when it met a
 * folder it could not follow by the name Deno gave back (a name that is not UTF-8, shown with
 * U+FFFD): what lies below it is unknown, and may be any depth.
 */
async function flatten(dir: string): Promise<boolean> {
  const moved = mover(dir);
  let followed = true;
  const stack: { path: string; depth: number }[] = [{ path: dir, depth: 0 }];
  while (stack.length > 0) {
    const { path, depth } = stack.pop()!;
    const folders: string[] = [];
    try {
      for await (const entry of Deno.readDir(path)) {
        if (changedName(entry.name)) followed = false;
        else if (entry.isDirectory) folders.push(entry.name);
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotFound && depth > 0) followed = false;
      continue; // Gone or unreadable: the removal reports it.
    }
    for (const name of folders) {
      let child = join(path, name);
      if (depth + 1 > MAX_DEPTH || child.length > MAX_PATH_BYTES) {
        const target = moved();
        if (!await Deno.rename(child, target).then(() => true, notFound)) {
          followed = false;
          continue;
        }
        child = target;
        stack.push({ path: child, depth: 1 });
      } else {
        stack.push({ path: child, depth: depth + 1 });
      }
    }
  }
  return followed;
}

/** {@linkcode flatten}, synchronous. */
function flattenSync(dir: string): boolean {
  const moved = mover(dir);
  let followed = true;
  const stack: { path: string; depth: number }[] = [{ path: dir, depth: 0 }];
  while (stack.length > 0) {
    const { path, depth } = stack.pop()!;
    const folders: string[] = [];
    try {
      for (const entry of Deno.readDirSync(path)) {
        if (changedName(entry.name)) followed = false;
        else if (entry.isDirectory) folders.push(entry.name);
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotFound && depth > 0) followed = false;
      continue;
    }
    for (const name of folders) {
      const child = join(path, name);
      if (depth + 1 > MAX_DEPTH || child.length > MAX_PATH_BYTES) {
        const target = moved();
        try {
          Deno.renameSync(child, target);
        } catch (error) {
          followed = notFound(error);
          continue;
        }
        stack.push({ path: target, depth: 1 });
      } else {
        stack.push({ path: child, depth: depth + 1 });
      }
    }
  }
  return followed;
}

/**
 * Whether Deno gave `name` back changed: it puts U+FFFD for bytes that are not UTF-8, so such a
 * name reaches no entry, or another one (a real U+FFFD name beside it, which reads the same).
 */
export function changedName(name: string): boolean {
  return name.includes("\uFFFD");
}

/** False for a `NotFound` (see `flatten`); any other error is thrown. */
function notFound(error: unknown): false {
  if (error instanceof Deno.errors.NotFound) return false;
  throw error;
}

/** Fresh names directly under `dir` for folders moved up. */
function mover(dir: string): () => string {
  const prefix = `.patchgym-removing-${crypto.randomUUID().slice(0, 8)}-`;
  let next = 0;
  return () => join(dir, `${prefix}${next++}`);
}
