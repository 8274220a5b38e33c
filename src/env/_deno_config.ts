/**
 * A Deno repository's `deno.json` (or `deno.jsonc`) as `env build` reads it: whether it imports
 * `npm:` packages, and the import map of those. `deno test` in the jail runs with `--no-config`
 * (a config could grant permissions or change flags), so the import map it needs is kept apart.
 */
import { join } from "node:path";

/** The config files Deno finds in a folder, in its order. */
export const DENO_CONFIG_FILES = ["deno.json", "deno.jsonc"] as const;

/** A config larger than this is not read (a config is a few lines). */
const MAX_CONFIG_BYTES = 1 << 20;

/** An import map: what `--import-map` reads. */
export interface ImportMap {
  imports: Record<string, string>;
}

/**
 * The parsed config of the repository at `dir` (null when there is none, it is not a regular
 * file, or it is not JSON with comments). A link is never followed.
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

/**
 * The import map a test run gets: the config's bare names that point at `npm:` packages, the only
 * imports the environment caches. It is taken when the environment is built, from the repository
 * as its author left it: an agent's edited config could map a protected test helper, or a module
 * the tests import, to code of its own.
 */
export function npmImportMap(config: Record<string, unknown>): ImportMap {
  const imports = isObject(config.imports) ? config.imports : {};
  return {
    imports: Object.fromEntries(
      Object.entries(imports).filter(([name, value]) =>
        typeof value === "string" && value.startsWith("npm:") && !/^[./]|:/.test(name)
      ),
    ) as Record<string, string>,
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
