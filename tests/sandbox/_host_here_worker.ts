/**
 * A worker thread for spawner_test.ts: it calls `spawnOnThisThread`, runs one child and one helper
 * request through a `Spawner`, and two commands of an episode through a `Sandbox` (the second in
 * a jail made ahead, where jails are), and answers what it got and whether a spawner thread was
 * started.
 */
/// <reference lib="deno.worker" />
import { type IsolationInfo, Sandbox, spawnOnThisThread } from "../../src/sandbox/sandbox.ts";
import { Spawner } from "../../src/sandbox/_spawner.ts";
import { echoSpec } from "../_fixtures.ts";
import type { Launcher } from "../../src/sandbox/_launch.ts";

self.onmessage = async (
  event: MessageEvent<{ launcher: Launcher; cwd: string; isolation: IsolationInfo }>,
) => {
  spawnOnThisThread();
  const spawner = new Spawner(event.data.launcher);
  const child = await spawner.run(echoSpec("here", event.data.cwd));
  const helper = await spawner.helper("kill", ["2147483646"]);
  const sandbox = new Sandbox({ isolation: event.data.isolation });
  const cleanups: (() => Promise<void>)[] = [];
  const owner = { onRemove: (cleanup: () => Promise<void>) => void cleanups.push(cleanup) };
  const commands = [];
  for (let i = 0; i < 2; i++) {
    const run = await sandbox.run({
      argv: ["echo", "ran"],
      cwd: event.data.cwd,
      timeoutMs: 10_000,
      ahead: owner,
    });
    commands.push([run.stdout, run.ahead]);
    await sandbox.aheadReady();
  }
  await Promise.all(cleanups.map((cleanup) => cleanup()));
  self.postMessage({
    stdout: child.stdout,
    helper: helper.success,
    commands,
    threadRunning: spawner.threadRunning,
  });
};
