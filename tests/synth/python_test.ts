import assert from "node:assert/strict";
import { pythonMutants } from "../../src/synth/python.ts";
import { applyMutants, type Mutant } from "../../src/synth/mutant.ts";
import { testSandbox } from "../_fixtures.ts";

const SOURCE = `"""Ranges."""


def clamp(value, low=0, high=10, strict=False):
    """Clamp value into [low, high]."""
    if value < low:
        return low
    if value > high and not strict:
        return high
    total = value + 1
    total -= 1
    print("é", total)
    return max(value, total)


def firsts(rows, count):
    out = []
    for i in range(len(rows)):
        name = rows[i].strip()
        out.append(name)
    return sorted(out)[:count]  # at most count names
`;

async function mutantsOf(files: Record<string, string>) {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-pymut-" });
  try {
    return await pythonMutants(await testSandbox(), files, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("pythonMutants() finds every operator kind and each mutant still parses to a different program", async () => {
  const mutants = await mutantsOf({ "ranges.py": SOURCE });
  const operators = new Set(mutants.map((m) => m.operator));
  assert.deepEqual([...operators].sort(), [
    "comparison",
    "drop_call",
    "drop_statement",
    "invert_condition",
    "loop_bound",
    "off_by_one",
    "operator",
    "remove_branch",
    "remove_condition",
    "swap_arguments",
    "swap_names",
    "swap_statements",
    "wrong_default",
  ]);
  const bytes = new TextEncoder().encode(SOURCE);
  const texts = mutants.map((m) => new TextDecoder().decode(applyMutants(bytes, [m])));
  assert.ok(texts.every((t) => t !== SOURCE));
  // Byte offsets are right past a non-ASCII character: the swap lands on "max(total, value)".
  assert.ok(texts.includes(SOURCE.replace("max(value, total)", "max(total, value)")));
  assert.ok(texts.includes(SOURCE.replace("if value < low:", "if value <= low:")));
  assert.ok(texts.includes(SOURCE.replace("strict=False", "strict=True")));
  assert.ok(texts.includes(SOURCE.replace("    total -= 1\n", "")));
  // Bugs read like code a person wrote: no "not (...)" around a condition.
  assert.ok(texts.includes(SOURCE.replace("if value < low:", "if value >= low:")));
  assert.ok(texts.every((t) => !t.includes("not (")));
  assert.ok(texts.includes(SOURCE.replace("if value > high and not strict:", "if value > high:")));
  assert.ok(texts.includes(SOURCE.replace("range(len(rows))", "range(len(rows) - 1)")));
  assert.ok(texts.includes(SOURCE.replace("rows[i].strip()", "rows[i]")));
  assert.ok(texts.includes(SOURCE.replace("    if value < low:\n        return low\n", "")));
  // A comment that states the intended value is not left beside the changed line.
  assert.ok(
    texts.includes(
      SOURCE.replace("sorted(out)[:count]  # at most count names", "sorted(out)[:count + 1]"),
    ),
  );
  // Docstrings are never mutated.
  assert.ok(texts.every((t) => t.includes('"""Clamp value into [low, high]."""')));
});

Deno.test("pythonMutants() gives the same hash to the same mutation however the file is formatted", async () => {
  const comparison = (ms: Mutant[]) => ms.find((m) => m.operator === "comparison")!;
  const a = comparison(await mutantsOf({ "a.py": "def f(a, b):\n    return a < b\n" }));
  const b = comparison(
    await mutantsOf({ "b.py": "def f(a,  b):  # compare\n    return (a < b)\n" }),
  );
  assert.equal(a.operator, "comparison");
  assert.equal(b.operator, "comparison");
  assert.equal(a.hash, b.hash);
});
