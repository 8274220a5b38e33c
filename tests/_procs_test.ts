import assert from "node:assert/strict";
import { killMarked, markedProcesses } from "./_procs.ts";

// Issue 25: a Ray cluster outlived its failed test; its processes are found by their mark.
Deno.test("killMarked() finds a marked process in another session and kills it", async () => {
  const mark = crypto.randomUUID();
  const child = new Deno.Command("setsid", {
    args: ["sleep", "30"],
    env: { PGTEST_PROCS: mark },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    let found: { pid: number; command: string }[] = [];
    for (let i = 0; i < 100 && found.length === 0; i++) {
      found = await markedProcesses("PGTEST_PROCS", mark);
      if (found.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    assert.deepEqual(found.map((p) => p.command), ["sleep 30"]);
    assert.deepEqual((await killMarked("PGTEST_PROCS", mark)).map((p) => p.pid), [child.pid]);
    assert.equal((await child.status).signal, "SIGKILL");
    assert.deepEqual(await markedProcesses("PGTEST_PROCS", mark), []);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await child.status;
  }
});
