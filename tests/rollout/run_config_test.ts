import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../src/errors.ts";
import { newRunId, readRunConfig } from "../../src/rollout/run_config.ts";

async function withDir(fn: (dir: string) => void): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-run-config-" });
  try {
    fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("newRunId() is a safe folder name with the UTC time", () => {
  const id = newRunId(new Date("2026-11-22T06:36:55.123Z"));
  assert.match(id, /^run-20261122T063655Z-[0-9a-f]{6}$/);
});

// Issue 14: a foreign or broken run.json crashed --resume with a stack trace.
Deno.test("readRunConfig() explains a missing, broken or foreign run.json in one line", async () => {
  await withDir((dir) => {
    assert.throws(() => readRunConfig(dir), /has no run\.json; give the folder of an earlier/);
    writeFileSync(join(dir, "run.json"), "{not json");
    assert.throws(() => readRunConfig(dir), /is not valid JSON/);
    writeFileSync(join(dir, "run.json"), JSON.stringify({ name: "my-app" }));
    assert.throws(
      () => readRunConfig(dir),
      (e) => e instanceof UsageError && /is not a patchgym run/.test(e.message),
    );
    writeFileSync(join(dir, "run.json"), JSON.stringify({ format: "patchgym.run.v1", tasks: [] }));
    assert.throws(() => readRunConfig(dir), /is damaged: run_id: /);
  });
});
