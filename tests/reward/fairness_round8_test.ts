/**
 * Red team round 8, the opposite side: correct solutions in styles the references do not use, for
 * tasks not yet in the fairness corpus; every one must earn 1.0.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { computeReward } from "../../src/reward/reward.ts";
import { FACTS, gradeHandwrittenIn, type Handwritten } from "./_corpus.ts";
import { TASKS_DIR, withEnv } from "./_grading.ts";
import { pytestTest } from "../_pytest.ts";

/** A pristine repository file of `task` with each `[from, to]` replaced (each must occur). */
function edited(task: string, path: string, edits: [string, string][]): string {
  let text = readFileSync(join(TASKS_DIR, task, "repo", path), "utf8");
  for (const [from, to] of edits) {
    assert.ok(text.includes(from), `${task}/${path}: ${from}`);
    text = text.split(from).join(to);
  }
  return text;
}

const GEO = "py-geometry-tolerance";
const DATES = "py-daterange-inclusive-end";
const DNA = "py-dna-last-codon";
const MATRIX = "ts-matrix-transpose-shape";
const STOCK = "py-inventory-restock";
const SETTINGS = "py-settings-lookup-rename";

const SOLUTIONS: Handwritten[] = [
  {
    name: "a tolerance held in a ContextVar, set by a generator-based context manager",
    task: GEO,
    files: {
      "geometry/tolerance.py": `"""The package-wide comparison tolerance."""
import contextlib
import contextvars

DEFAULT_EPSILON = 1e-9
_epsilon = contextvars.ContextVar("geometry_epsilon", default=DEFAULT_EPSILON)


def get_epsilon() -> float:
    return _epsilon.get()


def _checked(eps) -> float:
    if not eps > 0:
        raise ValueError(f"tolerance must be positive, got {eps!r}")
    return eps


def set_epsilon(eps) -> None:
    _epsilon.set(_checked(eps))


@contextlib.contextmanager
def tolerance(eps):
    token = _epsilon.set(_checked(eps))
    try:
        yield eps
    finally:
        _epsilon.reset(token)
`,
      "geometry/points.py": edited(GEO, "geometry/points.py", [
        [
          "from typing import NamedTuple",
          "from typing import NamedTuple\n\nfrom . import tolerance",
        ],
        [
          "return abs(a.x - b.x) <= 1e-9 and abs(a.y - b.y) <= 1e-9",
          "return max(abs(a.x - b.x), abs(a.y - b.y)) <= tolerance.get_epsilon()",
        ],
      ]),
      "geometry/polygons.py": edited(GEO, "geometry/polygons.py", [
        ["from .segments import cross", "from .segments import cross\nfrom . import tolerance"],
        ["<= 0.000000001", "<= tolerance.get_epsilon()"],
        ["<= 1e-9", "<= tolerance.get_epsilon()"],
      ]),
      "geometry/segments.py": edited(GEO, "geometry/segments.py", [
        ["EPS = 1e-9", "from .tolerance import get_epsilon as EPS"],
        ["<= EPS:", "<= EPS():"],
        [
          "min(a.x, b.x) - EPS <= p.x <= max(a.x, b.x) + EPS",
          "min(a.x, b.x) - EPS() <= p.x <= max(a.x, b.x) + EPS()",
        ],
        [
          "min(a.y, b.y) - EPS <= p.y <= max(a.y, b.y) + EPS",
          "min(a.y, b.y) - EPS() <= p.y <= max(a.y, b.y) + EPS()",
        ],
      ]),
    },
  },
  {
    name: "an inclusive DateRange iterated by ordinals, counted with a generator",
    task: DATES,
    files: {
      "dates/ranges.py": edited(DATES, "dates/ranges.py", [
        [
          "        return (self.end - self.start).days\n",
          "        return self.end.toordinal() - self.start.toordinal() + 1\n",
        ],
        [
          "        day = self.start\n        while day < self.end:\n            yield day\n            day += ONE_DAY\n",
          "        yield from map(date.fromordinal, range(self.start.toordinal(), self.end.toordinal() + 1))\n",
        ],
      ]),
      "dates/business.py": edited(DATES, "dates/business.py", [
        [
          "    count = 0\n    day = date_range.start\n    while day < date_range.end:\n        if is_business_day(day, holidays):\n            count += 1\n        day += ONE_DAY\n    return count\n",
          "    return sum(1 for day in date_range if is_business_day(day, holidays))\n",
        ],
      ]),
    },
  },
  {
    name: "codons read by zipping one iterator three times",
    task: DNA,
    files: {
      "genekit/translate.py": edited(DNA, "genekit/translate.py", [
        [
          "    return [seq[i:i + 3] for i in range(frame, len(seq) - 3, 3)]",
          '    bases = iter(seq[frame:])\n    return ["".join(triple) for triple in zip(bases, bases, bases)]',
        ],
      ]),
    },
  },
  {
    name: "a transpose built column by column with a generator and private helper",
    task: MATRIX,
    files: {
      "src/linalg/matrix.ts": edited(MATRIX, "src/linalg/matrix.ts", [
        [
          "    return Matrix.fromFunction(this.rows, this.cols, (i, j) => this.get(j, i));",
          "    return Matrix.fromRows([...this.#columns()]);\n  }\n\n  *#columns(): Generator<number[]> {\n    for (let j = 0; j < this.cols; j++) {\n      yield this.toRows().map((row) => row[j]);\n    }",
        ],
      ]),
    },
  },
  {
    name: "low stock as a filter over a predicate, the plan as a dict built from a generator",
    task: STOCK,
    files: {
      "inventory/store.py": edited(STOCK, "inventory/store.py", [
        [
          "        return sum(item.quantity for item in self._items.values())\n",
          `        return sum(item.quantity for item in self._items.values())

    @staticmethod
    def _is_low(item) -> bool:
        return 0 < item.reorder_level >= item.quantity

    def low_stock(self):
        """Items at or below their reorder level (level 0 excluded), in SKU order."""
        return list(filter(self._is_low, self))

    def restock_plan(self, multiplier=2):
        """Units to order per low-stock SKU to reach reorder_level * multiplier."""
        if not multiplier >= 1:
            raise ValueError(f"multiplier must be at least 1, got {multiplier!r}")
        wanted = ((item.sku, int(item.reorder_level * multiplier - item.quantity))
                  for item in self.low_stock())
        return dict(wanted)
`,
        ],
      ]),
    },
  },
  {
    name: "a deprecated alias made by a wrapping decorator factory",
    task: SETTINGS,
    files: {
      "settings/loader.py": edited(SETTINGS, "settings/loader.py", [
        ["import json\n", "import functools\nimport json\nimport warnings\n"],
        [
          "def get_setting(settings, key, default=None):",
          "def lookup(settings, key, default=None):",
        ],
        ["if get_setting(settings, key) in", "if lookup(settings, key) in"],
      ]) + `

def _deprecated_alias(target, old_name):
    """\`\`old_name\`\` as a deprecated alias of \`\`target\`\`: it warns, then delegates."""

    @functools.wraps(target)
    def alias(*args, **kwargs):
        warnings.warn(
            f"{old_name}() is deprecated; use {target.__name__}() instead",
            DeprecationWarning,
            stacklevel=2,
        )
        return target(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old_name
    return alias


get_setting = _deprecated_alias(lookup, "get_setting")
`,
      "settings/env.py": edited(SETTINGS, "settings/env.py", [
        [
          "from .loader import get_setting, set_setting",
          "from . import loader as _loader\nfrom .loader import set_setting",
        ],
        ["current = get_setting(settings, key)", "current = _loader.lookup(settings, key)"],
      ]),
      "settings/__init__.py": edited(SETTINGS, "settings/__init__.py", [
        [
          "get_setting, load_settings, set_setting",
          "get_setting, load_settings, lookup, set_setting",
        ],
        ['"load_settings", "set_setting",', '"load_settings", "lookup", "set_setting",'],
      ]),
    },
  },
];

for (const solution of SOLUTIONS) {
  pytestTest(`gradePatch() gives full reward to ${solution.name} (${solution.task})`, async () => {
    await withEnv(async (env) => {
      const grade = await gradeHandwrittenIn(env, solution);
      assert.equal(
        computeReward(grade, FACTS).total,
        1,
        JSON.stringify({ run: grade.run, failures: grade.failures }).slice(0, 3000),
      );
    });
  });
}
