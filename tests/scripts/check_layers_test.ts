import assert from "node:assert/strict";
import { join } from "node:path";
import { layerViolations } from "../../scripts/check_layers.ts";

Deno.test("layerViolations() accepts src/ as it is", async () => {
  const root = join(import.meta.dirname!, "..", "..", "src");
  const files = new Map<string, string>();
  for await (const path of walkTs(root, "")) {
    files.set(path, await Deno.readTextFile(join(root, path)));
  }
  assert.ok(files.size > 50);
  assert.deepEqual(layerViolations(files), []);
});

// Issue 25: src/trajectory/record.ts imported a type from src/agent/episode.ts.
Deno.test("layerViolations() rejects an upward import, a type import included", () => {
  const files = new Map([
    ["trajectory/record.ts", 'import type { Episode } from "../agent/episode.ts";\n'],
    ["agent/episode.ts", 'import { buildRecord } from "../trajectory/record.ts";\n'],
  ]);
  const violations = layerViolations(files);
  assert.equal(violations.length, 1);
  assert.equal(violations[0].file, "trajectory/record.ts");
  assert.match(violations[0].reason, /^upward/);
});

Deno.test("layerViolations() rejects rollout -> cli, a dynamic import and a folder in no layer", () => {
  const files = new Map([
    ["rollout/run.ts", 'const m = await import("../cli/main.ts");\n'],
    ["extras/thing.ts", 'import { x } from "../errors.ts";\n'],
  ]);
  const reasons = layerViolations(files).map((v) => `${v.file}: ${v.reason}`);
  assert.deepEqual(reasons, [
    "rollout/run.ts: upward: layer 13 (cli) from layer 12",
    "extras/thing.ts: its folder is in no layer of LAYERS",
  ]);
});

Deno.test("layerViolations() rejects a private helper of another folder and allows its own", () => {
  const files = new Map([
    ["tools/search.ts", 'import { a } from "./_glob.ts";\n'],
    ["agent/loop.ts", 'import { a } from "../tools/_glob.ts";\n'],
  ]);
  const violations = layerViolations(files);
  assert.deepEqual(violations.map((v) => v.file), ["agent/loop.ts"]);
  assert.match(violations[0].reason, /private helper/);
});

async function* walkTs(root: string, rel: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(rel ? join(root, rel) : root)) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory) yield* walkTs(root, path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}
