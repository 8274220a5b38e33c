/**
 * A process for spawner_redteam_test.ts, where no other test starts serve processes: a `Spawner`
 * whose thread idles out after 100 ms answers one helper request; it prints (`RESULT {...}`) the
 * serve processes the request started, whether the thread still runs after 10 s, and which of
 * those servers are left 10 s after the thread ended. Argument: the compiled launcher's path.
 */
import { Spawner } from "../../src/sandbox/_spawner.ts";
import { servePids } from "./_launcher_fixture.ts";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const before = await servePids();
const spawner = new Spawner(Deno.args[0], { idleMs: 100 });
if (!(await spawner.helper("kill", ["2147483646"])).success) throw new Error("the request failed");
const started = (await servePids()).filter((pid) => !before.includes(pid));
for (let i = 0; i < 200 && spawner.threadRunning; i++) await wait(50);
let left = started;
for (let i = 0; i < 200 && left.length > 0; i++) {
  await wait(50);
  const now = await servePids();
  left = started.filter((pid) => now.includes(pid));
}
console.log(`RESULT ${JSON.stringify({ started, threadRunning: spawner.threadRunning, left })}`);
