/**
 * Per-sandbox cgroups: a pids cap and a memory cap per child, which forking cannot escape (every
 * descendant is in the cgroup and counts), its CPU time counted (v1 `cpuacct`, v2 `cpu.stat`), and
 * a sweep that kills whatever is left and removes the cgroup afterwards. cgroup v1 (a `pids`, a
 * `memory` and a `cpuacct` hierarchy) and v2 (one hierarchy whose controllers our own cgroup
 * delegates) are found at runtime. All cgroup file work happens in
 * the launcher or its helper modes (see `_launch.ts`).
 */
import { SandboxError } from "../errors.ts";
import { CGROUP_PREFIX, type Launcher, runHelper, type ShOutput } from "./_launch.ts";

/** Where this process may make sandbox cgroups. */
export interface CgroupSupport {
  version: 1 | 2;
  /** Parent folder of the sandboxes' pids cgroups (v2: of their only cgroup). */
  pids: string;
  /** Parent folder of the memory cgroups (v1), the same as `pids` (v2), or null: no memory cap. */
  memory: string | null;
  /** Whether a swap limit file exists next to the memory limit (v1 `memsw`, v2 `swap.max`). */
  swapLimit: boolean;
  /**
   * Parent folder of the cgroups that count a sandbox's CPU time (v1 `cpuacct`), the same as
   * `pids` (v2, whose every cgroup counts it in `cpu.stat`), or null: not counted (see
   * `RunClock`, which then gives no time back).
   */
  cpu: string | null;
}

/** What {@linkcode probeCgroups} found: support, or why there is none. */
export type CgroupProbe = { support: CgroupSupport; reason?: undefined } | {
  support: null;
  reason: string;
};

/** Caps for one sandbox. */
export interface CgroupCaps {
  processes: number;
  memoryBytes: number;
}

/** Which caps a sandbox ran into. */
export interface CapsHit {
  processes: boolean;
  memory: boolean;
}

/** One sandbox's cgroups: launcher steps to make and join them, and the sweep afterwards. */
export interface SandboxCgroup {
  /** The cgroup's folder name (the same under every controller). */
  name: string;
  /** Launcher steps (see `_launch.ts`): make the folders, write the caps, join. */
  steps: string[];
  /**
   * The launcher's `sweep` arguments: kill every process left in the sandbox, print its events,
   * remove its cgroups.
   */
  sweepArgs: string[];
  /** The launcher's `waited` arguments: the cgroup's processes, and its CPU time if counted. */
  waitedArgs: string[];
  /** Which caps were hit, from the sweep's output; throws when the sweep failed. */
  caps(swept: ShOutput): CapsHit;
  /** Run the sweep (one-shot) and say which caps were hit. */
  sweep(): Promise<CapsHit>;
}

/**
 * Find out whether sandbox cgroups can be made here: our own cgroup in each hierarchy, a test
 * folder made and removed in it, and (once per process) the removal of the sandbox cgroups that a
 * dead patchgym process left behind, killing what is left in them first.
 */
export async function probeCgroups(launcher: Launcher = null): Promise<CgroupProbe> {
  const self = await runHelper(launcher, "self");
  if (!self.success) return { support: null, reason: "cannot read /proc/self/cgroup" };
  const { v1, v2 } = parseCgroupFiles(self.stdout);
  const candidates = [v1.pids, v1.memory, v1.cpuacct, v2].filter((d): d is string => d !== null);
  if (candidates.length === 0) {
    return { support: null, reason: "no pids controller (cgroup v1 or delegated v2) found" };
  }
  const tried = await runHelper(launcher, "cgroup-probe", candidates);
  const usable = new Map<string, Set<string>>();
  for (const line of tried.stdout.split("\n")) {
    const [status, dir, ...files] = line.split(" ");
    if (status === "ok" && dir) usable.set(dir, new Set(files));
  }
  if (v1.pids && usable.has(v1.pids)) {
    const memory = v1.memory && usable.has(v1.memory) ? v1.memory : null;
    const swapLimit = memory !== null && usable.get(memory)!.has("memory.memsw.limit_in_bytes");
    const cpu = v1.cpuacct && usable.get(v1.cpuacct)?.has("cpuacct.usage") ? v1.cpuacct : null;
    return { support: { version: 1, pids: v1.pids, memory, swapLimit, cpu } };
  }
  if (v2 && usable.get(v2)?.has("pids.max")) {
    const files = usable.get(v2)!;
    const memory = files.has("memory.max") ? v2 : null;
    return {
      support: {
        version: 2,
        pids: v2,
        memory,
        swapLimit: files.has("memory.swap.max"),
        cpu: files.has("cpu.stat") ? v2 : null,
      },
    };
  }
  return {
    support: null,
    reason: `cannot make a cgroup with a pids controller in ${candidates.join(", ")}`,
  };
}

