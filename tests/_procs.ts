/**
 * Processes found by a mark in their environment. A test that starts a cluster or daemons gives
 * them `NAME=VALUE` in their environment, which every descendant inherits whatever process group
 * or session it moves to, and kills what is left by that mark in a `finally` (Linux /proc).
 */

/** A process still running with the mark. */
export interface MarkedProcess {
  pid: number;
  command: string;
}

/** Every process other than this one whose environment holds `name=value`. */
export function markedProcesses(name: string, value: string): MarkedProcess[] {
  const wanted = new TextEncoder().encode(`${name}=${value}`);
  const found: MarkedProcess[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    const pid = Number(entry.name);
    if (!Number.isInteger(pid) || pid === Deno.pid) continue;
    try {
      const environ = Deno.readFileSync(`/proc/${pid}/environ`);
      if (!hasEntry(environ, wanted)) continue;
      const command = new TextDecoder().decode(Deno.readFileSync(`/proc/${pid}/cmdline`))
        .replaceAll("\0", " ").trim();
      // A zombie has an empty command line and nothing left to kill.
      if (command) found.push({ pid, command });
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/** SIGKILL every process with the mark; returns what was still running. */
export function killMarked(name: string, value: string): MarkedProcess[] {
  const left = markedProcesses(name, value);
  for (const { pid } of left) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  return left;
}

/** Whether a NUL-separated environment block holds exactly the entry `wanted`. */
function hasEntry(environ: Uint8Array, wanted: Uint8Array): boolean {
  let start = 0;
  for (let i = 0; i <= environ.length; i++) {
    if (i < environ.length && environ[i] !== 0) continue;
    if (i - start === wanted.length && wanted.every((b, j) => environ[start + j] === b)) {
      return true;
    }
    start = i + 1;
  }
  return false;
}
