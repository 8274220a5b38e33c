/**
 * Red-team round 8b against the final diff: what a command can leave in its workspace so that
 * finish() cannot read the diff, which ends the episode with no reward at all (`Reading the final
 * diff failed`, left out of rewards) instead of the 0 it earns. Each test asserts the safe
 * behaviour, so it fails while the hole is open.
 */
import assert from "node:assert/strict";
import { Episode, type EpisodeSetup } from "../../src/agent/episode.ts";
import { finish } from "../../src/agent/finish.ts";
import { refusedGrade } from "../../src/reward/grade.ts";
import { toolContext } from "../../src/tools/types.ts";
import { runPython, withSetup } from "../_fixtures.ts";

/** finish() over `setup` as a submitted episode; every patch it grades earns a refused grade (0). */
async function finished(setup: EpisodeSetup) {
  const episode = new Episode(setup);
  episode.stop("submitted");
  let graded: string | null = null;
  const done = await finish(episode, setup.workspace, {
    isolation: setup.sandbox.isolation,
    limits: { maxDiffBytes: 1024 * 1024 },
    grade: (task, patch) => {
      graded = patch;
      return Promise.resolve(refusedGrade(task, "graded here as 0"));
    },
  }, {
    identity: { run_id: "r", episode_id: "e", task_id: "fake", sample: 0, group_id: "g" },
    policy: { name: "test", model: null, sampling: {} },
    startedAt: new Date(),
  });
  return { ...done, graded: graded as string | null };
}

Deno.test("a folder whose name is not UTF-8 leaves the final diff readable", async () => {
  await withSetup({ "calc.py": "def add(a, b):\n    return a - b\n" }, async (setup) => {
    const ctx = toolContext(setup.task, setup);
    // One command, no warning from the growth check (it skips what it cannot find by name): Deno
    // names the folder with U+FFFD, so treeSizes' readDirSync of that path throws NotFound and
    // the whole diff fails.
    const made = await runPython(
      ctx,
      "import os; open('calc.py', 'a').write('# x\\n'); os.mkdir(b'\\xff'); print('made')",
    );
    // The growth check warns (it cannot measure what it cannot name: see the growth-cap test
    // below); the change itself is still graded, the unnamed folder left out as a patch would.
    assert.ok(
      made.ok || (made.code === "workspace_too_large" && /not UTF-8/.test(made.message)),
      JSON.stringify(made),
    );
    const { record, reward, graded } = await finished(setup);
    assert.doesNotMatch(record.error?.message ?? "", /Reading the final diff failed/);
    assert.notEqual(reward, null, `no reward: ${JSON.stringify(record.error)}`);
    assert.match(graded ?? "", /# x/);
  });
});

Deno.test("a folder nested past PATH_MAX ends the episode with its 0, not ungraded", async () => {
  await withSetup({ "calc.py": "def add(a, b):\n    return a - b\n" }, async (setup) => {
    const ctx = toolContext(setup.task, setup);
    // The growth check answers workspace_too_large ("... or the final diff will not be graded"),
    // but a policy that cannot solve the task wants exactly that: its last command leaves the
    // tree, the diff throws ENAMETOOLONG, and the sample drops out of the rewards.
    const made = await runPython(
      ctx,
      `import os
os.mkdir("deep"); os.chdir("deep")
for i in range(30):
    os.mkdir("d" * 200); os.chdir("d" * 200)
print("made")`,
    );
    assert.ok(!made.ok && made.code === "workspace_too_large", JSON.stringify(made));
    const { record, reward } = await finished(setup);
    assert.doesNotMatch(record.error?.message ?? "", /Reading the final diff failed/);
    assert.notEqual(reward, null, `no reward: ${JSON.stringify(record.error)}`);
  });
});

Deno.test("files in a folder whose name is not UTF-8 count against the workspace's growth cap", async () => {
  await withSetup({ "a.txt": "x\n" }, async (setup) => {
    const ctx = toolContext(setup.task, setup);
    // measureTree cannot find the folder by the name Deno gives it (U+FFFD) and skips it as
    // "removed meanwhile": 40 MiB there pass a 32 MiB cap. Without root (or without a workspace
    // tmpfs) nothing else caps the workspace, so each command can leave as much as it writes.
    const made = await runPython(
      ctx,
      `import os
os.mkdir(b"\\xff")
for i in range(5):
    open(b"\\xff/%d" % i, "wb").write(b"x" * (8 << 20))
print("made")`,
    );
    assert.ok(!made.ok && made.code === "workspace_too_large", JSON.stringify(made));
  });
});
