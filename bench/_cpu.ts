/**
 * CPU accounting for the episode figures: this process's own CPU time (`getrusage`, every thread)
 * and its children's, from a cgroup v1 `cpuacct` group the benchmark moves itself into. Process
 * accounting (`RUSAGE_CHILDREN`) would miss the work inside bwrap's PID namespace, whose processes
 * are reaped there; a cgroup counts every descendant, jailed or not. A sandbox run gets a `cpuacct`
 * cgroup of its own (its clock reads it), made under the folder its isolation names: the meter
 * points that at its group while it is open (see {@linkcode CpuMeter.open}), since cpuacct counts
 * a cgroup's CPU in its parents too, removed or not. Deno refuses `/sys/fs/cgroup` without
 * `--allow-all`, so a shell started before the move (its own CPU stays outside the group) reads
 * the counter on request.
 */
import process from "node:process";
import type { CgroupSupport } from "../src/sandbox/cgroup.ts";
import type { IsolationInfo } from "../src/sandbox/sandbox.ts";
import { LineChild } from "./_lines.ts";

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
  readonly #reader: LineChild | null;
  /** The runs' cgroup support pointed at the group, and the folder each named before. */
  readonly #nested: [CgroupSupport, string | null][] = [];

  private constructor(
    usageFile: string | null,
    parent: string | null,
    reader: LineChild | null,
    reason: string | null,
  ) {
    this.#usageFile = usageFile;
    this.#parent = parent;
    this.#reader = reader;
    this.unavailable = reason;
  }

  /**
   * Make a fresh cpuacct cgroup below this process's own and move this process into it (children
   * started afterwards are counted there; ones already running, such as the fake model server,
   * stay outside). Sandbox runs of `isolations` (each probed before, when this process was still
   * outside) make their own cpuacct cgroups in the group until {@linkcode close}: their support is
   * changed in place, so every sandbox and copy of the isolation that shares it (a worker pool
   * started later gets a copy) counts its runs here.
   */
  static async open(...isolations: IsolationInfo[]): Promise<CpuMeter> {
    const found = await sh(FIND_CPUACCT);
    const parent = found.trim();
    if (!parent) return new CpuMeter(null, null, null, "no cgroup v1 cpuacct hierarchy mounted");
    const dir = `${parent}/patchgym-bench-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
    const reader = new LineChild("sh", [
      "-c",
      'while read -r f; do read -r v < "$f"; echo "$v"; done',
    ]);
    try {
      await sh('mkdir "$1" && echo "$2" > "$1/cgroup.procs"', [dir, String(Deno.pid)]);
    } catch (error) {
      await reader.close();
      return new CpuMeter(null, null, null, `cannot make a cpuacct cgroup: ${String(error)}`);
    }
    const meter = new CpuMeter(`${dir}/cpuacct.usage`, parent, reader, null);
    for (const { cgroup } of isolations) {
      // Once each (isolations copied from one another share it).
      if (cgroup?.version !== 1 || cgroup.cpu === null || cgroup.cpu === dir) continue;
      meter.#nested.push([cgroup, cgroup.cpu]);
      cgroup.cpu = dir;
    }
    return meter;
  }

  /** CPU used so far. */
  async read(): Promise<CpuReading> {
    let groupMs = null;
    if (this.#reader && this.#usageFile) {
      await this.#reader.send(this.#usageFile);
      groupMs = Number(await this.#reader.read()) / 1e6;
    }
    const { user, system } = process.cpuUsage();
    return { selfMs: (user + system) / 1000, groupMs };
  }

  /**
   * Move the sandbox's warm interpreters this process started (`src/sandbox/_zygote.ts`) into the
   * group: they may have started before it was made, and every warm run's program is forked from
   * one (its CPU, and theirs, are the children's).
   */
  async adoptWarmInterpreters(): Promise<void> {
    if (!this.#usageFile) return;
    const dir = this.#usageFile.slice(0, -"/cpuacct.usage".length);
    await sh(ADOPT_ZYGOTES, [String(Deno.pid), dir]);
  }

  /** CPU used by `body`: own, and children's (the group's minus own; null without cpuacct). */
  async measure<T>(
    body: () => Promise<T>,
  ): Promise<{ value: T; selfMs: number; childMs: number | null }> {
    await this.adoptWarmInterpreters();
    const before = await this.read();
    const value = await body();
    const after = await this.read();
    const selfMs = after.selfMs - before.selfMs;
    const childMs = after.groupMs !== null && before.groupMs !== null
      ? after.groupMs - before.groupMs - selfMs
      : null;
    return { value, selfMs, childMs };
  }

  /**
   * Children's CPU of each case, ms: the median (the upper one of an even count) over `rounds`
   * rounds that run every case in turn, after one round unmeasured (caches, compiled code), so a
   * machine that drifts weighs on each case alike. Throws without cpuacct.
   */
  async medianChildMs(
    cases: [string, () => Promise<unknown>][],
    rounds: number,
  ): Promise<Map<string, number>> {
    if (this.unavailable) throw new Error(`Cannot measure the children: ${this.unavailable}`);
    for (const [, body] of cases) await body();
    const samples = new Map<string, number[]>(cases.map(([name]) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const [name, body] of cases) {
        samples.get(name)!.push((await this.measure(body)).childMs!);
      }
    }
    return new Map([...samples].map(([name, ms]) => {
      const sorted = [...ms].sort((a, b) => a - b);
      return [name, sorted[Math.floor(sorted.length / 2)]];
    }));
  }

  /** Move this process back to the parent cgroup and remove the one made (children must be gone). */
  async close(): Promise<void> {
    for (const [cgroup, folder] of this.#nested.splice(0)) cgroup.cpu = folder;
    await this.#reader?.close();
    if (!this.#usageFile || !this.#parent) return;
    const dir = this.#usageFile.slice(0, -"/cpuacct.usage".length);
    // The shell itself starts inside the group: it moves out too before removing it. Children
    // that just exited can keep the group busy for a moment on a loaded machine.
    // Warm interpreters moved in go back out with this process.
    await sh(
      'for p in $(cat "$1/cgroup.procs"); do echo "$p" > "$3/cgroup.procs" 2>/dev/null; done; echo "$2" > "$3/cgroup.procs" && echo $$ > "$3/cgroup.procs" && n=0 && until rmdir "$1" 2>/dev/null; do n=$((n + 1)); [ "$n" -gt 200 ] && { rmdir "$1"; exit 1; }; sleep 0.05; done',
      [
        dir,
        String(Deno.pid),
        this.#parent,
      ],
    );
  }
}

/**
 * Moves into cgroup $2 every process descended from $1 whose command line names the sandbox's warm
 * interpreter (its bwrap and itself; the middles and programs it forks later follow it).
 */
const ADOPT_ZYGOTES = `for p in $(pgrep -f 'patchgym-zygote'); do
  q=$p
  while [ -n "$q" ] && [ "$q" -gt 1 ]; do
    if [ "$q" = "$1" ]; then echo "$p" > "$2/cgroup.procs" 2>/dev/null; break; fi
    q=$(cut -d' ' -f4 "/proc/$q/stat" 2>/dev/null)
  done
done
exit 0`;

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
