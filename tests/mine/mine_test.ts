import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../../src/agent/environment.ts";
import { isTestPath, mineRepository } from "../../src/mine/mine.ts";
import { validateTask } from "../../src/rollout/validate.ts";
import { pipHas, writeFiles } from "../env/_fixture.ts";
import { gitMetadata, writeHistory } from "./_history.ts";

Deno.env.set("PIP_RETRIES", Deno.env.get("PIP_RETRIES") ?? "0");
Deno.env.set("PIP_TIMEOUT", Deno.env.get("PIP_TIMEOUT") ?? "5");
const HAS_DATEUTIL = await pipHas("python-dateutil");
if (!HAS_DATEUTIL) {
  console.warn(
    "tests/mine/mine_test.ts: skipping mining: the package index pip is configured with lacks python-dateutil",
  );
}

Deno.test("isTestPath() tells tests and test data from code", () => {
  for (
    const path of [
      "tests/test_a.py",
      "pkg/tests/data/x.json",
      "test_b.py",
      "a/b_test.py",
      "conftest.py",
    ]
  ) {
    assert.ok(isTestPath(path), path);
  }
  for (const path of ["src/pkg/a.py", "pkg/testament.py", "docs/testing.md"]) {
    assert.ok(!isTestPath(path), path);
  }
});

