/**
 * Red team of a jail's process cap without root (RLIMIT_NPROC set inside the jail's own user
 * namespace by the jail's launcher, `jailnproc:`): code in the jail tries to get more processes
 * than the cap. Found: bwrap's pid 1, forked before the cap and of the jail's uid, kept the user's
 * limit, and where no seccomp filter refuses ptrace, forks injected into it went past the cap; the
 * launcher now caps pid 1 too. As root pid 1 is root's, out of the program's reach.
 */
import assert from "node:assert/strict";
import { type IsolationInfo, probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";
import { pidsWith, withWorkspace } from "../_fixtures.ts";

const CAP = 24;

async function jailed(): Promise<IsolationInfo | null> {
  const isolation = await probeIsolation();
  if (isolation.level !== "bwrap" || !isolation.rlimits || !isolation.launcher) {
    console.warn("skipped: needs bwrap, rlimits and the compiled launcher");
    return null;
  }
  return isolation;
}

/** Nothing with `token` on its command line is left, after a grace period for teardown. */
async function noneLeft(token: string): Promise<void> {
  for (let i = 0; i < 50 && (await pidsWith(token)).length; i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const left = await pidsWith(token);
  for (const pid of left) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone */ }
  }
  assert.deepEqual(left, [], "processes survived the run");
}

// Each attack prints "NAME N" where N is how many tasks it got at once beside the main one, or
// "NAME refused: ..." / "NAME ESCAPED ..." on a notable outcome. Children block on a pipe, so
// nothing is bounded by timing; the main process closes the pipe to end them.
const ATTACKS = (token: string) =>
  String.raw`# ${token}
import ctypes, ctypes.util, errno, os, resource, signal, sys, threading, time
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def err(): return os.strerror(ctypes.get_errno())
out = lambda *a: print(*a, flush=True)
out("NPROC", resource.getrlimit(resource.RLIMIT_NPROC), "pid1", [l for l in open("/proc/1/limits") if "processes" in l][0].split()[2:4])

def forks(make):
    r, w = os.pipe()
    kids = []
    try:
        while len(kids) < 400:
            pid = make(r, w)
            if pid is None: break
            kids.append(pid)
    finally:
        os.close(w); os.close(r)
        for k in kids:
            try: os.waitpid(k, 0)
            except ChildProcessError: pass
    return len(kids)

def fork_child(r, w):
    try: pid = os.fork()
    except OSError as e: out("  fork stopped:", e); return None
    if pid == 0:
        os.close(w); os.read(r, 1); os._exit(0)
    return pid
out("fork", forks(fork_child))

def spawn_child(r, w):
    os.set_inheritable(r, True)
    # posix_spawn: glibc uses clone(CLONE_VM|CLONE_VFORK)
    try: return os.posix_spawn("/usr/bin/python3", ["python3", "-c", "import os,sys; os.read(%d,1)" % r], os.environ)
    except OSError as e: out("  posix_spawn stopped:", e); return None
out("posix_spawn", forks(spawn_child))

def raw_clone(flags):
    def make(r, w):
        pid = libc.syscall(56, flags | signal.SIGCHLD, 0, 0, 0, 0)  # SYS_clone on x86_64
        if pid < 0: out("  clone(%#x) stopped:" % flags, err()); return None
        if pid == 0:
            os.close(w); os.read(r, 1); os._exit(0)
        return pid
    return make
out("clone(0)", forks(raw_clone(0)))
out("clone(NEWUSER)", forks(raw_clone(0x10000000)))
out("clone(NEWUSER|NEWPID)", forks(raw_clone(0x10000000 | 0x20000000)))
out("clone3", libc.syscall(435, 0, 0), err())

# threads
ev = threading.Event(); ts = []
try:
    while len(ts) < 400:
        t = threading.Thread(target=ev.wait, daemon=True); t.start(); ts.append(t)
except Exception as e: out("  thread stopped:", e)
out("threads", len(ts)); ev.set()
for t in ts: t.join()

# a nested user namespace for a fresh count, or the jail's pid 1 (bwrap, uncapped rlimit)
out("unshare(NEWUSER)", libc.unshare(0x10000000), err())
try:
    fd = os.open("/proc/1/ns/user", os.O_RDONLY)
    out("setns(pid1 userns)", libc.setns(fd, 0), err())
except OSError as e: out("setns(pid1 userns):", e)
try: os.open("/proc/1/mem", os.O_RDWR); out("pid1 mem ESCAPED: opened rw")
except OSError as e: out("pid1 mem rw:", e)
try: os.open("/proc/1/mem", os.O_RDONLY); out("pid1 mem ro: opened (ptrace access allowed)")
except OSError as e: out("pid1 mem ro:", e)
libc.ptrace.restype = ctypes.c_long
out("ptrace(SEIZE, 1)", libc.ptrace(0x4206, 1, 0, 0), err())
out("process_vm_writev", libc.syscall(311, 1, 0, 0, 0, 0, 0), err())
try: resource.setrlimit(resource.RLIMIT_NPROC, (resource.RLIM_INFINITY, resource.RLIM_INFINITY)); out("setrlimit ESCAPED")
except Exception as e: out("setrlimit raise:", e)
try: resource.prlimit(1, resource.RLIMIT_NPROC, (10**6, 10**6)); out("prlimit(1) raise ESCAPED")
except Exception as e: out("prlimit(1) raise:", e)
# setgid binary (the only one in the jail) runs with no_new_privs: nothing gained
try: out("exec setgid utempter: status", os.spawnv(os.P_WAIT, "/usr/lib/x86_64-linux-gnu/utempter/utempter", ["utempter", "add", "x"]))
except OSError as e: out("exec setgid utempter:", e)

# leave daemons behind: double fork, own session, main exits
for i in range(6):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            time.sleep(120)
        os._exit(0)
time.sleep(0.2)
out("done")
`;

