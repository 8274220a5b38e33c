/**
 * Red-team attacks on the jail beyond `jail_test.ts`, through the real entry point
 * (`Sandbox.run`, as `run_command` and the test runners use it), run as root and as an
 * unprivileged user.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { LAUNCH_SCRIPT } from "../../src/sandbox/_launch.ts";
import { probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";
import { withWorkspace } from "../_fixtures.ts";

const isolation = await probeIsolation();
const jailed = isolation.level === "bwrap";

function skip(reason: string): void {
  console.warn(`skipped: ${reason}`);
}

/** Lists the jailed program's descriptors and tries to use fds 7 and 47 of its parent. */
const FD_PROBE = `import json, os
fds = sorted(int(n) for n in os.listdir('/proc/self/fd'))
seen = {}
for fd in (7, 47):
    try:
        seen[fd] = os.listdir('/proc/self/fd/%d' % fd)[:3]
    except OSError:
        try:
            seen[fd] = os.read(fd, 64).decode()
        except OSError as e:
            seen[fd] = e.errno
print(json.dumps({'fds': fds, 'seen': seen}))`;

Deno.test("Sandbox.run() closes file descriptors the orchestrator inherited from its parent", async () => {
  // The attack: whatever the orchestrator's parent (a CI runner, a shell, a job system) left open
  // without close-on-exec passes through Deno, the launcher and bwrap into the jail. A directory
  // fd of the host's `/` then reads the host's files from inside the jail (runc's CVE-2024-21626),
  // a pipe or socket talks to whoever holds its other end.
  if (!jailed && isolation.hostRoot) return skip("root without bwrap refuses to run");
  await withWorkspace(async (ws) => {
    const secret = join(ws, "..", "secret");
    await Deno.writeTextFile(secret, "host secret");
    const helper = join(ws, "..", "helper.ts");
    await Deno.writeTextFile(
      helper,
      `import { probeIsolation, Sandbox } from ${
        JSON.stringify(import.meta.resolve("../../src/sandbox/sandbox.ts"))
      };
const isolation = await probeIsolation();
const result = await new Sandbox({ isolation }).run({
  argv: ["python3", "-c", ${JSON.stringify(FD_PROBE)}],
  cwd: ${JSON.stringify(ws)},
  timeoutMs: 20000,
});
console.log(JSON.stringify(result));`,
    );
    // A parent that leaks fd 7 (a file) and fd 47 (the host's root folder) into patchgym.
    const out = await new Deno.Command("python3", {
      args: [
        "-c",
        `import os, sys
a = os.open(sys.argv[1], os.O_RDONLY); os.dup2(a, 7); os.set_inheritable(7, True)
b = os.open('/', os.O_RDONLY | os.O_DIRECTORY); os.dup2(b, 47); os.set_inheritable(47, True)
os.execv(sys.argv[2], [sys.argv[2], 'run', '--allow-all', sys.argv[3]])`,
        secret,
        Deno.execPath(),
        helper,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const result = JSON.parse(text.trim().split("\n").at(-1)!);
    assert.equal(result.exitCode, 0, result.stderr);
    const probe = JSON.parse(result.stdout);
    assert.deepEqual(probe.seen, { 7: 9, 47: 9 }, `leaked into the jail: ${result.stdout}`);
    // Only stdin, stdout, stderr and the listing's own descriptor.
    assert.deepEqual(probe.fds.filter((fd: number) => fd > 3), [], result.stdout);
  });
});

Deno.test("Sandbox.run() lets no child dump core, even after raising its own limit", async () => {
  // The attack: a child raises RLIMIT_CORE's soft limit to its hard one and crashes. With a pipe in
  // the host's kernel.core_pattern (apport, systemd-coredump), the kernel hands the jailed
  // process's memory to a helper running as host root outside every namespace, which stores it on
  // the host's disk past every cap of the sandbox; with a file pattern, the dump lands in the
  // workspace.
  if (!isolation.rlimits) return skip("rlimits are not usable here");
  if (!jailed && isolation.hostRoot) return skip("root without bwrap refuses to run");
  await withWorkspace(async (ws) => {
    const result = await new Sandbox({ isolation }).run({
      argv: [
        "python3",
        "-c",
        `import resource
soft, hard = resource.getrlimit(resource.RLIMIT_CORE)
try:
    resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))
except (OSError, ValueError):
    pass
print(*resource.getrlimit(resource.RLIMIT_CORE))`,
      ],
      cwd: ws,
      timeoutMs: 20_000,
    });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout.trim(), "0 0");
  });
});

Deno.test("Sandbox.run() keeps a read-only path in place when a folder above it is renamed", async () => {
  // The attack: the grader binds each test file read-only, but its folders stay writable; code
  // under test renames `tests/` away and writes its own `tests/sub/test_x.py`, which the runner
  // then loads under the trusted name (the host's copy of that path changes too).
  if (!jailed) return skip("no bwrap here: read-only paths need the jail");
  await withWorkspace(async (ws) => {
    await Deno.mkdir(join(ws, "tests", "sub"), { recursive: true });
    const file = join(ws, "tests", "sub", "test_x.py");
    await Deno.writeTextFile(file, "REAL\n");
    const result = await new Sandbox({ isolation }).run({
      argv: [
        "python3",
        "-c",
        `import os
for old, new in (('tests', 'moved'), ('tests/sub', 'tests/moved')):
    try:
        os.rename(old, new)
    except OSError:
        pass
try:
    os.makedirs('tests/sub', exist_ok=True)
    with open('tests/sub/test_x.py', 'w') as f:
        f.write('FAKE\\n')
except OSError:
    pass
print(open('tests/sub/test_x.py').read(), end='')
os.makedirs('tests/other', exist_ok=True)
print('writable', os.access('tests', os.W_OK))`,
      ],
      cwd: ws,
      timeoutMs: 20_000,
      readOnly: [file],
    });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout, "REAL\nwritable True\n");
    assert.equal(await Deno.readTextFile(file), "REAL\n");
  });
});

Deno.test("Sandbox.run() kills a 32-bit system call and refuses x32 ones on x86_64", async () => {
  // The attack: the filter reads x86_64 numbers, so the same numbers through `int 0x80` (i386) or
  // with the x32 bit would reach calls it means to refuse.
  if (!jailed) return skip("no bwrap here");
  if (isolation.seccomp === null) return skip("the kernel or bwrap refused the seccomp filter");
  if (Deno.build.arch !== "x86_64") return skip("int 0x80 and x32 are x86_64's");
  await withWorkspace(async (ws) => {
    const result = await new Sandbox({ isolation }).run({
      argv: [
        "python3",
        "-c",
        `import ctypes, mmap, os
libc = ctypes.CDLL(None, use_errno=True)
ctypes.set_errno(0)
r = libc.syscall(ctypes.c_long(272 | 0x40000000), ctypes.c_long(0x10000000))
print('x32', r, ctypes.get_errno())
pid = os.fork()
if pid == 0:
    # mov eax, 310 (i386 unshare); mov ebx, CLONE_NEWUSER; int 0x80; ret
    code = bytes([0xb8, 0x36, 0x01, 0, 0, 0xbb, 0, 0, 0, 0x10, 0xcd, 0x80, 0xc3])
    m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    m.write(code)
    f = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(m)))
    print('int80 returned', f(), flush=True)
    os._exit(0)
print('int80 signal', os.waitpid(pid, 0)[1] & 0x7f)`,
      ],
      cwd: ws,
      timeoutMs: 20_000,
    });
    assert.equal(result.exitCode, 0, result.stderr);
    // ENOSYS for x32; the i386 call ends the process with SIGSYS (31).
    assert.equal(result.stdout, "x32 -1 38\nint80 signal 31\n");
  });
});

Deno.test("Sandbox.run() leaves no process behind that detached itself", async () => {
  // The attack: a double fork with setsid and SIGHUP ignored, to outlive the run and keep writing
  // to the workspace (or hold the sandbox's uid) after the next lease.
  if (!jailed && isolation.hostRoot) return skip("root without bwrap refuses to run");
  if (!jailed && !isolation.cgroup) return skip("neither a PID namespace nor a cgroup here");
  await withWorkspace(async (ws) => {
    const result = await new Sandbox({ isolation }).run({
      argv: [
        "python3",
        "-c",
        `import os, signal, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        time.sleep(1.5)
        open('survived', 'w').write('yes')
    os._exit(0)
print('parent done')`,
      ],
      cwd: ws,
      timeoutMs: 20_000,
    });
    assert.equal(result.exitCode, 0, result.stderr);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.equal(await Deno.stat(join(ws, "survived")).then(() => true, () => false), false);
  });
});

Deno.test("Sandbox.run() as root never follows a planted link when it hands the workspace over", async () => {
  // The attack: symlinks and hardlinks planted in the workspace so that the next run's `chown -R`
  // (as host root, before the jail) gives the sandbox's uid a host file.
  if (!isolation.hostRoot) return skip("not root: nothing is chowned");
  if (!jailed) return skip("no bwrap here");
  await withWorkspace(async (ws) => {
    const sandbox = new Sandbox({ isolation });
    const script = `import os
for src in ('/usr/bin/python3', '/etc/passwd', '/etc/ld.so.cache'):
    try:
        os.link(src, os.path.basename(src) + '.hl')
        print('linked', src)
    except OSError:
        pass
for i, target in enumerate(('/etc/passwd', '/etc/ld.so.cache', '..', '/')):
    if not os.path.lexists('l%d' % i):
        os.symlink(target, 'l%d' % i)`;
    const watched = ["/etc/passwd", "/etc/ld.so.cache", join(ws, ".."), "/usr/bin"];
    const owners = () => watched.map((p) => Deno.statSync(p).uid);
    const before = owners();
    for (let i = 0; i < 2; i++) {
      const result = await sandbox.run({
        argv: ["python3", "-c", script],
        cwd: ws,
        timeoutMs: 20_000,
      });
      assert.equal(result.exitCode, 0, result.stderr);
      assert.equal(result.stdout, "", "a hardlink to a host file was made");
    }
    assert.deepEqual(owners(), before);
  });
});

Deno.test("Sandbox.run() answers system calls newer than the filter's table with ENOSYS", async () => {
  // The attack: the filter is a deny list, so a call added to the kernel after the table was
  // written passes untouched: open_tree_attr (467) is open_tree (refused) under a new number, and
  // new calls are where new kernel bugs live. A call the table has not reviewed must look absent.
  if (!jailed) return skip("no bwrap here");
  if (isolation.seccomp === null) return skip("the kernel or bwrap refused the seccomp filter");
  await withWorkspace(async (ws) => {
    const result = await new Sandbox({ isolation }).run({
      argv: [
        "python3",
        "-c",
        `import ctypes
libc = ctypes.CDLL(None, use_errno=True)
for nr in (467, 470, 600, 1023):
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(0)] * 5)
    print(nr, r, ctypes.get_errno())`,
      ],
      cwd: ws,
      timeoutMs: 20_000,
    });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout, "467 -1 38\n470 -1 38\n600 -1 38\n1023 -1 38\n");
  });
});

