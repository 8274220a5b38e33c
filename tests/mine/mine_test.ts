import assert from "node:assert/strict";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../../src/agent/environment.ts";
import { mineRepository } from "../../src/mine/mine.ts";
import { validateTask } from "../../src/rollout/validate.ts";
import { pipHas } from "../env/_fixture.ts";
import { commit, git, gitMetadata, writeHistory } from "./_history.ts";
import {
  npmHas,
  writeDenoHistory,
  writeJestHistory,
  writeNodeHistory,
  writeVitestHistory,
} from "./_js_history.ts";
import { runLauncher } from "../cli/_run.ts";

Deno.env.set("PIP_RETRIES", Deno.env.get("PIP_RETRIES") ?? "0");
Deno.env.set("PIP_TIMEOUT", Deno.env.get("PIP_TIMEOUT") ?? "5");
const HAS_DATEUTIL = await pipHas("python-dateutil");
if (!HAS_DATEUTIL) {
  console.warn(
    "tests/mine/mine_test.ts: skipping mining: the package index pip is configured with lacks python-dateutil",
  );
}

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

const HAS_JEST = await npmHas("jest@29.7.0");
const HAS_MS = await npmHas("ms@2.1.3");
for (const [has, what] of [[HAS_JEST, "jest@29.7.0"], [HAS_MS, "ms@2.1.3"]] as const) {
  if (!has) {
    console.warn(
      `tests/mine/mine_test.ts: skipping mining with ${what}: the registry npm is configured with lacks it`,
    );
  }
}

