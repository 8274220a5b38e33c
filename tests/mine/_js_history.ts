/**
 * Small git histories of JavaScript and TypeScript projects, written for these tests: `tallyup`
 * (Node, `node --test`, no dependencies), `binpack` (Node, jest 29 from the npm registry, with its
 * package-lock.json) and `delayfmt` (Deno, `npm:ms` through deno.json, no deno.lock committed).
 * Each starts with a bug that a later commit fixes with a test; `tallyup`'s fix also adds a flaky
 * test (it passes and fails by turns), and the history has a feature that reads test data and a
 * commit that is not a candidate.
 */
import { join } from "node:path";
import { commit, git } from "./_history.ts";

/** The commits of a history by role. */
export interface JsHistory {
  dir: string;
  fix: string;
  feature?: string;
  docs?: string;
}

const TALLY_BUGGY = `/** The sum of the counts of \`items\`. */
export function sum(items) {
  let total = 0;
  for (let i = 1; i < items.length; i++) total += items[i].count;
  return total;
}

/** The names of the items whose count is below \`limit\`. */
export function low(items, limit) {
  return items.filter((item) => item.count < limit).map((item) => item.name);
}
`;

const TALLY_TEST = `import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { low, sum } from "../src/tally.js";

describe("low", () => {
  it("names the items below the limit", () => {
    assert.deepEqual(low([{ name: "a", count: 1 }, { name: "b", count: 9 }], 5), ["a"]);
  });
});
`;

/** `tallyup`: node --test, a fix, a README change, a feature reading test data. */
export async function writeNodeHistory(dir: string): Promise<JsHistory> {
  await init(dir);
  await commit(dir, "Start tallyup", {
    "package.json": JSON.stringify(
      {
        name: "tallyup",
        version: "0.1.0",
        type: "module",
        scripts: { test: "node --test test/" },
      },
      null,
      2,
    ) + "\n",
    "src/tally.js": TALLY_BUGGY,
    "test/tally.test.js": TALLY_TEST,
  });
  const fix = await commit(
    dir,
    "Count the first item in sum()\n\nsum() left the first item of the list out of the total.",
    {
      "src/tally.js": TALLY_BUGGY.replace("let i = 1", "let i = 0"),
      "test/tally.test.js": TALLY_TEST.replace(
        'import assert from "node:assert/strict";\n',
        'import assert from "node:assert/strict";\nimport { existsSync, rmSync, writeFileSync } from "node:fs";\n',
      ) + `
describe("sum", () => {
  it("adds every count", () => {
    assert.equal(sum([{ name: "a", count: 2 }, { name: "b", count: 5 }]), 7);
  });

  it("is zero without items", () => {
    assert.equal(sum([]), 0);
  });

  // Flaky by design: passes and fails by turns (a marker file beside the code).
  it("keeps a running total", () => {
    const marker = new URL("../src/.running-total", import.meta.url);
    const seen = existsSync(marker);
    if (seen) rmSync(marker);
    else writeFileSync(marker, "");
    assert.ok(!seen);
  });
});
`,
    },
  );
  const docs = await commit(dir, "Describe the project", { "README.md": "# tallyup\n" });
  const feature = await commit(dir, "Read items from CSV text", {
    "src/csv.js": `/** Items from CSV text with a header line \`name,count\`. */
export function parseItems(text) {
  const [, ...rows] = text.trim().split("\\n");
  return rows.map((row) => {
    const [name, count] = row.split(",");
    return { name: name.trim(), count: Number(count) };
  });
}
`,
    "test/data/items.csv": "name,count\napples,3\npears,0\n",
    "test/csv.test.js": `import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseItems } from "../src/csv.js";
import { low } from "../src/tally.js";

const TEXT = readFileSync(new URL("./data/items.csv", import.meta.url), "utf8");

test("reads every item", () => {
  assert.deepEqual(parseItems(TEXT).map((item) => item.name), ["apples", "pears"]);
});

test("counts are numbers", () => {
  assert.deepEqual(low(parseItems(TEXT), 1), ["pears"]);
});
`,
  });
  return { dir, fix, feature, docs };
}

const BINS_BUGGY = `/** Whether an item of \`size\` fits in what is left of a bin. */
function fits(size, left) {
  return size < left;
}

/** Sizes packed first-fit into bins of \`capacity\`: the number of bins used. */
function pack(sizes, capacity) {
  const bins = [];
  for (const size of sizes) {
    const index = bins.findIndex((left) => fits(size, left));
    if (index >= 0) bins[index] -= size;
    else bins.push(capacity - size);
  }
  return bins.length;
}

module.exports = { fits, pack };
`;

