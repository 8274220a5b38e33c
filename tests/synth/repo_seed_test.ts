import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";
import { repositorySeed, testModules, VERSION_STUB } from "../../src/synth/repo_seed.ts";
import { synthesize } from "../../src/synth/synth.ts";
import { writeFiles } from "../env/_fixture.ts";

// A repository whose package imports the version module its build backend would write.
const REPO = {
  "pyproject.toml":
    '[project]\nname = "vpkg"\ndynamic = ["version"]\n[tool.setuptools_scm]\nversion_file = "vpkg/_version.py"\n',
  "vpkg/__init__.py": "from ._version import version\n",
  "vpkg/calc.py": "def area(w, h):\n    return w * h\n\n\ndef grow(w, by=1):\n    return w + by\n",
  "tests/test_calc.py":
    "from vpkg.calc import area, grow\n\n\ndef test_area():\n    assert area(2, 3) == 6\n\n\ndef test_grow():\n    assert grow(2) == 3\n",
};

Deno.test("repositorySeed() seeds synthesis from a plain repository, with a stub for its version module", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-repo-seed-" });
  try {
    await writeFiles(join(root, "vpkg-repo"), REPO);
    assert.deepEqual(testModules(join(root, "vpkg-repo")), ["tests/test_calc.py"]);
    Deno.mkdirSync(join(root, "scratch"));
    const seed = repositorySeed(join(root, "vpkg-repo"), join(root, "scratch"));
    assert.equal(seed.spec.id, "repo-vpkg-repo");
    const report = await synthesize([seed], {
      sandbox: new Sandbox({ isolation: await probeIsolation() }),
      workRoot: root,
      outDir: join(root, "out"),
      perSeed: 4,
      multiPerSeed: 0,
      seedFiles: () => ({ "vpkg/_version.py": VERSION_STUB }),
    });
    assert.equal(report.seeds[0].problem, null);
    assert.equal(report.seeds[0].passing_tests, 2);
    assert.ok(report.written.length > 0, JSON.stringify(report));
    for (const id of report.written) {
      const repo = join(root, "out", id, "repo");
      assert.equal(readFileSync(join(repo, "vpkg/_version.py"), "utf8"), VERSION_STUB);
      assert.ok(!existsSync(join(repo, ".patchgym")));
    }
    // Nothing was written into the repository itself.
    assert.ok(!existsSync(join(root, "vpkg-repo", "vpkg/_version.py")));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

// Seen on real repositories: a suite of parametrized tests, and of unittest classes taking their
// tests from a mixin in another module, gave synthesis few or no passing tests (the files name
// functions, the run names cases), so nearly every mutant was dropped as equivalent.
Deno.test("synthesize() takes a repository's tests from what a run reports: parametrized cases, inherited methods", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-repo-seed-" });
  try {
    await writeFiles(join(root, "dbl"), {
      "calc.py": "def double(x):\n    return x * 2\n",
      "tests/__init__.py": "",
      "tests/mixins.py":
        "from calc import double\n\n\nclass DoubleMixin:\n    def test_double_zero(self):\n        self.assertEqual(double(0), 0)\n",
      "tests/test_calc.py":
        'import unittest\n\nimport pytest\n\nfrom calc import double\n\nfrom .mixins import DoubleMixin\n\n\n@pytest.mark.parametrize("x, expected", [(1, 2), (2, 4), (5, 10)])\ndef test_double(x, expected):\n    assert double(x) == expected\n\n\nclass DoubleTest(unittest.TestCase, DoubleMixin):\n    pass\n',
    });
    Deno.mkdirSync(join(root, "scratch"));
    const seed = repositorySeed(join(root, "dbl"), join(root, "scratch"));
    const report = await synthesize([seed], {
      sandbox: new Sandbox({ isolation: await probeIsolation() }),
      workRoot: root,
      outDir: join(root, "out"),
      perSeed: 6,
      multiPerSeed: 0,
    });
    assert.equal(report.seeds[0].problem, null);
    assert.equal(report.seeds[0].passing_tests, 4, JSON.stringify(report.seeds[0]));
    assert.ok(report.written.length > 0, JSON.stringify(report));
    const f2p = report.written.flatMap((id) =>
      JSON.parse(readFileSync(join(root, "out", id, "task.json"), "utf8")).fail_to_pass
    );
    assert.ok(
      f2p.some((id: string) => id.startsWith("tests/test_calc.py::test_double[")),
      f2p.join(),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