/** `deno task patchgym validate` of every task in `out`: its summary line, which must be all valid. */
async function validateAll(out: string, cache: string): Promise<string> {
  const run = await runLauncher(["validate", "--tasks-dir", out, "--env-cache", cache]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  return run.stdout + run.stderr;
}

Deno.test("mineRepository() mines a node --test repository: ids as node_test reports them, test data hidden, resumes", async () => {
  const root = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-mine-node-test-" }));
  try {
    const history = await writeNodeHistory(join(root, "tallyup"));
    const out = join(root, "mined");
    const cache = join(root, "cache");
    Deno.mkdirSync(out);
    const open = () =>
      Environment.open({ tasksDir: out, workRoot: join(root, "work"), envCache: cache });
    const options = { outDir: out, envCache: cache, maxCommits: 20 };
    const report = await mineRepository(history.dir, { ...options, environment: await open() });
    const fixId = `tallyup-${history.fix.slice(0, 10)}`;
    const featureId = `tallyup-${history.feature!.slice(0, 10)}`;
    assert.deepEqual(report.tasks.sort(), [fixId, featureId].sort());
    assert.match(
      report.runner,
      /^node_test \(from package\.json scripts\.test "node --test test\/"\)/,
    );
    assert.equal(report.distinct_f2p_sets, 2);
    const reasons = Object.fromEntries(report.records.map((r) => [r.commit, r.reason ?? r.status]));
    assert.match(reasons[history.docs!], /^no code change: no javascript file/);

    const fix = JSON.parse(readFileSync(join(out, fixId, "task.json"), "utf8"));
    assert.deepEqual([fix.language, fix.runner], ["javascript", "node_test"]);
    assert.deepEqual(fix.fail_to_pass, ["test/tally.test.js::sum > adds every count"]);
    assert.deepEqual(fix.pass_to_pass.sort(), [
      "test/tally.test.js::low > names the items below the limit",
      "test/tally.test.js::sum > is zero without items",
    ]);
    // The test that passes and fails by turns is in neither list.
    const fixRecord = report.records.find((r) => r.commit === history.fix)!;
    assert.equal(fixRecord.flaky, 1);
    assert.ok(![...fix.fail_to_pass, ...fix.pass_to_pass].some((id) => id.includes("running")));
    assert.equal(fix.environment, undefined, "no dependencies, no environment");
    assert.equal(fix.provenance.upstream_commit, history.fix);
    assert.ok(fix.provenance.made_at);
    assert.match(fix.statement, /^Count the first item in sum\(\)/);
    assert.match(fix.statement, /adds every count \(test\/tally\.test\.js\): .*5 !== 7/);
    assert.ok(
      !readFileSync(join(out, fixId, "repo/test/tally.test.js"), "utf8").includes("adds every"),
    );
    assert.deepEqual(gitMetadata(join(out, fixId, "repo")), []);

    // The new test file imports code the fix adds: run apart, it does not fail the others.
    const feature = JSON.parse(readFileSync(join(out, featureId, "task.json"), "utf8"));
    assert.deepEqual(feature.fail_to_pass, [
      "test/csv.test.js::counts are numbers",
      "test/csv.test.js::reads every item",
    ]);
    assert.equal(feature.pass_to_pass.length, 3);
    assert.deepEqual(feature.hidden_data, ["test/data/items.csv"]);
    assert.ok(!existsSync(join(out, featureId, "repo/test/data/items.csv")), "test data hidden");

    const again = await mineRepository(history.dir, { ...options, environment: await open() });
    assert.deepEqual(again.tasks.sort(), report.tasks.sort());
    assert.match(await validateAll(out, cache), /2\/2 tasks valid/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mineRepository() drops every commit of a vitest repository, naming vitest and why", async () => {
  const root = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-mine-vitest-test-" }));
  try {
    const history = await writeVitestHistory(join(root, "vitally"));
    const out = join(root, "mined");
    Deno.mkdirSync(out);
    const environment = await Environment.open({ tasksDir: out, workRoot: join(root, "work") });
    const report = await mineRepository(history.dir, {
      outDir: out,
      environment,
      envCache: join(root, "cache"),
      maxCommits: 5,
    });
    assert.deepEqual(report.tasks, []);
    assert.match(report.runner, /^none: unsupported test runner vitest .*permission model/);
    assert.match(report.records[0].reason!, /^unsupported test runner vitest/);
    assert.ok(!existsSync(join(root, "cache")), "nothing installed");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mineRepository() says why a Deno repository importing from jsr: cannot be mined", async () => {
  const root = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-mine-jsr-test-" }));
  try {
    const dir = join(root, "adder");
    await Deno.mkdir(dir);
    await git(dir, "init", "-q", "-b", "main");
    const test =
      'import { assertEquals } from "@std/assert";\nimport { add } from "./mod.ts";\n\n' +
      'Deno.test("zero", () => assertEquals(add(0, 0), 0));\n';
    await commit(dir, "Start adder", {
      "deno.json": '{ "imports": { "@std/assert": "jsr:@std/assert@^1.0.0" } }\n',
      "mod.ts": "export const add = (a: number, b: number) => a - b;\n",
      "mod_test.ts": test,
    });
    await commit(dir, "Add, not subtract", {
      "mod.ts": "export const add = (a: number, b: number) => a + b;\n",
      "mod_test.ts": test + 'Deno.test("adds", () => assertEquals(add(1, 2), 3));\n',
    });
    const out = join(root, "mined");
    Deno.mkdirSync(out);
    const environment = await Environment.open({ tasksDir: out, workRoot: join(root, "work") });
    const report = await mineRepository(dir, {
      outDir: out,
      environment,
      envCache: join(root, "cache"),
      maxCommits: 5,
    });
    assert.deepEqual(report.tasks, []);
    assert.match(
      report.records[0].reason!,
      /^tests do not run after the fix: error: .*"@std\/assert".*; its deno config imports "@std\/assert" from jsr: or https:/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name: "patchgym mine mines a jest repository with its npm environment from package-lock.json",
  ignore: !HAS_JEST,
  async fn() {
    const root = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-mine-jest-test-" }));
    try {
      const history = await writeJestHistory(join(root, "binpack"));
      const out = join(root, "mined");
      const cache = join(root, "cache");
      const run = await runLauncher([
        "mine",
        history.dir,
        "--out",
        out,
        "--env-cache",
        cache,
        "--json",
      ]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const report = JSON.parse(run.stdout);
      const id = `binpack-${history.fix.slice(0, 10)}`;
      assert.deepEqual(report.tasks, [id]);
      assert.match(report.runner, /^jest /);
      const spec = JSON.parse(readFileSync(join(out, id, "task.json"), "utf8"));
      assert.deepEqual([spec.language, spec.runner], ["javascript", "jest"]);
      assert.deepEqual(spec.fail_to_pass, [
        "test/bins.test.js::fits > an item as large as the space left fits",
      ]);
      assert.deepEqual(spec.pass_to_pass.sort(), [
        "test/bins.test.js::pack > opens a bin when nothing fits",
        "test/bins.test.js::pack > puts small items together",
      ]);
      assert.equal(spec.environment, "env.lock");
      const lock = JSON.parse(readFileSync(join(out, id, "env.lock"), "utf8"));
      assert.equal(lock.ecosystem, "npm");
      assert.ok(lock.packages.includes("jest@29.7.0"));
      assert.ok(existsSync(join(out, id, "repo/package-lock.json")));
      assert.ok(!existsSync(join(out, id, "repo/node_modules")));
      assert.match(await validateAll(out, cache), /1\/1 tasks valid/);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "patchgym mine mines a Deno repository with its npm: imports from a Deno environment",
  ignore: !HAS_MS,
  async fn() {
    const root = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-mine-deno-test-" }));
    try {
      const history = await writeDenoHistory(join(root, "delayfmt"));
      const out = join(root, "mined");
      const cache = join(root, "cache");
      const run = await runLauncher([
        "mine",
        history.dir,
        "--out",
        out,
        "--env-cache",
        cache,
      ]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /Test runner: deno_test \(from deno\.json\)/);
      const id = `delayfmt-${history.fix.slice(0, 10)}`;
      const spec = JSON.parse(readFileSync(join(out, id, "task.json"), "utf8"));
      assert.deepEqual([spec.language, spec.runner], ["typescript", "deno_test"]);
      assert.deepEqual(spec.fail_to_pass, [
        "tests/delay_test.ts::seconds are milliseconds over a thousand",
      ]);
      assert.deepEqual(spec.pass_to_pass, ["tests/delay_test.ts::milliseconds pass through"]);
      assert.match(spec.statement, /expected 2, got 20/);
      const lock = JSON.parse(readFileSync(join(out, id, "env.lock"), "utf8"));
      assert.deepEqual([lock.ecosystem, lock.packages], ["deno", ["ms@2.1.3"]]);
      // The repository had no deno.lock: the one the build wrote goes with the task.
      assert.ok(existsSync(join(out, id, "repo/deno.lock")));
      assert.deepEqual(gitMetadata(join(out, id, "repo")), []);
      assert.match(await validateAll(out, cache), /1\/1 tasks valid/);
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
    const keys = (fixed: boolean) =>
      `class Key:\n    def __init__(self, text):\n        self.text = text\n\n    def __eq__(self, other):\n        return self.text == getattr(other, "text", other)\n\n\ndef normalize(text):\n    return ${
        fixed ? "text.strip().lower()" : "text.strip()"
      }\n`;
    const tests =
      'from keys import Key, normalize\n\n\ndef test_key_equals_text():\n    k = Key("foo")\n    assert k == "foo"\n\n\ndef test_strip():\n    assert normalize(" a ") == "a"\n';
    Deno.mkdirSync(repo);
    await git(repo, "init", "-q", "-b", "main");
    await commit(repo, "Keys", { "keys.py": keys(false), "tests/test_keys.py": tests });
    await commit(repo, "Normalize keys to lower case", {
      "keys.py": keys(true),
      "tests/test_keys.py": tests +
        '\n\ndef test_lower():\n    assert normalize("AB") == "ab"\n',
    });
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
