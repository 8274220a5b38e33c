import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import {
  type Arch,
  AUDIT_ARCH,
  CLONE_NAMESPACE_FLAGS,
  DENIED,
  encodeFilter,
  evaluateFilter,
  filterProgram,
  LAST_REVIEWED,
  SYSCALLS,
} from "../../src/sandbox/seccomp.ts";

const ARCHES: Arch[] = ["x86_64", "aarch64"];

Deno.test("filterProgram() refuses every denied call with EPERM on each architecture", () => {
  for (const arch of ARCHES) {
    const program = filterProgram(arch);
    const index = arch === "x86_64" ? 0 : 1;
    for (const name of DENIED) {
      const nr = SYSCALLS[name][index];
      if (nr === null) continue;
      assert.deepEqual(
        evaluateFilter(program, { nr, arch: AUDIT_ARCH[arch] }),
        { action: "errno", errno: 1 },
        `${arch} ${name}`,
      );
    }
  }
});

Deno.test("filterProgram() allows ordinary calls, plain clone and forks", () => {
  // read, write, openat, execve, wait4, getpid on x86_64; read, write, openat, execve on aarch64.
  const ordinary: Record<Arch, number[]> = {
    x86_64: [0, 1, 257, 59, 61, 39],
    aarch64: [63, 64, 56, 221],
  };
  for (const arch of ARCHES) {
    const program = filterProgram(arch);
    for (const nr of ordinary[arch]) {
      assert.deepEqual(evaluateFilter(program, { nr, arch: AUDIT_ARCH[arch] }), {
        action: "allow",
      });
    }
    const clone = SYSCALLS.clone[arch === "x86_64" ? 0 : 1]!;
    // fork (SIGCHLD) and a thread (CLONE_VM | CLONE_THREAD | ...) are fine.
    for (const flags of [17, 0x3d0f00]) {
      assert.deepEqual(
        evaluateFilter(program, { nr: clone, arch: AUDIT_ARCH[arch], arg0: flags }),
        { action: "allow" },
      );
    }
  }
});

Deno.test("filterProgram() refuses clone with a namespace flag and answers clone3 with ENOSYS", () => {
  for (const arch of ARCHES) {
    const program = filterProgram(arch);
    const index = arch === "x86_64" ? 0 : 1;
    for (let bit = 0; bit < 32; bit++) {
      const flag = 1 << bit;
      if ((CLONE_NAMESPACE_FLAGS & flag) === 0) continue;
      assert.deepEqual(
        evaluateFilter(program, {
          nr: SYSCALLS.clone[index]!,
          arch: AUDIT_ARCH[arch],
          arg0: flag | 17,
        }),
        { action: "errno", errno: 1 },
        `${arch} clone flag ${flag.toString(16)}`,
      );
    }
    assert.deepEqual(
      evaluateFilter(program, { nr: SYSCALLS.clone3[index]!, arch: AUDIT_ARCH[arch] }),
      { action: "errno", errno: 38 },
    );
  }
});

Deno.test("filterProgram() kills a call made through another architecture's entry", () => {
  const program = filterProgram("x86_64");
  // i386 (int 0x80) calls arrive with AUDIT_ARCH_I386.
  assert.deepEqual(evaluateFilter(program, { nr: 1, arch: 0x40000003 }), { action: "kill" });
  // x32 calls are x86_64's numbers with bit 30 set.
  assert.deepEqual(
    evaluateFilter(program, { nr: 0x40000000 + 165, arch: AUDIT_ARCH.x86_64 }),
    { action: "errno", errno: 38 },
  );
});

Deno.test("encodeFilter() writes 8 little-endian bytes per instruction", () => {
  const bytes = encodeFilter([{ code: 0x06, jt: 1, jf: 2, k: 0x7fff0000 }]);
  assert.deepEqual([...bytes], [0x06, 0, 1, 2, 0, 0, 0xff, 0x7f]);
  // A classic BPF program may hold at most 4096 instructions; each jump offset fits a byte.
  for (const arch of ARCHES) {
    const program = filterProgram(arch);
    assert.ok(program.length < 4096);
    assert.ok(program.every((i) => i.jt < 256 && i.jf < 256));
  }
});

Deno.test("SYSCALLS matches the kernel headers' x86_64 numbers", () => {
  const header = "/usr/include/x86_64-linux-gnu/asm/unistd_64.h";
  if (!existsSync(header)) return console.warn(`skipped: ${header} is not installed`);
  const numbers = new Map<string, number>();
  for (const m of readFileSync(header, "utf8").matchAll(/#define __NR_(\w+) (\d+)/g)) {
    numbers.set(m[1], Number(m[2]));
  }
  for (const [name, [x86]] of Object.entries(SYSCALLS)) {
    if (x86 === null || !numbers.has(name)) continue;
    assert.equal(x86, numbers.get(name), name);
  }
});

Deno.test("SYSCALLS matches the kernel headers' generic (aarch64) numbers", () => {
  const header = "/usr/include/asm-generic/unistd.h";
  if (!existsSync(header)) return console.warn(`skipped: ${header} is not installed`);
  const numbers = new Map<string, number>();
  for (const m of readFileSync(header, "utf8").matchAll(/#define __NR(?:3264)?_(\w+) (\d+)/g)) {
    numbers.set(m[1], Number(m[2]));
  }
  let compared = 0;
  for (const [name, [, generic]] of Object.entries(SYSCALLS)) {
    if (generic === null || !numbers.has(name)) continue;
    assert.equal(generic, numbers.get(name), name);
    compared++;
  }
  assert.ok(compared > 30, `only ${compared} calls compared`);
});

Deno.test("filterProgram() answers calls above the reviewed table with ENOSYS on each architecture", () => {
  for (const arch of ARCHES) {
    const program = filterProgram(arch);
    for (const nr of [LAST_REVIEWED + 1, 467, 1000, 0x3fffffff]) {
      assert.deepEqual(
        evaluateFilter(program, { nr, arch: AUDIT_ARCH[arch] }),
        { action: "errno", errno: 38 },
        `${arch} ${nr}`,
      );
    }
    // The last reviewed call itself is decided by the table (mseal: allowed).
    assert.deepEqual(evaluateFilter(program, { nr: LAST_REVIEWED, arch: AUDIT_ARCH[arch] }), {
      action: "allow",
    });
  }
});