Deno.test("LAUNCH_SCRIPT closes inherited descriptors through python3 without reading the child's PYTHONPATH", async () => {
  // The attack: with no bash, the launcher (host root, outside the jail) reruns itself through
  // python3 to close descriptors dash cannot name, with the child's environment: a PYTHONPATH that
  // names the workspace would import the agent's sitecustomize.py as host root.
  await withWorkspace(async (ws) => {
    const bin = join(ws, "..", "bin");
    await Deno.mkdir(bin);
    // A PATH with sh, python3 and ls, but no bash.
    for (const program of ["sh", "python3", "ls"]) {
      const found = ["/usr/bin", "/bin"].map((d) => join(d, program)).find((p) => {
        try {
          return Deno.statSync(p).isFile;
        } catch {
          return false;
        }
      });
      if (!found) return skip(`${program} is not installed`);
      await Deno.symlink(found, join(bin, program));
    }
    await Deno.writeTextFile(
      join(ws, "sitecustomize.py"),
      `open(${JSON.stringify(join(ws, "owned"))}, "w").write("x")\n`,
    );
    const out = await new Deno.Command(join(bin, "python3"), {
      args: [
        "-I",
        "-c",
        `import os, sys
fd = os.open('/', os.O_RDONLY | os.O_DIRECTORY); os.dup2(fd, 47); os.set_inheritable(47, True)
os.execv(sys.argv[1], [sys.argv[1], '-c', sys.argv[2], 'sh', '--', 'ls', '/proc/self/fd'])`,
        join(bin, "sh"),
        LAUNCH_SCRIPT,
      ],
      env: { PATH: bin, PYTHONPATH: ws },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    // ls's own descriptor (3) at most: 47 is gone.
    assert.deepEqual(text.trim().split("\n").filter((fd) => Number(fd) > 3), []);
    assert.equal(await Deno.stat(join(ws, "owned")).then(() => true, () => false), false);
  });
});
