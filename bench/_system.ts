/**
 * Process-level facts for the leak checks and memory figures, and the programs children run.
 */
import { existsSync } from "node:fs";
import { CHILD_PATH } from "../src/sandbox/programs.ts";

/** What /proc says about this process. */
export interface ProcessFacts {
  /** Pids of live child processes (not counting the probe itself). */
  children: number[];
  /** Open file descriptors (counting the probe's output pipe, the same every time). */
  fds: number;
}

/**
 * Scan /proc/<pid>/stat for children of this process and count /proc/<pid>/fd. A short Python
 * probe does the reading: Deno refuses /proc paths to anything short of --allow-all.
 */
export async function processFacts(): Promise<ProcessFacts> {
  const output = await new Deno.Command(resolveChildProgram("python3"), {
    args: ["-I", "-S", "-c", PROC_PROBE, String(Deno.pid)],
    stdin: "null",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`Cannot read /proc: ${new TextDecoder().decode(output.stderr).slice(0, 500)}`);
  }
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

const PROC_PROBE = String.raw`
import json, os, sys
me, parent = os.getpid(), int(sys.argv[1])
children = []
for name in os.listdir("/proc"):
    if not name.isdigit() or int(name) == me:
        continue
    try:
        with open(f"/proc/{name}/stat") as f:
            stat = f.read()
    except OSError:
        continue
    # The command name may hold spaces and parentheses; the fields after the last ")" are fixed.
    if int(stat[stat.rindex(")") + 2:].split()[1]) == parent:
        children.append(int(name))
print(json.dumps({"children": children, "fds": len(os.listdir(f"/proc/{parent}/fd"))}))
`;

/** Entries directly under `dir`. */
export function entriesIn(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name);
}

/** Samples resident memory on a timer and keeps the peak. */
export class RssSampler {
  peak: number;
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(intervalMs: number) {
    this.peak = Deno.memoryUsage().rss;
    this.#timer = setInterval(() => {
      this.peak = Math.max(this.peak, Deno.memoryUsage().rss);
    }, intervalMs);
  }

  /** Take a last sample, stop, and return the peak in bytes. */
  stop(): number {
    clearInterval(this.#timer);
    this.peak = Math.max(this.peak, Deno.memoryUsage().rss);
    return this.peak;
  }
}

/**
 * The executable the sandbox would run for `program`: the first match on the children's fixed
 * PATH. Bare baselines spawn this, not the first match on the caller's PATH (which may be a
 * pyenv shell shim costing tens of milliseconds).
 */
export function resolveChildProgram(program: string): string {
  if (program === "deno") return Deno.execPath();
  for (const dir of CHILD_PATH.split(":")) {
    if (existsSync(`${dir}/${program}`)) return `${dir}/${program}`;
  }
  return program;
}
