/**
 * The import direction of `src/`, checked by `deno task check`: a folder imports only from its
 * own layer or the layers below it, and a `_`-prefixed file only from its own folder. Data flows
 * one way (ARCHITECTURE.md): a type or function two layers share lives in the lower one.
 *
 *   deno run --allow-read scripts/check_layers.ts [SRC_DIR]
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

/**
 * The layers of `src/`, lowest first. Files directly in `src/` (errors, versions, well-formed
 * JSON) are layer 0; a folder may import from any folder on an earlier line.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["workspace"],
  ["patch"],
  ["task"],
  ["sandbox"],
  ["env"],
  ["tools"],
  ["policy"],
  ["reward"],
  ["trajectory"],
  ["agent"],
  ["serve"],
  ["rollout", "synth", "mine"],
  ["cli"],
];

/** One import that breaks the direction. */
export interface LayerViolation {
  file: string;
  imports: string;
  reason: string;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)["'](\.{1,2}\/[^"']+)["']/gm;

/** The layer of a path relative to `src/` (0 for files directly in `src/`). */
function layerOf(path: string): number | null {
  const folder = path.includes("/") ? path.slice(0, path.indexOf("/")) : null;
  if (folder === null) return 0;
  const index = LAYERS.findIndex((layer) => layer.includes(folder));
  return index < 0 ? null : index + 1;
}

/**
 * Imports among `files` (paths relative to `src/`, with their text) that point upward, into a
 * folder no layer names, or at a private `_` file of another folder.
 */
export function layerViolations(files: Map<string, string>): LayerViolation[] {
  const violations: LayerViolation[] = [];
  for (const [file, text] of files) {
    const from = layerOf(file);
    if (from === null) {
      violations.push({ file, imports: "", reason: "its folder is in no layer of LAYERS" });
      continue;
    }
    for (const match of text.matchAll(IMPORT)) {
      const target = normalize(join(dirname(file), match[1]));
      if (target.startsWith("..")) continue; // outside src/ (npm shims, tests never)
      const to = layerOf(target);
      const sameFolder = dirname(target) === dirname(file);
      const name = target.slice(target.lastIndexOf("/") + 1);
      if (to === null) {
        violations.push({ file, imports: target, reason: "its folder is in no layer of LAYERS" });
      } else if (to > from) {
        violations.push({
          file,
          imports: target,
          reason: `upward: layer ${to} (${dirname(target)}) from layer ${from}`,
        });
      } else if (name.startsWith("_") && !sameFolder) {
        violations.push({
          file,
          imports: target,
          reason: "a private helper of another folder",
        });
      }
    }
  }
  return violations;
}

function readSources(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.name.endsWith(".ts")) {
        files.set(relative(root, path), readFileSync(path, "utf8"));
      }
    }
  }
  return files;
}

if (import.meta.main) {
  const root = Deno.args[0] ?? join(dirname(new URL(import.meta.url).pathname), "..", "src");
  const violations = layerViolations(readSources(root));
  for (const v of violations) {
    console.error(`src/${v.file} imports ${v.imports ? `src/${v.imports}` : "-"}: ${v.reason}`);
  }
  if (violations.length > 0) {
    console.error(
      `check_layers: ${violations.length} import(s) against the layering; move the shared type or function down (ARCHITECTURE.md)`,
    );
    Deno.exit(1);
  }
}