const BINS_TEST = `const { pack } = require("../src/bins.js");

describe("pack", () => {
  test("puts small items together", () => {
    expect(pack([2, 3, 4], 10)).toBe(1);
  });

  test("opens a bin when nothing fits", () => {
    expect(pack([6, 6], 10)).toBe(2);
  });
});
`;

/**
 * `binpack`: jest 29 (a devDependency installed from the npm registry npm is configured with),
 * package-lock.json committed; the fix makes an item as large as the space left fit.
 */
export async function writeJestHistory(dir: string): Promise<JsHistory> {
  await init(dir);
  const manifest = JSON.stringify(
    {
      name: "binpack",
      version: "0.1.0",
      scripts: { test: "jest" },
      devDependencies: { jest: "29.7.0" },
    },
    null,
    2,
  ) + "\n";
  await Deno.writeTextFile(join(dir, "package.json"), manifest);
  const locked = await new Deno.Command("npm", {
    args: ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!locked.success) throw new Error(new TextDecoder().decode(locked.stderr));
  await commit(dir, "Start binpack", {
    "package.json": manifest,
    "src/bins.js": BINS_BUGGY,
    "test/bins.test.js": BINS_TEST,
  });
  const fix = await commit(
    dir,
    "Let an item fill a bin exactly\n\nAn item as large as the space left in a bin opened a new bin.",
    {
      "src/bins.js": BINS_BUGGY.replace("size < left", "size <= left"),
      "test/bins.test.js": BINS_TEST + `
describe("fits", () => {
  test("an item as large as the space left fits", () => {
    expect(pack([4, 6], 10)).toBe(1);
  });
});
`,
    },
  );
  return { dir, fix };
}

const DELAY_BUGGY = `import ms from "ms";

/** Seconds in a duration such as "2s" or "1.5m". */
export function seconds(text: string): number {
  return ms(text) / 100;
}

/** Milliseconds in a duration such as "250ms". */
export function millis(text: string): number {
  return ms(text);
}
`;

const DELAY_TEST = `import { millis } from "../src/delay.ts";

function equal(actual: unknown, expected: unknown): void {
  if (actual !== expected) throw new Error(\`expected \${expected}, got \${actual}\`);
}

Deno.test("milliseconds pass through", () => {
  equal(millis("250ms"), 250);
});
`;

/** `delayfmt`: a Deno project importing `npm:ms` through deno.json; no deno.lock committed. */
export async function writeDenoHistory(dir: string): Promise<JsHistory> {
  await init(dir);
  await commit(dir, "Start delayfmt", {
    "deno.json": JSON.stringify({ imports: { ms: "npm:ms@2.1.3" } }, null, 2) + "\n",
    "src/delay.ts": DELAY_BUGGY,
    "tests/delay_test.ts": DELAY_TEST,
  });
  const fix = await commit(
    dir,
    "Divide by a thousand in seconds()\n\nseconds() was ten times too large.",
    {
      "src/delay.ts": DELAY_BUGGY.replace("/ 100;", "/ 1000;"),
      "tests/delay_test.ts": DELAY_TEST.replace(
        'import { millis } from "../src/delay.ts";',
        'import { millis, seconds } from "../src/delay.ts";',
      ) + `
Deno.test("seconds are milliseconds over a thousand", () => {
  equal(seconds("2s"), 2);
  equal(seconds("1.5m"), 90);
});
`,
    },
  );
  return { dir, fix };
}

/** A Node project that tests with vitest: two commits, a fix with a test. */
export async function writeVitestHistory(dir: string): Promise<JsHistory> {
  await init(dir);
  const manifest = JSON.stringify({
    name: "vitally",
    version: "0.1.0",
    type: "module",
    scripts: { test: "vitest run" },
    devDependencies: { vitest: "^2.0.0" },
  }) + "\n";
  await commit(dir, "Start vitally", {
    "package.json": manifest,
    "src/double.js": "export const double = (n) => n * 3;\n",
    "test/double.test.js": 'import { expect, test } from "vitest";\n',
  });
  const fix = await commit(dir, "Double by two", {
    "src/double.js": "export const double = (n) => n * 2;\n",
    "test/double.test.js": 'import { expect, test } from "vitest";\n' +
      'import { double } from "../src/double.js";\n\n' +
      'test("doubles", () => expect(double(2)).toBe(4));\n',
  });
  return { dir, fix };
}

async function init(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await git(dir, "init", "-q", "-b", "main");
}

/** Whether the registry npm is configured with serves `spec` (e.g. `jest@29.7.0`). */
export async function npmHas(spec: string): Promise<boolean> {
  try {
    const out = await new Deno.Command("npm", {
      args: ["view", spec, "version", "--fetch-retries=0", "--fetch-timeout=10000"],
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(30_000),
    }).output();
    return out.success && new TextDecoder().decode(out.stdout).trim() !== "";
  } catch {
    return false;
  }
}
