/**
 * The jail's seccomp filter, built here from a table you can read: the system calls that tests never
 * need and that reach the host kernel's most exposed parts (new namespaces, mounts, keyrings, BPF,
 * perf, userfaultfd, io_uring, kexec and modules, tracing other processes). Each is answered with an
 * error (`EPERM`, or `ENOSYS` for `clone3`, so that libc falls back to `clone`, whose flags a filter
 * can read) instead of killing the caller, so a test that probes for a feature sees it missing.
 *
 * bwrap takes the compiled filter as classic BPF on a file descriptor (`--seccomp FD`); it is loaded
 * after `no_new_privs`, just before the program is executed, and applies to every descendant.
 * {@linkcode compileFilter} makes the program; {@linkcode evaluateFilter} runs it in TypeScript so
 * the table can be tested without a kernel. To add a call: add its name and numbers to
 * {@linkcode SYSCALLS} and its name to {@linkcode DENIED}; the test compares the x86_64 numbers
 * with the kernel headers when they are installed (`linux-libc-dev`).
 */

/** A CPU architecture the filter knows: its audit number and its system call numbers. */
export type Arch = "x86_64" | "aarch64";

/** `AUDIT_ARCH_*` of each architecture, the first thing the filter checks. */
export const AUDIT_ARCH: Record<Arch, number> = {
  x86_64: 0xc000003e,
  aarch64: 0xc00000b7,
};

/**
 * System call numbers: `[x86_64, aarch64]` (null where the call does not exist). From
 * `asm/unistd_64.h` and `asm-generic/unistd.h`.
 */
export const SYSCALLS: Record<string, [number | null, number | null]> = {
  // Namespaces and mounts: a jailed process may not build a new view of the system.
  unshare: [272, 97],
  setns: [308, 268],
  mount: [165, 40],
  umount2: [166, 39],
  pivot_root: [155, 41],
  chroot: [161, 51],
  open_tree: [428, 428],
  move_mount: [429, 429],
  fsopen: [430, 430],
  fsconfig: [431, 431],
  fsmount: [432, 432],
  fspick: [433, 433],
  mount_setattr: [442, 442],
  // Kernel keyrings (shared per uid).
  keyctl: [250, 219],
  add_key: [248, 217],
  request_key: [249, 218],
  // Kernel programs, counters and page-fault handling: large, often exploited surfaces.
  bpf: [321, 280],
  perf_event_open: [298, 241],
  userfaultfd: [323, 282],
  io_uring_setup: [425, 425],
  io_uring_enter: [426, 426],
  io_uring_register: [427, 427],
  // Replacing or extending the kernel.
  kexec_load: [246, 104],
  kexec_file_load: [320, 294],
  init_module: [175, 105],
  finit_module: [313, 273],
  delete_module: [176, 106],
  // Reading or changing other processes.
  ptrace: [101, 117],
  process_vm_readv: [310, 270],
  process_vm_writev: [311, 271],
  pidfd_getfd: [438, 438],
  process_madvise: [440, 440],
  kcmp: [312, 272],
  // Host-wide administration.
  reboot: [169, 142],
  swapon: [167, 224],
  swapoff: [168, 225],
  acct: [163, 89],
  syslog: [103, 116],
  quotactl: [179, 60],
  quotactl_fd: [443, 443],
  settimeofday: [164, 170],
  clock_settime: [227, 112],
  clock_adjtime: [305, 266],
  adjtimex: [159, 171],
  open_by_handle_at: [304, 265],
  name_to_handle_at: [303, 264],
  fanotify_init: [300, 262],
  lookup_dcookie: [212, 18],
  vhangup: [153, 58],
  iopl: [172, null],
  ioperm: [173, null],
  // x86 segment descriptors of one's own: no test needs them, an old exploited surface.
  modify_ldt: [154, null],
  uselib: [134, null],
  // Process creation, checked by its flags (see below).
  clone: [56, 220],
  clone3: [435, 435],
};

/** Calls refused outright with `EPERM`. */
export const DENIED: readonly string[] = Object.keys(SYSCALLS).filter(
  (name) => name !== "clone" && name !== "clone3",
);

/**
 * `clone` flags that make a new namespace (user, mount, cgroup, UTS, IPC, PID, network); a `clone`
 * with any of them is refused. (`CLONE_NEWTIME`, 0x80, is not a `clone` flag: there the low byte
 * is the exit signal.)
 */
export const CLONE_NAMESPACE_FLAGS = 0x7e020000;

const EPERM = 1;
const ENOSYS = 38;
/**
 * The newest call this table was reviewed against (`mseal`, Linux 6.10; the same number on every
 * architecture since 5.1's unified numbering). Anything above answers `ENOSYS`, as on an older
 * kernel (libc then falls back): a deny list alone would let through every call added later, such
 * as `open_tree_attr` (467), `open_tree` (refused) under a new number. To allow a newer call,
 * review it, raise this number and add what must stay refused to {@linkcode SYSCALLS}.
 */