function counts(stdout: string): Record<string, number> {
  const found: Record<string, number> = {};
  for (const m of stdout.matchAll(/^(\S+) (\d+)$/gm)) found[m[1]] = Number(m[2]);
  return found;
}

async function attack(
  sandbox: Sandbox,
  ws: string,
  extra: Partial<Parameters<Sandbox["run"]>[0]> = {},
) {
  const token = `patchgym-redteam-${crypto.randomUUID()}`;
  const r = await sandbox.run({
    argv: ["python3", "-c", ATTACKS(token)],
    cwd: ws,
    timeoutMs: 60_000,
    ...extra,
  });
  await noneLeft(token);
  assert.match(r.stdout, /^done$/m, r.stderr);
  assert.doesNotMatch(r.stdout, /ESCAPED/);
  if (!sandbox.isolation.hostRoot) {
    // The jail's pid 1 (bwrap) has the jail's cap too.
    assert.match(r.stdout, new RegExp(`pid1 \\['${CAP}', '${CAP}'\\]`));
  }
  const n = counts(r.stdout);
  // The jail: bwrap's pid 1, the program, and its children (or threads): at most CAP tasks.
  for (const name of ["fork", "posix_spawn", "clone(0)", "threads"]) {
    assert.ok(n[name] <= CAP - 2, `${name}: ${n[name]} beside the program and pid 1`);
  }
  for (const name of ["clone(NEWUSER)", "clone(NEWUSER|NEWPID)"]) assert.equal(n[name], 0, name);
  return r;
}

Deno.test("redteam nproc: attacks in a jail made when its run comes", async () => {
  const isolation = await jailed();
  if (!isolation) return;
  const sandbox = new Sandbox({ isolation, limits: { processes: CAP } });
  await withWorkspace((ws) => attack(sandbox, ws).then(() => {}));
});

Deno.test("redteam nproc: attacks in a jail made ahead (await)", async () => {
  const isolation = await jailed();
  if (!isolation) return;
  const sandbox = new Sandbox({ isolation, limits: { processes: CAP } });
  const cleanups: Array<() => Promise<void>> = [];
  const owner = { onRemove: (c: () => Promise<void>) => void cleanups.push(c) };
  try {
    await withWorkspace(async (ws) => {
      const argv = ["python3", "-c", "print('first')"];
      const first = await sandbox.run({ argv, cwd: ws, timeoutMs: 60_000, ahead: owner });
      assert.equal(first.exitCode, 0, first.stderr);
      await sandbox.aheadReady();
      const r = await attack(sandbox, ws, { ahead: owner });
      assert.equal(r.ahead, true, "the second run did not use the jail made ahead");
      await sandbox.endAhead();
    });
  } finally {
    await sandbox.endAhead();
    for (const c of cleanups) await c();
  }
});

Deno.test("redteam nproc: four jails at once each have a cap of their own", async () => {
  const isolation = await jailed();
  if (!isolation) return;
  const sandbox = new Sandbox({ isolation, limits: { processes: CAP }, runSlots: 4 });
  await withWorkspace(async (ws) => {
    await Promise.all([0, 1, 2, 3].map(() => attack(sandbox, ws)));
  });
});

