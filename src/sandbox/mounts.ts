/**
 * The jail's mount allowlist: what a child sees under bwrap. Nothing of the host is visible unless
 * it is listed here: the allowlisted programs (one prepared folder per destination, see
 * `program_folder.ts`, else each file on its own), their shared libraries, the
 * Python interpreter's own library folders, a minimal `/etc` and the symlinks that make the usual
 * paths work (`/bin -> usr/bin`). The workspace, fresh `/tmp`, `/dev` and `/proc` are added per run.
 * The plan is derived at runtime from this machine, so `doctor` can print it.
 */
import { dirname, join, resolve } from "node:path";
import type { ProgramFolderFind } from "./program_folder.ts";
import { ALLOWED_PROGRAMS, CHILD_PATH, RUNNER_PROGRAMS } from "./programs.ts";

/** One read-only entry of the plan: a bind of `source` at `dest`, or a symlink at `dest`. */
export interface Mount {
  kind: "ro-bind" | "symlink";
  /** Host path for a bind; link target for a symlink. */
  source: string;
  dest: string;
  /** Why it is there, for `doctor`. */
  why: string;
}

/** The runtime part of the jail, the same for every run. */
export interface MountPlan {
  mounts: Mount[];
  /** Allowlisted programs not found on the children's PATH. */
  missing: string[];
  /**
   * Where `setpriv` is in the jail (bound like a program, but only where it drops root to the
   * sandbox's uid: as root without the compiled launcher); null when it is not installed.
   */
  setpriv: string | null;
  /**
   * The prepared programs folder's destinations and what they hold (bound in place of one bind per
   * program), or null when each program is bound on its own, with why in `programsReason`.
   */
  programs: { dests: string[]; paths: string[] } | null;
  programsReason?: string;
  /**
   * With a programs folder: its binds (and the files bound over its placeholders) as one bind per
   * program, for a run that must bind a file of its own inside a prepared folder where the folder
   * has no placeholder for it (a `deno` executable in `/usr/bin`).
   */
  perProgram?: Mount[];
}

/** Where `setpriv` is bound (outside every program folder, which is read-only and holds no place for it). */
const SETPRIV_DEST = "/usr/libexec/setpriv";

/** `/etc` files children get from the host: only what the dynamic loader and libc read. */
const HOST_ETC = ["/etc/ld.so.cache", "/etc/nsswitch.conf"];
/** Top-level folders that are symlinks on merged-/usr systems. */
const TOP_LEVEL_LINKS = ["/bin", "/lib", "/lib64", "/lib32", "/libx32"];

/**
 * Derive the plan: each allowlisted program (but `deno`, which the sandbox binds itself) as found on
 * {@linkcode CHILD_PATH}, the shared library folders, and `pythonPaths` (the interpreter's own
 * library folders, from {@linkcode pythonLibraryPaths}). `programs` is the prepared programs folder
 * (`program_folder.ts`) or why there is none: with one, its destination folders are bound from it
 * instead of each program on its own.
 */
export function planMounts(
  pythonPaths: string[],
  programs: ProgramFolderFind = { folder: null, reason: "no programs folder was asked for" },
): MountPlan {
  const mounts: Mount[] = [];
  const missing: string[] = [];
  for (const link of TOP_LEVEL_LINKS) {
    const target = readLink(link);
    if (target !== null) {
      mounts.push({ kind: "symlink", source: target, dest: link, why: "usr merge" });
    }
  }
  const triplet = `${Deno.build.arch}-linux-gnu`;
  const libraries = [`/lib/${triplet}`, `/usr/lib/${triplet}`, "/lib64", "/usr/lib64"];
  for (const dir of unique(libraries.map(realDir).filter((d): d is string => d !== null))) {
    // A folder of a few links only (`/usr/lib64` holds the loader's link into the triplet folder)
    // is made of the same links in the jail: a symlink is no mount, a bind costs a re-read of the
    // mount table.
    const links = linksOnly(dir);
    if (links) {
      for (const [name, target] of links) {
        mounts.push({
          kind: "symlink",
          source: target,
          dest: join(dir, name),
          why: "shared libraries (a folder of links)",
        });
      }
    } else {
      mounts.push({ kind: "ro-bind", source: dir, dest: dir, why: "shared libraries" });
    }
  }
  for (const dir of outermost(pythonPaths.map(realDir).filter((d): d is string => d !== null))) {
    mounts.push({ kind: "ro-bind", source: dir, dest: dir, why: "python3 library" });
  }
  const perProgram: Mount[] = [];
  for (
    const program of [...ALLOWED_PROGRAMS, ...RUNNER_PROGRAMS].filter((p) => p !== "deno").sort()
  ) {
    const found = findProgram(program);
    if (!found) {
      missing.push(program);
      continue;
    }
    perProgram.push({ kind: "ro-bind", source: found.real, dest: found.path, why: "program" });
  }
  const folder = programs.folder;
  if (folder) {
    for (const dest of folder.dests) {
      const names = folder.paths.filter((p) => dirname(p) === dest).map((p) =>
        p.slice(dest.length + 1)
      );
      mounts.push({
        kind: "ro-bind",
        source: folder.folder + dest,
        dest,
        why: `programs folder: ${names.join(", ")}`,
      });
    }
    for (const own of folder.own) {
      mounts.push({
        kind: "ro-bind",
        source: own.real,
        dest: own.path,
        why: "program, over its placeholder",
      });
    }
  } else {
    mounts.push(...perProgram);
  }
  const setpriv = findProgram("setpriv");
  if (setpriv) {
    mounts.push({
      kind: "ro-bind",
      source: setpriv.real,
      dest: SETPRIV_DEST,
      why: "drops root, sh fallback only",
    });
  }
  for (const file of HOST_ETC) {
    if (isFile(file)) mounts.push({ kind: "ro-bind", source: file, dest: file, why: "loader" });
  }
  return {
    mounts,
    missing,
    setpriv: setpriv ? SETPRIV_DEST : null,
    ...(folder
      ? { programs: { dests: folder.dests, paths: folder.paths }, perProgram }
      : { programs: null, programsReason: programs.reason }),
  };
}

