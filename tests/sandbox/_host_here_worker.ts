/**
 * A worker thread for spawner_test.ts: it calls `spawnOnThisThread`, runs one child and one helper
 * request through a `Spawner`, and answers what it got and whether a spawner thread was started.
 */
/// <reference lib="deno.worker" />
import { spawnOnThisThread } from "../../src/sandbox/sandbox.ts";
import { Spawner } from "../../src/sandbox/_spawner.ts";
import type { Launcher } from "../../src/sandbox/_launch.ts";

self.onmessage = async (event: MessageEvent<{ launcher: Launcher; cwd: string }>) => {
  spawnOnThisThread();
  const spawner = new Spawner(event.data.launcher);
  const child = await spawner.run({
    argv: ["echo", "here"],
    cwd: event.data.cwd,
    env: { PATH: "/usr/bin:/bin" },
    stdin: null,
    cap: 1024,
    timeoutMs: 10_000,
    detached: true,
    killGroup: true,
    sweep: null,
  });
  const helper = await spawner.helper("kill", ["2147483646"]);
  self.postMessage({
    stdout: child.stdout,
    helper: helper.success,
    threadRunning: spawner.threadRunning,
  });
};