/** Our own cgroup folders: v1 `pids`, `memory` and `cpuacct`; v2 the one that may delegate. */
export function parseCgroupFiles(text: string): {
  v1: { pids: string | null; memory: string | null; cpuacct: string | null };
  v2: string | null;
} {
  const own = new Map<string, string>();
  const mounts: { root: string; point: string; type: string; options: string[] }[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("c ")) {
      const [, controllers, path] = line.slice(2).match(/^\d+:([^:]*):(.*)$/) ?? [];
      if (path === undefined) continue;
      if (controllers === "") own.set("", path);
      for (const c of controllers.split(",")) if (c) own.set(c, path);
    } else if (line.startsWith("m ")) {
      const [left, right] = line.slice(2).split(" - ");
      if (!right) continue;
      const fields = left.split(" ");
      const [type, , options] = right.split(" ");
      if (type !== "cgroup" && type !== "cgroup2") continue;
      mounts.push({ root: fields[3], point: fields[4], type, options: options.split(",") });
    }
  }
  const folder = (mount: { root: string; point: string } | undefined, path: string | undefined) => {
    if (!mount || path === undefined) return null;
    if (mount.root !== "/" && !path.startsWith(mount.root)) return null;
    const relative = mount.root === "/" ? path : path.slice(mount.root.length);
    return `${mount.point}${relative === "/" ? "" : relative}`;
  };
  const v1Mount = (c: string) => mounts.find((m) => m.type === "cgroup" && m.options.includes(c));
  return {
    v1: {
      pids: folder(v1Mount("pids"), own.get("pids")),
      memory: folder(v1Mount("memory"), own.get("memory")),
      cpuacct: folder(v1Mount("cpuacct"), own.get("cpuacct")),
    },
    v2: folder(mounts.find((m) => m.type === "cgroup2"), own.get("")),
  };
}

/**
 * The cgroups of a new sandbox, named after this process (so stale ones can be told apart) and a
 * random part (workers of one process, such as parallel `deno test` files, share its pid).
 */
export function sandboxCgroup(
  support: CgroupSupport,
  caps: CgroupCaps,
  launcher: Launcher = null,
): SandboxCgroup {
  const name = `${CGROUP_PREFIX}${Deno.pid}-${crypto.randomUUID().slice(0, 13)}`;
  const pids = `${support.pids}/${name}`;
  // A controller's folder for this sandbox: the pids one where they share a hierarchy (v2).
  const folderIn = (parent: string | null) =>
    parent === null ? null : parent === support.pids ? pids : `${parent}/${name}`;
  const memory = folderIn(support.memory);
  const cpu = folderIn(support.cpu);
  const dirs = [...new Set([pids, ...(memory ? [memory] : []), ...(cpu ? [cpu] : [])])];
  const steps = dirs.map((d) => `mkdir:${d}`);
  steps.push(`${pids}/pids.max=${caps.processes}`);
  if (memory) {
    const bytes = String(caps.memoryBytes);
    if (support.version === 1) {
      steps.push(`${memory}/memory.limit_in_bytes=${bytes}`);
      if (support.swapLimit) steps.push(`${memory}/memory.memsw.limit_in_bytes=${bytes}`);
    } else {
      steps.push(`${memory}/memory.max=${bytes}`);
      if (support.swapLimit) steps.push(`${memory}/memory.swap.max=0`);
    }
  }
  // v1: join through `tasks` (the launcher is one thread), which spares the kernel's global lock.
  steps.push(
    ...dirs.map((d) => support.version === 1 ? `jointask:${d}/tasks` : `join:${d}/cgroup.procs`),
  );
  const events = [`${pids}/pids.events`];
  if (memory) {
    events.push(support.version === 1 ? `${memory}/memory.oom_control` : `${memory}/memory.events`);
  }
  const sweepArgs = [
    `procs:${pids}/cgroup.procs`,
    ...(support.version === 2 ? [`kill:${pids}/cgroup.kill`] : []),
    ...events.map((e) => `events:${e}`),
    ...dirs.map((d) => `rmdir:${d}`),
  ];
  const capsHit = (out: ShOutput): CapsHit => {
    const hit = { processes: false, memory: false };
    for (const line of out.stdout.split("\n")) {
      const [file, key, value] = line.split(" ");
      if (Number(value) <= 0) continue;
      if (file?.endsWith("pids.events") && key === "max") hit.processes = true;
      if (key === "oom_kill") hit.memory = true;
    }
    if (!out.success) {
      throw new SandboxError(`Cannot remove the sandbox cgroup "${name}": ${out.stderr.trim()}`);
    }
    return hit;
  };
  const cpuFile = cpu === null
    ? null
    : support.version === 1
    ? `${cpu}/cpuacct.usage`
    : `${cpu}/cpu.stat`;
  return {
    name,
    steps,
    sweepArgs,
    waitedArgs: [`procs:${pids}/cgroup.procs`, ...(cpuFile ? [`cpu:${cpuFile}`] : [])],
    caps: capsHit,
    sweep: async () => capsHit(await runHelper(launcher, "sweep", sweepArgs)),
  };
}