/**
 * The plan's mounts for a run that binds `files` of its own: with the programs folder, unless one
 * of the files falls inside a prepared folder that holds no placeholder for it (a read-only bind
 * has no place to mount it); then each program on its own.
 */
export function mountsFor(plan: MountPlan, files: string[]): Mount[] {
  const programs = plan.programs;
  if (
    !programs || !plan.perProgram ||
    !files.some((f) => programs.dests.includes(dirname(f)) && !programs.paths.includes(f))
  ) {
    return plan.mounts;
  }
  const folderMount = (m: Mount) =>
    m.why.startsWith("programs folder") || m.why === "program, over its placeholder";
  const first = plan.mounts.findIndex(folderMount);
  const rest = plan.mounts.filter((m) => !folderMount(m));
  return [...rest.slice(0, first), ...plan.perProgram, ...rest.slice(first)];
}

/** bwrap arguments for `mounts`, in order (symlinks after the binds they point into). */
export function mountArgs(mounts: Mount[]): string[] {
  const args: string[] = [];
  for (const m of mounts.filter((m) => m.kind === "ro-bind")) {
    args.push("--ro-bind", m.source, m.dest);
  }
  for (const m of mounts.filter((m) => m.kind === "symlink")) {
    args.push("--symlink", m.source, m.dest);
  }
  return args;
}

/** One line per mount, e.g. `ro /usr/bin/python3 <- /usr/bin/python3.11 (program)`. */
export function describeMounts(plan: MountPlan): string[] {
  return [
    ...plan.mounts.map((m) =>
      m.kind === "symlink"
        ? `link ${m.dest} -> ${m.source} (${m.why})`
        : `ro   ${m.dest}${m.source === m.dest ? "" : ` <- ${m.source}`} (${m.why})`
    ),
    ...(plan.programs ? [] : [`(each program bound on its own: ${plan.programsReason})`]),
  ];
}

/**
 * The library folders of the interpreter children run as `python3`, from its own `sys.path`: the
 * entries under its installation's `lib` folder (so site-local folders such as
 * `/usr/local/lib/python3.X/dist-packages` stay out). `sysPath` and `basePrefix` are what the
 * interpreter printed.
 */
export function pythonLibraryPaths(sysPath: string[], basePrefix: string): string[] {
  const lib = join(basePrefix, "lib") + "/";
  return sysPath.filter((p) => p.startsWith(lib));
}

/** The first `dir/name` on {@linkcode CHILD_PATH} that is a file, with its real path. */
export function findProgram(name: string): { path: string; real: string } | null {
  for (const dir of CHILD_PATH.split(":")) {
    const path = join(dir, name);
    if (isFile(path)) return { path, real: Deno.realPathSync(path) };
  }
  return null;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function readLink(path: string): string | null {
  try {
    return Deno.lstatSync(path).isSymlink ? Deno.readLinkSync(path) : null;
  } catch {
    return null;
  }
}

function realDir(path: string): string | null {
  try {
    const real = Deno.realPathSync(path);
    return Deno.statSync(real).isDirectory ? real : null;
  } catch {
    return null;
  }
}

/** The links of `dir` (name, target) when it holds 1 to 16 entries, all symlinks; else null. */
function linksOnly(dir: string): [string, string][] | null {
  try {
    const entries = [...Deno.readDirSync(dir)];
    if (entries.length === 0 || entries.length > 16 || entries.some((e) => !e.isSymlink)) {
      return null;
    }
    return entries.map((e) => [e.name, Deno.readLinkSync(join(dir, e.name))] as [string, string])
      .sort((a, b) => (a[0] < b[0] ? -1 : 1));
  } catch {
    return null;
  }
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

/** Drop paths inside another path of the list. */
function outermost(paths: string[]): string[] {
  const sorted = unique(paths.map((p) => resolve(p))).sort();
  return sorted.filter((p) => !sorted.some((q) => q !== p && p.startsWith(q + "/")));
}
