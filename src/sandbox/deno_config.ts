/**
 * A Deno repository's `deno.json` (or `deno.jsonc`) as patchgym reads it: only its `imports`
 * and `scopes`. `deno test` in the jail runs with `--no-config` (a config could grant
 * permissions or change flags), so the import map it needs is written apart, with the
 * repository's relative addresses made absolute.
 */
import { join } from "node:path";

/** The config files Deno finds in a folder, in its order. */
export const DENO_CONFIG_FILES = ["deno.json", "deno.jsonc"] as const;

/** A config larger than this is not read (an agent could write one to stall the host). */
const MAX_CONFIG_BYTES = 1 << 20;

/** An import map: what `--import-map` reads. */
export interface ImportMap {
  imports: Record<string, string>;
  scopes: Record<string, Record<string, string>>;
}

/**
 * The parsed config of the repository at `dir` (null when there is none, it is not a regular
 * file, or it is not JSON with comments). A link is never followed: the file may be the agent's.
 */
export function readDenoConfig(
  dir: string,
): { path: string; value: Record<string, unknown> } | null {
  for (const name of DENO_CONFIG_FILES) {
    const path = join(dir, name);
    let stat: Deno.FileInfo;
    try {
      stat = Deno.lstatSync(path);
    } catch {
      continue;
    }
    if (!stat.isFile || stat.size > MAX_CONFIG_BYTES) return null;
    try {
      const value = JSON.parse(stripJsonComments(Deno.readTextFileSync(path)));
      return value !== null && typeof value === "object" && !Array.isArray(value)
        ? { path, value }
        : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** The import map of the repository at `dir` (empty when it has no readable config). */
export function denoImportMap(dir: string): ImportMap {
  const config = readDenoConfig(dir);
  return config === null ? { imports: {}, scopes: {} } : importMapOf(config.value, dir);
}

/** The import map of a config read from the repository at `dir`, addresses made absolute. */
export function importMapOf(config: Record<string, unknown>, dir: string): ImportMap {
  const base = `file://${dir.endsWith("/") ? dir : `${dir}/`}`;
  const absolute = (value: string) =>
    /^(\.{0,2}\/)/.test(value) ? new URL(value, base).href : value;
  const table = (raw: unknown): Record<string, string> =>
    Object.fromEntries(
      Object.entries(isObject(raw) ? raw : {}).filter(([, v]) => typeof v === "string")
        .map(([k, v]) => [k, absolute(v as string)]),
    );
  return {
    imports: table(config.imports),
    scopes: Object.fromEntries(
      Object.entries(isObject(config.scopes) ? config.scopes : {}).map((
        [scope, map],
      ) => [absolute(scope), table(map)]),
    ),
  };
}

/** JSON text from JSONC: comments and trailing commas dropped, strings kept as they are. */
export function stripJsonComments(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
      out += " ";
    } else if (c === "," && /^\s*[}\]]/.test(text.slice(i + 1, i + 200))) {
      out += " ";
    } else {
      out += c;
    }
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
