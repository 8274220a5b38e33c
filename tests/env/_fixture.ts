/**
 * A small src-layout Python project with one third-party dependency (`python-dateutil`, which
 * the jail's interpreter does not have), written for these
 * tests: `shelfcount`, an inventory of shelves. `writeProject` writes it (optionally with a bug),
 * `writeTask` a task over it, and `pipHas` says whether the package index has a package.
 */
import { join } from "node:path";

/** The project's files; `bug` swaps the correct `total` for an off-by-one one. */
export function projectFiles(options: { bug?: boolean } = {}): Record<string, string> {
  return {
    "pyproject.toml": `[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "shelfcount"
version = "0.1.0"
dependencies = ["python-dateutil>=2.8"]

[dependency-groups]
test = ["pytest"]

[tool.pytest.ini_options]
addopts = "-ra --cov=shelfcount --cov-fail-under=95 --color=yes"
testpaths = ["tests"]
`,
    "src/shelfcount/__init__.py": '"""Counting what is on the shelves."""\n',
    "src/shelfcount/inventory.py": `from dateutil.relativedelta import relativedelta


class Shelf:
    def __init__(self, label, count=0):
        self.label = label
        self.count = count

    def take(self, n):
        if n > self.count:
            raise ValueError(f"only {self.count} on shelf {self.label}")
        self.count -= n


def total(shelves):
    ${
      options.bug
        ? "return sum(s.count for s in shelves[1:])"
        : "return sum(s.count for s in shelves)"
    }


def emptiest(shelves):
    return min(shelves, key=lambda s: s.count).label


def next_stocktake(day, months=3):
    return day + relativedelta(months=months)
`,
    "tests/test_inventory.py": `import datetime

from shelfcount.inventory import Shelf, emptiest, next_stocktake, total


def test_take():
    shelf = Shelf("a", 3)
    shelf.take(2)
    assert shelf.count == 1


def test_emptiest():
    assert emptiest([Shelf("a", 3), Shelf("b", 1)]) == "b"


def test_next_stocktake_clamps_to_month_end():
    assert next_stocktake(datetime.date(2024, 11, 30)) == datetime.date(2025, 2, 28)
`,
  };
}

/** A hidden test that catches the bug. */
export const HIDDEN_TEST = `from shelfcount.inventory import Shelf, total


def test_total_counts_every_shelf():
    assert total([Shelf("a", 2), Shelf("b", 5)]) == 7
`;

/** Write `files` under `dir`. */
export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const full = join(dir, path);
    await Deno.mkdir(join(full, ".."), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
}

/** A task folder over the buggy project: hidden test, reference patch, no environment yet. */
export async function writeTask(dir: string, id = "py-shelfcount-total"): Promise<string> {
  const taskDir = join(dir, id);
  await writeFiles(join(taskDir, "repo"), projectFiles({ bug: true }));
  await writeFiles(join(taskDir, "hidden"), { "tests/test_total.py": HIDDEN_TEST });
  await Deno.writeTextFile(
    join(taskDir, "solution.patch"),
    `--- a/src/shelfcount/inventory.py
+++ b/src/shelfcount/inventory.py
@@ -16,7 +16,7 @@
 
 
 def total(shelves):
-    return sum(s.count for s in shelves[1:])
+    return sum(s.count for s in shelves)
 
 
 def emptiest(shelves):
`,
  );
  await Deno.writeTextFile(
    join(taskDir, "task.json"),
    JSON.stringify(
      {
        id,
        title: "Shelf totals skip a shelf",
        language: "python",
        difficulty: "easy",
        kind: "one_line_bug",
        statement: "The inventory total is short by the first shelf; fix total().",
        runner: "pytest",
        visible_tests: ["tests/test_inventory.py"],
        hidden_tests: ["tests/test_total.py"],
        fail_to_pass: ["tests/test_total.py::test_total_counts_every_shelf"],
        pass_to_pass: [
          "tests/test_inventory.py::test_take",
          "tests/test_inventory.py::test_emptiest",
          "tests/test_inventory.py::test_next_stocktake_clamps_to_month_end",
        ],
        protected_paths: ["tests/"],
      },
      null,
      2,
    ) + "\n",
  );
  return taskDir;
}

/**
 * Whether the package index pip is configured with has `name` (a download without dependencies);
 * tests that need it skip with a note when it does not.
 */
export async function pipHas(name: string): Promise<boolean> {
  const dir = await Deno.makeTempDir();
  try {
    const out = await new Deno.Command("/usr/bin/python3", {
      args: ["-m", "pip", "download", "--no-deps", "-q", "-d", dir, name],
      env: { PIP_RETRIES: "0", PIP_TIMEOUT: "5" },
      stdout: "null",
      stderr: "null",
    }).output().catch(() => null);
    return out?.success ?? false;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
