import assert from "node:assert/strict";
import { parseCgroupFiles, sandboxCgroup } from "../../src/sandbox/cgroup.ts";

Deno.test("parseCgroupFiles() finds our own v1 cpuacct cgroup, mounted alone or with cpu", () => {
  const files = (cpuMount: string, cpuLine: string) =>
    [
      "c 8:pids:/",
      "c 4:memory:/job",
      `c 2:${cpuLine}:/job`,
      "c 0::/",
      "m 30 25 0:26 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids",
      "m 31 25 0:27 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory",
      `m 32 25 0:28 / /sys/fs/cgroup/${cpuMount} rw - cgroup cgroup rw,${cpuLine}`,
    ].join("\n");
  assert.deepEqual(parseCgroupFiles(files("cpuacct", "cpuacct")).v1, {
    pids: "/sys/fs/cgroup/pids",
    memory: "/sys/fs/cgroup/memory/job",
    cpuacct: "/sys/fs/cgroup/cpuacct/job",
  });
  assert.equal(
    parseCgroupFiles(files("cpu,cpuacct", "cpu,cpuacct")).v1.cpuacct,
    "/sys/fs/cgroup/cpu,cpuacct/job",
  );
  assert.equal(parseCgroupFiles(files("cpu", "cpu")).v1.cpuacct, null);
});

Deno.test("sandboxCgroup() counts a run's CPU time in a v1 cpuacct cgroup of its own, made, joined and removed with the others", () => {
  const cgroup = sandboxCgroup({
    version: 1,
    pids: "/sys/fs/cgroup/pids",
    memory: "/sys/fs/cgroup/memory",
    swapLimit: false,
    cpu: "/sys/fs/cgroup/cpuacct",
  }, { processes: 8, memoryBytes: 1 << 28 });
  const counter = `/sys/fs/cgroup/cpuacct/${cgroup.name}`;
  assert.ok(cgroup.steps.includes(`mkdir:${counter}`), cgroup.steps.join(" "));
  assert.ok(cgroup.steps.includes(`jointask:${counter}/tasks`), cgroup.steps.join(" "));
  assert.ok(cgroup.sweepArgs.includes(`rmdir:${counter}`), cgroup.sweepArgs.join(" "));
  assert.deepEqual(cgroup.waitedArgs, [
    `procs:/sys/fs/cgroup/pids/${cgroup.name}/cgroup.procs`,
    `cpu:${counter}/cpuacct.usage`,
  ]);
  // Without one, the run's CPU time is not counted, and its clock gives nothing back.
  const uncounted = sandboxCgroup({
    version: 1,
    pids: "/sys/fs/cgroup/pids",
    memory: null,
    swapLimit: false,
    cpu: null,
  }, { processes: 8, memoryBytes: 1 << 28 });
  assert.deepEqual(uncounted.waitedArgs, [
    `procs:/sys/fs/cgroup/pids/${uncounted.name}/cgroup.procs`,
  ]);
});

Deno.test("sandboxCgroup() reads a v2 cgroup's own cpu.stat, with no cgroup more", () => {
  const parent = "/sys/fs/cgroup/user.slice/patchgym";
  const cgroup = sandboxCgroup(
    { version: 2, pids: parent, memory: parent, swapLimit: true, cpu: parent },
    { processes: 8, memoryBytes: 1 << 28 },
  );
  const dir = `${parent}/${cgroup.name}`;
  assert.deepEqual(cgroup.steps.filter((step) => step.startsWith("mkdir:")), [`mkdir:${dir}`]);
  assert.deepEqual(cgroup.waitedArgs, [`procs:${dir}/cgroup.procs`, `cpu:${dir}/cpu.stat`]);
});