export const LAST_REVIEWED = 462;

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;

// Classic BPF opcodes.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

/** `struct seccomp_data` offsets. */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;

/** One classic BPF instruction. */
export interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

/** The filter's program for `arch`: instructions only (see {@linkcode encodeFilter}). */
export function filterProgram(arch: Arch): Instruction[] {
  const index = arch === "x86_64" ? 0 : 1;
  const number = (name: string) => SYSCALLS[name][index];
  const ins = (code: number, k: number, jt = 0, jf = 0): Instruction => ({ code, jt, jf, k });
  const program: Instruction[] = [
    ins(LD_W_ABS, OFFSET_ARCH),
    // A call made through another architecture's entry (e.g. 32-bit `int 0x80`) ends the process.
    ins(JEQ_K, AUDIT_ARCH[arch], 1, 0),
    ins(RET_K, RET_KILL_PROCESS),
    ins(LD_W_ABS, OFFSET_NR),
  ];
  // x86_64's x32 calls (its numbers with bit 0x40000000 set) are above it too: ENOSYS as a whole.
  program.push(ins(JGE_K, LAST_REVIEWED + 1, 0, 1), ins(RET_K, RET_ERRNO | ENOSYS));
  for (const name of DENIED) {
    const nr = number(name);
    if (nr === null) continue;
    program.push(ins(JEQ_K, nr, 0, 1), ins(RET_K, RET_ERRNO | EPERM));
  }
  program.push(ins(JEQ_K, number("clone3")!, 0, 1), ins(RET_K, RET_ERRNO | ENOSYS));
  program.push(
    ins(JEQ_K, number("clone")!, 0, 4),
    ins(LD_W_ABS, OFFSET_ARG0_LOW),
    ins(JSET_K, CLONE_NAMESPACE_FLAGS, 0, 1),
    ins(RET_K, RET_ERRNO | EPERM),
    ins(RET_K, RET_ALLOW),
    ins(RET_K, RET_ALLOW),
  );
  return program;
}

/** The program as `struct sock_filter[]` bytes (little-endian), what bwrap reads. */
export function encodeFilter(program: Instruction[]): Uint8Array {
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach((ins, i) => {
    view.setUint16(i * 8, ins.code, true);
    view.setUint8(i * 8 + 2, ins.jt);
    view.setUint8(i * 8 + 3, ins.jf);
    view.setUint32(i * 8 + 4, ins.k, true);
  });
  return bytes;
}

/** This machine's architecture, or null when the filter does not know it. */
export function hostArch(): Arch | null {
  const arch = Deno.build.arch;
  return arch === "x86_64" || arch === "aarch64" ? arch : null;
}

/** The encoded filter for this machine, compiled once per process; null on unknown machines. */
export function compileFilter(): Uint8Array | null {
  const arch = hostArch();
  if (!arch) return null;
  compiled ??= encodeFilter(filterProgram(arch));
  return compiled;
}
let compiled: Uint8Array | undefined;

/** What the filter answers for one call: allow, an errno, or kill. */
export type Verdict = { action: "allow" } | { action: "errno"; errno: number } | {
  action: "kill";
};

/**
 * Run `program` on one call (`nr`, first argument `arg0`, made through `auditArch`), as the kernel
 * would: for tests and `doctor`.
 */
export function evaluateFilter(
  program: Instruction[],
  call: { nr: number; arch: number; arg0?: number },
): Verdict {
  let acc = 0;
  for (let pc = 0; pc < program.length;) {
    const { code, jt, jf, k } = program[pc];
    switch (code) {
      case LD_W_ABS:
        acc = k === OFFSET_NR
          ? call.nr
          : k === OFFSET_ARCH
          ? call.arch
          : k === OFFSET_ARG0_LOW
          ? (call.arg0 ?? 0) >>> 0
          : 0;
        pc++;
        break;
      case JEQ_K:
        pc += 1 + (acc >>> 0 === k >>> 0 ? jt : jf);
        break;
      case JGE_K:
        pc += 1 + (acc >>> 0 >= k >>> 0 ? jt : jf);
        break;
      case JSET_K:
        pc += 1 + ((acc & k) !== 0 ? jt : jf);
        break;
      case RET_K: {
        const k32 = k >>> 0;
        if (k32 === RET_ALLOW) return { action: "allow" };
        if ((k32 & 0xffff0000) === RET_ERRNO) return { action: "errno", errno: k32 & 0xffff };
        return { action: "kill" };
      }
      default:
        throw new Error(`Cannot evaluate the seccomp filter: unknown opcode ${code}`);
    }
  }
  throw new Error("Cannot evaluate the seccomp filter: it ran off its end");
}
