import assert from "node:assert/strict";
import { applyMutants } from "../../src/synth/mutant.ts";
import { typescriptMutants } from "../../src/synth/typescript.ts";

const SOURCE = `/** Ranges. */
export function clamp(value: number, low = 0, high = 10, strict = false): number {
  // "é" before the edits checks byte offsets.
  if (value < low) return low;
  if (value > high && !strict) {
    return high;
  }
  let total = value + 1;
  total -= 1;
  return Math.max(value, total);
}
`;

Deno.test("typescriptMutants() finds every operator kind and each mutant is a different program", async () => {
  const mutants = await typescriptMutants({ "ranges.ts": SOURCE });
  assert.deepEqual([...new Set(mutants.map((m) => m.operator))].sort(), [
    "comparison",
    "drop_statement",
    "invert_condition",
    "off_by_one",
    "operator",
    "swap_arguments",
    "wrong_default",
  ]);
  const bytes = new TextEncoder().encode(SOURCE);
  const texts = mutants.map((m) => new TextDecoder().decode(applyMutants(bytes, [m])));
  assert.ok(texts.includes(SOURCE.replace("Math.max(value, total)", "Math.max(total, value)")));
  assert.ok(texts.includes(SOURCE.replace("if (value < low)", "if (value <= low)")));
  assert.ok(texts.includes(SOURCE.replace("strict = false", "strict = true")));
  assert.ok(texts.includes(SOURCE.replace("  total -= 1;", "  ")));
  assert.equal(new Set(mutants.map((m) => m.hash)).size, mutants.length);
});

Deno.test("typescriptMutants() skips a file that does not parse", async () => {
  assert.deepEqual(await typescriptMutants({ "bad.ts": "export function (" }), []);
});