// Without seccomp (a machine where the filter's probe failed, `isolation.seccomp` null), the jail's
// pid 1 (bwrap's init, same uid, dumpable, no capabilities) can be traced by the program, which
// makes it fork: before the launcher capped pid 1 too, its limit was the user's, and these forks
// passed the cap.
const PID1_FORKS = (token: string) =>
  String.raw`# ${token}
import ctypes, os, resource, signal
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
out = lambda *a: print(*a, flush=True)
class Regs(ctypes.Structure):
    _fields_ = [(n, ctypes.c_ulonglong) for n in "r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx rsi rdi orig_rax rip cs eflags rsp ss fs_base gs_base ds es fs gs".split()]
WALL = 0x40000000
tasks = lambda: len([p for p in os.listdir("/proc") if p.isdigit()])
# Fill the cap first.
r, w = os.pipe()
kids = []
while True:
    try: pid = os.fork()
    except OSError: break
    if pid == 0:
        os.close(w); os.read(r, 1); os._exit(0)
    kids.append(pid)
out("pid1 seccomp", [l for l in open("/proc/1/status") if l.startswith("Seccomp:")])
out("own forks", len(kids), "tasks in jail", tasks(), "cap", resource.getrlimit(resource.RLIMIT_NPROC)[0])
if libc.ptrace(16, 1, None, None) != 0:  # PTRACE_ATTACH
    out("attach refused:", os.strerror(ctypes.get_errno()))
else:
    os.waitpid(1, WALL)
    libc.ptrace(0x4200, 1, None, ctypes.c_void_p(2))  # SETOPTIONS TRACEFORK: children stop at birth
    saved = Regs(); libc.ptrace(12, 1, None, ctypes.byref(saved))
    word = libc.ptrace(1, 1, ctypes.c_void_p(saved.rip - 2), None) & 0xffff
    out("pid1 rip-2 is syscall:", word == 0x050f)
    made = []
    for _ in range(40):
        regs = Regs.from_buffer_copy(saved)
        regs.rip = saved.rip - 2; regs.rax = 57; regs.orig_rax = 2**64 - 1  # fork()
        libc.ptrace(13, 1, None, ctypes.byref(regs))
        libc.ptrace(9, 1, None, None)  # SINGLESTEP
        while True:
            pid, status = os.waitpid(-1, WALL)
            if pid != 1 or not os.WIFSTOPPED(status) or os.WSTOPSIG(status) != signal.SIGTRAP: continue
            if status >> 16:  # PTRACE_EVENT_FORK: the child is made; step on to fork's return
                libc.ptrace(9, 1, None, None)
                continue
            break
        after = Regs(); libc.ptrace(12, 1, None, ctypes.byref(after))
        res = ctypes.c_longlong(after.rax).value
        if res <= 0: out("pid1 fork stopped:", os.strerror(-res)); break
        made.append(res)
    out("forks injected into pid 1:", len(made), "tasks in jail now", tasks())
    if tasks() > resource.getrlimit(resource.RLIMIT_NPROC)[0]: out("CAP EXCEEDED")
    libc.ptrace(13, 1, None, ctypes.byref(saved)); libc.ptrace(17, 1, None, None)
    for pid in made:
        try: os.kill(pid, signal.SIGKILL)
        except OSError: pass
os.close(w)
for k in kids: os.waitpid(k, 0)
out("done")
`;

Deno.test("redteam nproc: without seccomp, forks injected into the jail's pid 1 stop at the cap", async () => {
  const probed = await jailed();
  if (!probed) return;
  if (probed.hostRoot) return console.warn("skipped: as root pid 1 is root's, out of reach");
  const isolation = { ...probed, seccomp: null };
  const sandbox = new Sandbox({ isolation, limits: { processes: CAP } });
  await withWorkspace(async (ws) => {
    const token = `patchgym-redteam-${crypto.randomUUID()}`;
    const r = await sandbox.run({
      argv: ["python3", "-c", PID1_FORKS(token)],
      cwd: ws,
      timeoutMs: 30_000,
    });
    await noneLeft(token);
    assert.match(r.stdout, /^done$/m, r.stderr);
    // Traced, pid 1 forks no more than the cap lets it (or the trace itself is refused).
    assert.match(r.stdout, /pid1 fork stopped: Resource temporarily unavailable|attach refused/);
    assert.doesNotMatch(r.stdout, /CAP EXCEEDED/);
  });
});
