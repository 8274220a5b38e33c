/**
 * CPU accounting for the episode figures: this process's own CPU time (`getrusage`, every thread)
 * and its children's, from a cgroup v1 `cpuacct` group the benchmark moves itself into. Process
 * accounting (`RUSAGE_CHILDREN`) would miss the work inside bwrap's PID namespace, whose processes
 * are reaped there; a cgroup counts every descendant, jailed or not, since sandboxes join only the
 * `pids` and `memory` hierarchies.
 */
import process from "node:process";

/** CPU used so far, ms. */
export interface CpuReading {
  /** This process (the orchestrator), every thread. */
  selfMs: number;
  /** This process and every descendant started since {@linkcode CpuMeter.open}; null without cpuacct. */
  groupMs: number | null;
}

/** Reads own and children's CPU; see the module comment. */
export class CpuMeter {
  /** Why children's CPU cannot be measured here, when it cannot. */
  readonly unavailable: string | null;
  readonly #usageFile: string | null;
  readonly #parent: string | null;

  private constructor(usageFile: string | null, parent: string | null, reason: string | null) {
    this.#usageFile = usageFile;
    this.#parent = parent;
    this.unavailable = reason;
  }

  /**
   * Make a fresh cpuacct cgroup below this process's own and move this process into it (children
   * started afterwards are counted there; ones already running, such as the fake model server,
   * stay outside).
   */
  static async open(): Promise<CpuMeter> {
    const found = await sh(FIND_CPUACCT);
    const parent = found.trim();
    if (!parent) return new CpuMeter(null, null, "no cgroup v1 cpuacct hierarchy mounted");
    const dir = `${parent}/patchgym-bench-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
    try {
      await sh('mkdir "$1" && echo "$2" > "$1/cgroup.procs"', [dir, String(Deno.pid)]);
    } catch (error) {
      return new CpuMeter(null, null, `cannot make a cpuacct cgroup: ${String(error)}`);
    }
    return new CpuMeter(`${dir}/cpuacct.usage`, parent, null);
  }

  /** CPU used so far. */
  read(): CpuReading {
    const { user, system } = process.cpuUsage();
    const groupMs = this.#usageFile
      ? Number(Deno.readTextFileSync(this.#usageFile).trim()) / 1e6
      : null;
    return { selfMs: (user + system) / 1000, groupMs };
  }

  /** CPU used by `body`: own, and children's (the group's minus own; null without cpuacct). */
  async measure<T>(
    body: () => Promise<T>,
  ): Promise<{ value: T; selfMs: number; childMs: number | null }> {
    const before = this.read();
    const value = await body();
    const after = this.read();
    const selfMs = after.selfMs - before.selfMs;
    const childMs = after.groupMs !== null && before.groupMs !== null
      ? after.groupMs - before.groupMs - selfMs
      : null;
    return { value, selfMs, childMs };
  }

  /** Move this process back to the parent cgroup and remove the one made (children must be gone). */
  async close(): Promise<void> {
    if (!this.#usageFile || !this.#parent) return;
    const dir = this.#usageFile.slice(0, -"/cpuacct.usage".length);
    // The shell itself starts inside the group: it moves out too before removing it.
    await sh('echo "$2" > "$3/cgroup.procs" && echo $$ > "$3/cgroup.procs" && rmdir "$1"', [
      dir,
      String(Deno.pid),
      this.#parent,
    ]);
  }
}

/** Prints the folder of this shell's cpuacct cgroup (v1), or nothing. */
const FIND_CPUACCT = `path=
while IFS=: read -r _ controllers p; do
  case ",$controllers," in *,cpuacct,*) path=$p ;; esac
done < /proc/self/cgroup
[ -n "$path" ] || exit 0
while read -r _ _ _ root point _ rest; do
  case " $rest" in *" - cgroup "*cpuacct*)
    rel=\${path#"$root"}; echo "$point\${rel%/}"; exit 0 ;;
  esac
done < /proc/self/mountinfo`;

async function sh(script: string, args: string[] = []): Promise<string> {
  const out = await new Deno.Command("sh", {
    args: ["-c", script, "sh", ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  if (!out.success) throw new Error(decoder.decode(out.stderr).trim() || `exit ${out.code}`);
  return decoder.decode(out.stdout);
}
