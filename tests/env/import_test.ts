import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../../src/agent/environment.ts";
import { buildTaskEnvironment } from "../../src/env/task_env.ts";
import { validateTask } from "../../src/rollout/validate.ts";
import { importSwebench } from "../../src/task/import_swebench.ts";
import { writeHistory } from "../mine/_history.ts";
import { pipHas } from "./_fixture.ts";

Deno.env.set("PIP_RETRIES", Deno.env.get("PIP_RETRIES") ?? "0");
Deno.env.set("PIP_TIMEOUT", Deno.env.get("PIP_TIMEOUT") ?? "5");
const HAS_DATEUTIL = await pipHas("python-dateutil");
if (!HAS_DATEUTIL) {
  console.warn(
    "tests/env/import_test.ts: skipping: the package index pip is configured with lacks python-dateutil",
  );
}

async function git(dir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args: ["-C", dir, ...args], stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout);
}

// Issue 30: real records were 0 of 4 valid (src layout not importable, no collection error shown)
// and data files a test patch added landed in the visible repository.
Deno.test({
  name: "importSwebench() hides test data, and a built environment makes a src-layout record valid",
  ignore: !HAS_DATEUTIL,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "patchgym-import-env-" });
    try {
      const history = await writeHistory(join(root, "repos", "shop__shelfcount"));
      const base = (await git(history.dir, "rev-parse", `${history.feature}^`)).trim();
      const diff = (...paths: string[]) =>
        git(history.dir, "diff", base, history.feature, "--", ...paths);
      const record = {
        repo: "shop/shelfcount",
        instance_id: "shop__shelfcount-1",
        base_commit: base,
        patch: await diff("src"),
        test_patch: await diff("tests"),
        problem_statement: "Shelves cannot be loaded from a JSON file.",
        FAIL_TO_PASS: JSON.stringify([
          "tests/test_loading.py::test_load_reads_every_shelf",
          "tests/test_loading.py::test_load_then_emptiest",
        ]),
        PASS_TO_PASS: JSON.stringify(["tests/test_inventory.py::test_take"]),
      };
      // The same record with a test that cannot be collected even after the fix.
      const broken = {
        ...record,
        instance_id: "shop__shelfcount-2",
        test_patch: record.test_patch.replace(
          "from shelfcount.loading import load",
          "from shelfcount.loading import load, save",
        ),
      };
      const out = join(root, "tasks");
      const outcomes = await importSwebench(
        [record, broken].map((r) => JSON.stringify(r)).join("\n"),
        out,
        { reposDir: join(root, "repos") },
      );
      assert.deepEqual(outcomes.map((o) => o.problems), [[], []]);
      const dir = outcomes[0].dir!;
      const spec = JSON.parse(readFileSync(join(dir, "task.json"), "utf8"));
      assert.deepEqual(spec.hidden_data, ["tests/data/shelves.json"]);
      assert.ok(existsSync(join(dir, "hidden/tests/data/shelves.json")));
      assert.ok(!existsSync(join(dir, "repo/tests/data/shelves.json")), "data stays hidden");
      assert.equal(spec.provenance.made_by, "import");

      const cache = join(root, "cache");
      for (const o of outcomes) assert.ok(await buildTaskEnvironment(o.dir!, { cacheRoot: cache }));
      const env = await Environment.open({
        tasksDir: out,
        workRoot: join(root, "work"),
        envCache: cache,
      });
      const valid = await validateTask(env, outcomes[0].id!);
      assert.deepEqual(valid.problems, []);
      const invalid = await validateTask(env, outcomes[1].id!);
      assert.equal(invalid.status, "broken");
      assert.ok(
        invalid.problems.some((p) => p.includes("collection error") && p.includes("save")),
        invalid.problems.join("\n"),
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