Deno.test({
  name: "mineRepository() makes valid tasks from fix commits, hides test changes and resumes",
  ignore: !HAS_DATEUTIL,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "patchgym-mine-test-" });
    try {
      const history = await writeHistory(join(root, "shelfcount"));
      const out = join(root, "mined");
      const open = () =>
        Environment.open({
          tasksDir: out,
          workRoot: join(root, "work"),
          envCache: join(root, "cache"),
        });
      Deno.mkdirSync(out);
      const options = { outDir: out, envCache: join(root, "cache"), maxCommits: 20 };
      const report = await mineRepository(history.dir, { ...options, environment: await open() });
      const fixId = `shelfcount-${history.fix.slice(0, 10)}`;
      const featureId = `shelfcount-${history.feature.slice(0, 10)}`;
      assert.deepEqual(report.tasks.sort(), [fixId, featureId].sort());
      assert.equal(report.distinct_f2p_sets, 2);
      assert.equal(report.statements, "template");
      const reasons = Object.fromEntries(
        report.records.map((r) => [r.commit, r.reason ?? r.status]),
      );
      assert.match(reasons[history.docs], /^no code change/);
      assert.match(reasons[history.untested], /^no test change/);

      const fix = JSON.parse(readFileSync(join(out, fixId, "task.json"), "utf8"));
      assert.deepEqual(fix.fail_to_pass, ["tests/test_inventory.py::test_total"]);
      assert.ok(fix.pass_to_pass.includes("tests/test_inventory.py::test_take"));
      assert.equal(fix.provenance.upstream_commit, history.fix);
      assert.equal(fix.provenance.statement, "template");
      assert.ok(fix.provenance.made_at);
      assert.match(fix.statement, /Count the first shelf in total\(\)/);
      // The changed test file is shown at its base version; the new test is hidden.
      const visible = readFileSync(join(out, fixId, "repo/tests/test_inventory.py"), "utf8");
      assert.ok(!visible.includes("test_total"));
      assert.ok(
        readFileSync(join(out, fixId, "hidden/tests/test_inventory.py"), "utf8").includes(
          "test_total",
        ),
      );
      // No git history in the workspace: no later commits, tags, reflogs or remotes.
      assert.deepEqual(gitMetadata(join(out, fixId, "repo")), []);

      const feature = JSON.parse(readFileSync(join(out, featureId, "task.json"), "utf8"));
      assert.deepEqual(feature.hidden_data, ["tests/data/shelves.json"]);
      assert.ok(
        !existsSync(join(out, featureId, "repo/tests/data/shelves.json")),
        "test data hidden",
      );
      assert.equal(feature.environment, "env.lock");

      const env = await open();
      for (const id of [fixId, featureId]) {
        assert.equal((await validateTask(env, id)).status, "valid");
      }

      // A second run resumes: every commit is already decided.
      const again = await mineRepository(history.dir, { ...options, environment: env });
      assert.deepEqual(again.tasks.sort(), report.tasks.sort());
      // --retry-dropped looks at the dropped commits again, and only at them.
      const outcomes = new Map<string, string>();
      const kept = new Map<string, boolean>();
      const retried = await mineRepository(history.dir, {
        ...options,
        environment: env,
        retryDropped: true,
        onProgress: (e) => {
          outcomes.set(e.commit, e.outcome);
          kept.set(e.commit, e.kept);
        },
      });
      assert.deepEqual(retried.tasks.sort(), report.tasks.sort());
      assert.equal(outcomes.get(history.docs), "dropped");
      assert.equal(outcomes.get(history.fix), "resumed");
      assert.equal(kept.get(history.fix), true, "a resumed task still counts as kept");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

// Seen on a real repository: a pass_to_pass test that compares an object with its own __eq__ to
// a literal passes in a plain run and fails under grading (plain values only), so the whole
// commit was dropped as "not valid"; now that test is left out of the lists and counted.
Deno.test("mineRepository() leaves out tests the grader judges otherwise than a plain run", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-mine-graded-" });
  try {
    const repo = join(root, "keys");
    const git = async (...args: string[]) => {
      const out = await new Deno.Command("git", {
        args: ["-C", repo, ...args],
        env: {
          GIT_AUTHOR_NAME: "Test",
          GIT_AUTHOR_EMAIL: "test@example.com",
          GIT_COMMITTER_NAME: "Test",
          GIT_COMMITTER_EMAIL: "test@example.com",
          GIT_CONFIG_GLOBAL: "/dev/null",
        },
        stdout: "null",
        stderr: "piped",
      }).output();
      assert.ok(out.success, new TextDecoder().decode(out.stderr));
    };
    const keys = (fixed: boolean) =>
      `class Key:\n    def __init__(self, text):\n        self.text = text\n\n    def __eq__(self, other):\n        return self.text == getattr(other, "text", other)\n\n\ndef normalize(text):\n    return ${
        fixed ? "text.strip().lower()" : "text.strip()"
      }\n`;
    const tests =
      'from keys import Key, normalize\n\n\ndef test_key_equals_text():\n    k = Key("foo")\n    assert k == "foo"\n\n\ndef test_strip():\n    assert normalize(" a ") == "a"\n';
    await writeFiles(repo, { "keys.py": keys(false), "tests/test_keys.py": tests });
    await git("init", "-q", "-b", "main");
    await git("add", "-A");
    await git("commit", "-q", "-m", "Keys");
    await writeFiles(repo, {
      "keys.py": keys(true),
      "tests/test_keys.py": tests +
        '\n\ndef test_lower():\n    assert normalize("AB") == "ab"\n',
    });
    await git("commit", "-q", "-am", "Normalize keys to lower case");
    const out = join(root, "mined");
    Deno.mkdirSync(out);
    const environment = await Environment.open({
      tasksDir: out,
      workRoot: join(root, "work"),
      envCache: join(root, "cache"),
    });
    const report = await mineRepository(repo, {
      outDir: out,
      environment,
      envCache: join(root, "cache"),
      maxCommits: 5,
    });
    assert.equal(report.tasks.length, 1, JSON.stringify(report.records));
    assert.equal(report.records[0].graded_out, 1);
    const spec = JSON.parse(readFileSync(join(out, report.tasks[0], "task.json"), "utf8"));
    assert.deepEqual(spec.fail_to_pass, ["tests/test_keys.py::test_lower"]);
    assert.deepEqual(spec.pass_to_pass, ["tests/test_keys.py::test_strip"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
