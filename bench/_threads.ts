/** This process's CPU by thread, from `/proc/self/task` (Linux): see {@linkcode threadCpu}. */

/** The kinds of thread {@linkcode threadCpu} adds up, as it names them. */
export const THREAD_KINDS = {
  main: "main thread (episodes, records)",
  spawner: "worker threads (the spawner)",
  v8: "V8 helpers (garbage collection, compilers)",
  pool: "blocking pool (asynchronous file calls)",
  other: "other threads",
} as const;

/**
 * CPU (ms, user and system) of this process's live threads by kind, from `/proc/self/task`
 * (clock ticks of 10 ms: use batches of a second or more), and their wake-ups (voluntary context
 * switches: the thread slept, and something woke it).
 */
export function threadCpu(): Map<string, { ms: number; wakeUps: number }> {
  const kinds = new Map<string, { ms: number; wakeUps: number }>();
  for (const entry of Deno.readDirSync("/proc/self/task")) {
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/self/task/${entry.name}/stat`);
    } catch {
      continue; // Ended meanwhile.
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    const kind = Number(entry.name) === Deno.pid
      ? THREAD_KINDS.main
      : name.startsWith("worker-")
      ? THREAD_KINDS.spawner
      : name.startsWith("V8 ")
      ? THREAD_KINDS.v8
      : name.startsWith("tokio-")
      ? THREAD_KINDS.pool
      : THREAD_KINDS.other;
    let wakeUps = 0;
    try {
      const status = Deno.readTextFileSync(`/proc/self/task/${entry.name}/status`);
      wakeUps = Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    } catch {
      // Ended meanwhile: its CPU is counted, its wake-ups are not.
    }
    const sum = kinds.get(kind) ?? { ms: 0, wakeUps: 0 };
    kinds.set(kind, { ms: sum.ms + ticks * 10, wakeUps: sum.wakeUps + wakeUps });
  }
  return kinds;
}
