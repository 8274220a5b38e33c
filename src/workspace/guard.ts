/**
 * The path guard: the one gate every path the agent names goes through. It takes a path relative
 * to the workspace, resolves real paths (so a symlink, pre-existing or created by the agent's own
 * code, cannot lead outside), and refuses absolute paths, `..` escapes, `.git` internals and
 * device files with a message the model can act on.
 */
import { lstatSync, realpathSync, statSync } from "node:fs";
import { posix } from "node:path";

/** Why a path was refused. */
export type GuardCode =
  | "invalid_input"
  | "path_outside_workspace"
  | "path_not_allowed"
  | "not_found";

/** A resolved path or the reason it was refused. */
export type GuardResult =
  | {
    ok: true;
    /** Absolute real path to operate on. */
    abs: string;
    /** The path as the agent named it, normalized. */
    rel: string;
    /** Where it really is, relative to the root (differs from `rel` through symlinks). */
    realRel: string;
    exists: boolean;
    isDir: boolean;
  }
  | { ok: false; code: GuardCode; message: string };

/** What the caller needs the path to be. */
export interface GuardOptions {
  /** Accept a path that does not exist yet (its parent folder must resolve inside). */
  allowMissing?: boolean;
}

const VCS_DIRS = new Set([".git", ".hg", ".svn"]);

/**
 * Resolve `path` inside the workspace whose real root is `root`. Returns the absolute real path
 * to use for the file operation, or a refusal.
 */
export function guardPath(root: string, path: string, options: GuardOptions = {}): GuardResult {
  if (typeof path !== "string" || path.trim() === "" || path.includes("\0")) {
    return refuse(
      "invalid_input",
      `Path ${
        JSON.stringify(path)
      } is empty or contains a NUL byte; give a path relative to the workspace root such as "src/app.py"`,
    );
  }
  const given = path.replaceAll("\\", "/");
  if (given.startsWith("/") || given.startsWith("~") || /^[A-Za-z]:/.test(given)) {
    return refuse(
      "path_outside_workspace",
      `Path "${path}" is absolute; use a path relative to the workspace root such as "src/app.py"`,
    );
  }
  const rel = posix.normalize(given).replace(/\/+$/, "") || ".";
  if (rel === ".." || rel.startsWith("../")) {
    return refuse(
      "path_outside_workspace",
      `Path "${path}" leaves the workspace through ".."; use a path inside the workspace`,
    );
  }
  if (rel.split("/").some((part) => VCS_DIRS.has(part))) {
    return refuse(
      "path_not_allowed",
      `Path "${path}" is inside version-control data, which tools do not touch; work on the project files instead`,
    );
  }
  const target = rel === "." ? root : `${root}/${rel}`;
  let exists = true;
  try {
    lstatSync(target);
  } catch {
    exists = false;
  }
  if (!exists) {
    if (!options.allowMissing) {
      return refuse(
        "not_found",
        `Path "${rel}" does not exist; list the files to see what is there`,
      );
    }
    // The deepest existing ancestor decides where a new file would land.
    let parent = posix.dirname(rel);
    while (parent !== ".") {
      try {
        lstatSync(`${root}/${parent}`);
        break;
      } catch {
        parent = posix.dirname(parent);
      }
    }
    const parentAbs = parent === "." ? root : `${root}/${parent}`;
    const realParent = safeRealpath(parentAbs);
    if (realParent === null || !inside(root, realParent)) {
      return refuse(
        "path_outside_workspace",
        `Path "${path}" resolves outside the workspace through a symlink; use a path inside the workspace`,
      );
    }
    if (!statSync(realParent).isDirectory()) {
      return refuse("invalid_input", `Cannot create "${rel}": "${parent}" is a file, not a folder`);
    }
    const abs = realParent + target.slice(parentAbs.length);
    return { ok: true, abs, rel, realRel: relativeTo(root, abs), exists: false, isDir: false };
  }
  const real = safeRealpath(target);
  if (real === null) {
    return refuse("not_found", `Path "${rel}" is a broken symlink; remove it or use another path`);
  }
  if (!inside(root, real)) {
    return refuse(
      "path_outside_workspace",
      `Path "${path}" resolves outside the workspace through a symlink; use a path inside the workspace`,
    );
  }
  const stat = statSync(real);
  if (!stat.isFile() && !stat.isDirectory()) {
    return refuse(
      "path_not_allowed",
      `Path "${rel}" is a device, socket or pipe, not a regular file; tools only work on files and folders`,
    );
  }
  return {
    ok: true,
    abs: real,
    rel,
    realRel: relativeTo(root, real),
    exists: true,
    isDir: stat.isDirectory(),
  };
}

function relativeTo(root: string, abs: string): string {
  return abs === root ? "." : abs.slice(root.length + 1);
}

function inside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith("/") ? root : `${root}/`);
}

function safeRealpath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function refuse(code: GuardCode, message: string): GuardResult {
  return { ok: false, code, message };
}
