/**
 * Run in a process of its own, under a low open-file limit (`threads_test.ts`): takes every open
 * file it can, then asks for a new thread the way MODE does, and prints `RESULT {json}`. Deno
 * panics (and the process ends) when a worker starts with no files left; a result printed means
 * the process lived.
 *
 *   deno run -A tests/_out_of_files.ts MODE FOLDER
 */
import { Spawner } from "../src/sandbox/_spawner.ts";
import { runSearch } from "../src/tools/_search_pool.ts";
import { roomForThread } from "../src/threads.ts";
import { echoSpec } from "./_fixtures.ts";

const [mode, folder] = Deno.args;
const held: Deno.FsFile[] = [];
try {
  for (;;) held.push(Deno.openSync(folder));
} catch {
  // Out of open files.
}

async function outcome(work: () => Promise<unknown>): Promise<string> {
  try {
    return `ok ${JSON.stringify(await work())}`;
  } catch (error) {
    return `threw ${(error as Error).message}`;
  }
}

const spawner = new Spawner(null, { idleMs: 100 });
const echo = () => spawner.run(echoSpec("one", folder)).then((result) => result.stdout);
const search = () =>
  runSearch(
    {
      abs: folder,
      rel: ".",
      isDir: true,
      source: "needle",
      flags: "g",
      glob: null,
      maxResults: 10,
    },
    { timeoutMs: 10_000, room: folder },
  ).then((answer) => answer === "timeout" ? answer : answer.total);
const work = mode === "spawner" ? echo : search;

const result: Record<string, unknown> = { held: held.length };
if (mode === "probe") {
  result.full = roomForThread(folder);
} else {
  result.full = await outcome(work);
  result.threadFull = spawner.threadRunning;
}
for (const file of held.splice(0)) file.close();
if (mode === "probe") {
  result.freed = roomForThread(folder);
} else {
  result.freed = await outcome(work);
  result.threadFreed = spawner.threadRunning;
}
console.log(`RESULT ${JSON.stringify(result)}`);
