import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const PROGRESS = fileURLToPath(new URL("../../src/cli/_progress.ts", import.meta.url));

/** What a script driving a Progress writes to stderr (not a terminal here). */
async function stderrOf(script: string): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", `import { Progress } from ${JSON.stringify(PROGRESS)};\n${script}`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stderr).replace(/\d+\.\d+s\)/g, "Ts)");
}

// Seen on real repositories: mine printed "reward=0 dropped: ... (mean 0.000, ...)" per commit.
Deno.test("Progress counts what is kept instead of a mean reward when told what it keeps", async () => {
  const text = await stderrOf(`
const p = new Progress(0, 0, 0, { kept: "tasks" });
p.setTotal(2);
p.tick("abc", 0, "dropped: no test change");
p.tick("def", 1, "task t-def");
p.finish();
`);
  assert.equal(
    text,
    "[1/2] abc dropped: no test change (0 tasks, Ts)\n[2/2] def task t-def (1 tasks, Ts)\n",
  );
});

Deno.test("Progress shows each sample's reward and the mean by default", async () => {
  const text = await stderrOf(`
const p = new Progress(2);
p.tick("a#0", 1, "submitted");
p.tick("b#0", 0, "max_turns");
`);
  assert.equal(
    text,
    "[1/2] a#0 reward=1 submitted (mean 1.000, Ts)\n[2/2] b#0 reward=0 max_turns (mean 0.500, Ts)\n",
  );
});
