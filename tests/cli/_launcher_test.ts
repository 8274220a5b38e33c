import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { childEnv, launcherArgv, ROOT } from "./_run.ts";

/** Whether process `pid` exists (`kill -0`). */
function running(pid: number): boolean {
  return new Deno.Command("kill", { args: ["-0", String(pid)], stderr: "null" }).outputSync()
    .success;
}

/** The pid in a process folder's `.owner` mark under `work`, once one exists. */
async function ownerPid(work: string): Promise<number> {
  for (let i = 0; i < 300; i++) {
    const dir = existsSync(work) ? readdirSync(work).find((d) => d.startsWith("proc-")) : undefined;
    if (dir && existsSync(join(work, dir, ".owner"))) {
      return JSON.parse(readFileSync(join(work, dir, ".owner"), "utf8")).pid;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`No process folder appeared in ${work}`);
}

// A launcher killed with SIGKILL cannot pass a signal on: main.ts must not outlive it.
Deno.test("exitWithLauncher() stops main.ts and removes its workspaces when the launcher dies", async () => {
  const work = await Deno.makeTempDir({ prefix: "patchgym-launcher-" });
  const argv = launcherArgv(["serve", "--stdio", "--work-dir", work]);
  const launcher = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: ROOT,
    clearEnv: true,
    env: childEnv(),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let pid = 0;
  try {
    const writer = launcher.stdin.getWriter();
    await writer.write(new TextEncoder().encode('{"op":"reset","task_id":"py-median-even"}\n'));
    const reader = launcher.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const first = await reader.read();
    assert.match(first.value ?? "", /"episode_id"/);
    pid = await ownerPid(work);
    assert.notEqual(pid, launcher.pid, "main.ts runs as the launcher's child");
    launcher.kill("SIGKILL");
    await launcher.status;
    let alive = true;
    for (let i = 0; i < 250 && alive; i++) {
      alive = running(pid);
      if (alive) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(alive, false, "main.ts exited");
    assert.deepEqual(readdirSync(work), [], "its workspaces are gone");
    await writer.abort().catch(() => {});
    await reader.cancel().catch(() => {});
  } finally {
    try {
      launcher.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await launcher.status;
    if (pid && running(pid)) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    await Deno.remove(work, { recursive: true });
  }
});
