/**
 * Processes found by a mark in their environment. A test that starts a cluster or daemons gives
 * them `NAME=VALUE` in their environment, which every descendant inherits whatever process group
 * or session it moves to, and kills what is left by that mark in a `finally`. Deno reads /proc
 * only with --allow-all, so a shell lists the processes (the tests may run programs).
 */

/** A process still running with the mark. */
export interface MarkedProcess {
  pid: number;
  command: string;
}

/** Prints "PID COMMAND" for each process other than itself whose environment holds "$1". */
const LIST = `for dir in /proc/[0-9]*; do
  pid="\${dir#/proc/}"
  [ "$pid" = "$$" ] && continue
  if { tr '\\0' '\\n' <"$dir/environ"; } 2>/dev/null | grep -qxF "$1"; then
    cmd="$({ tr '\\0' ' ' <"$dir/cmdline"; } 2>/dev/null | cut -c1-300)"
    [ -n "$cmd" ] && echo "$pid $cmd"
  fi
done
exit 0`;

/** Every process other than this one whose environment holds `name=value`. */
export async function markedProcesses(name: string, value: string): Promise<MarkedProcess[]> {
  const { stdout } = await new Deno.Command("sh", {
    args: ["-c", LIST, "sh", `${name}=${value}`],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(stdout).split("\n").filter(Boolean).map((line) => {
    const space = line.indexOf(" ");
    return { pid: Number(line.slice(0, space)), command: line.slice(space + 1).trim() };
  }).filter((p) => Number.isInteger(p.pid) && p.pid !== Deno.pid);
}

/** SIGKILL every process with the mark; returns what was still running. */
export async function killMarked(name: string, value: string): Promise<MarkedProcess[]> {
  const left = await markedProcesses(name, value);
  for (const { pid } of left) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  return left;
}
