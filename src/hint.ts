/**
 * The command a user can type to run patchgym, for hints in messages ("continue with: ..."): the
 * compiled binary's own name, or `deno task patchgym` from a source checkout, with `--config`
 * when the user's folder is outside the checkout (where `deno task` would not find deno.json).
 */
import { fileURLToPath } from "node:url";
import { isAbsolute, relative } from "node:path";

/** The checkout's root folder: where deno.json is. */
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** `patchgym ARGS` as the user can type it from the folder this process runs in. */
export function patchgymCommand(args: string, cwd: string = currentFolder()): string {
  if (Deno.build.standalone) return `patchgym ${args}`;
  const inside = cwd !== "" && !isOutside(ROOT, cwd);
  const config = inside ? "" : `--config ${quoted(`${ROOT.replace(/\/$/, "")}/deno.json`)} `;
  return `deno task ${config}patchgym ${args}`;
}

function currentFolder(): string {
  try {
    return Deno.cwd();
  } catch {
    return "";
  }
}

/** Whether `folder` is not `root` or a folder under it. */
function isOutside(root: string, folder: string): boolean {
  const rel = relative(root, folder);
  return rel.startsWith("..") || isAbsolute(rel);
}

/** A path as one shell word. */
function quoted(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
