/**
 * Attacks on the jail, as a hostile policy would try them (issue 26), run as root and as an
 * unprivileged user (CI runs this file both ways). Each test says which attack it guards.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  missingGuarantees,
  probeIsolation,
  type RunResult,
  Sandbox,
  unmetRequirement,
} from "../../src/sandbox/sandbox.ts";
import { withWorkspace } from "../_fixtures.ts";

/** The host's core_pattern (through `cat`: Deno reads /proc/sys only with --allow-all). */
async function corePattern(): Promise<string> {
  const out = await new Deno.Command("cat", {
    args: ["/proc/sys/kernel/core_pattern"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout);
}

function skip(reason: string): void {
  console.warn(`skipped: ${reason}`);
}

function python(script: string): string[] {
  return ["python3", "-c", script];
}

const isolation = await probeIsolation();
const jailed = isolation.level === "bwrap";

async function runIn(ws: string, script: string, sandbox?: Sandbox): Promise<RunResult> {
  return await (sandbox ?? new Sandbox({ isolation })).run({
    argv: python(script),
    cwd: ws,
    timeoutMs: 20_000,
  });
}

Deno.test("Sandbox.run() as root never runs agent code as host root", async () => {
  // The attack: bwrap started by root made the jail's uid host uid 0.
  if (!isolation.hostRoot) return skip("not root: children run as this user already");
  if (!jailed) return skip("no bwrap here");
  await withWorkspace(async (ws) => {
    const result = await runIn(
      ws,
      "import os\nprint(*os.getresuid(), *os.getresgid())\nstatus = open('/proc/self/status').read()\nprint([l.split()[1] for l in status.splitlines() if l.startswith(('CapEff', 'CapPrm', 'CapBnd', 'NoNewPrivs'))])\nopen('made', 'w').write('x')",
    );
    assert.equal(result.exitCode, 0, result.stderr);
    const [ids, caps] = result.stdout.trim().split("\n");
    const uids = ids.split(" ").map(Number);
    assert.ok(uids.every((id) => id >= isolation.users!.first), ids);
    assert.deepEqual(caps, "['0000000000000000', '0000000000000000', '0000000000000000', '1']");
    // Its files belong to its uid on the host, not to root.
    const made = Deno.lstatSync(join(ws, "made"));
    assert.equal(made.uid, uids[0]);
    assert.notEqual(made.uid, 0);
  });
});

Deno.test("Sandbox.run() cannot write host kernel settings under /proc/sys", async () => {
  // The attack: a jailed write to /proc/sys/kernel/core_pattern (pointed at a workspace script, a
  // crash then runs it as host root). The same value is written back, so a broken jail changes
  // nothing on this machine.
  if (!jailed) return skip("no bwrap here");
  await withWorkspace(async (ws) => {
    const before = await corePattern();
    const result = await runIn(
      ws,
      `import os
results = []
for path in ('/proc/sys/kernel/core_pattern', '/proc/sys/vm/drop_caches', '/proc/sysrq-trigger', '/proc/sys/fs/inotify/max_user_instances'):
    try:
        value = open(path).read() if path != '/proc/sysrq-trigger' else ''
        with open(path, 'w') as f:
            f.write(value or '1')
        results.append(path + ' written')
    except OSError as e:
        results.append(path + ' refused')
print(os.path.exists('/sys/kernel'), *results, sep='\\n')`,
    );
    assert.equal(result.exitCode, 0, result.stderr);
    const lines = result.stdout.trim().split("\n");
    assert.equal(lines[0], "False", "/sys is visible in the jail");
    for (const line of lines.slice(1)) assert.match(line, / refused$/);
    assert.equal(await corePattern(), before);
  });
});

Deno.test("Sandbox.run() refuses namespaces, mounts, keyrings, bpf, perf, userfaultfd and ptrace", async () => {
  // The attack surface of a kernel exploit: the seccomp filter answers EPERM (ENOSYS for clone3).
  if (!jailed) return skip("no bwrap here");
  if (isolation.seccomp === null) return skip("the kernel or bwrap refused the seccomp filter");
  if (Deno.build.arch !== "x86_64") return skip("the numbers below are x86_64's");
  await withWorkspace(async (ws) => {
    const result = await runIn(
      ws,
      `import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
calls = {
  'unshare_user': (272, 0x10000000), 'unshare_mount': (272, 0x20000), 'mount': (165, 0, 0, 0, 0, 0),
  'keyctl': (250, 0, 0, 0, 0), 'add_key': (248, 0, 0, 0, 0, 0), 'bpf': (321, 0, 0, 0),
  'perf_event_open': (298, 0, 0, -1, -1, 0), 'userfaultfd': (323, 0), 'ptrace_attach': (101, 16, 1, 0, 0),
  'init_module': (175, 0, 0, 0), 'kexec_load': (246, 0, 0, 0, 0), 'setns': (308, 0, 0),
  'io_uring_setup': (425, 1, 0), 'clone_newuser': (56, 0x10000000 | 17, 0, 0, 0, 0), 'clone3': (435, 0, 0),
}
for name, args in calls.items():
    ctypes.set_errno(0)
    r = libc.syscall(*[ctypes.c_long(a) for a in args])
    print(name, r, ctypes.get_errno())
pid = os.fork()
if pid == 0:
    os._exit(7)
print('fork', os.waitpid(pid, 0)[1] >> 8)`,
    );
    assert.equal(result.exitCode, 0, result.stderr);
    const seen = Object.fromEntries(
      result.stdout.trim().split("\n").map((l) => {
        const [name, r, errno] = l.split(" ");
        return [name, `${r} ${errno ?? ""}`.trim()];
      }),
    );
    for (const [name, answer] of Object.entries(seen)) {
      if (name === "fork") assert.equal(answer, "7", "an ordinary fork still works");
      else if (name === "clone3") assert.equal(answer, "-1 38", name);
      else assert.equal(answer, "-1 1", `${name} was not refused with EPERM`);
    }
  });
});

Deno.test("Sandbox.run() leaves no setuid or root-owned executable behind", async () => {
  // The attack: a jailed program made a setuid-root executable in the workspace, which a kept
  // workspace carried into the shared work root for any local user to run with euid 0.
  if (!jailed && isolation.hostRoot) return skip("root without bwrap refuses to run");
  await withWorkspace(async (ws) => {
    const result = await runIn(
      ws,
      "import os, shutil\nshutil.copy('/usr/bin/true' if os.path.exists('/usr/bin/true') else '/bin/true', 'tool')\nos.chmod('tool', 0o6755)\nos.mkdir('d')\nos.chmod('d', 0o2777)\nprint(oct(os.stat('tool').st_mode))",
    );
    assert.equal(result.exitCode, 0, result.stderr);
    const tool = Deno.lstatSync(join(ws, "tool"));
    const setuid = (tool.mode! & 0o6000) !== 0;
    assert.ok(
      !(setuid && tool.uid === 0),
      `a setuid file owned by root: ${tool.mode!.toString(8)}`,
    );
    if (jailed) {
      // The workspace is mounted nosuid in the jail: the bit does not raise privileges there.
      const run = await runIn(
        ws,
        "print([l for l in open('/proc/self/mountinfo') if ' ' + __import__('os').getcwd() + ' ' in l][0])",
      );
      assert.match(run.stdout, /nosuid/);
    }
  });
});

Deno.test("Sandbox.run() as root gives each concurrent sandbox its own uid, which owns its workspace", async () => {
  // isolate's rule: two sandboxes cannot signal, trace or read each other even outside namespaces.
  if (!isolation.hostRoot) return skip("not root: sandboxes share this user's uid");
  if (!jailed) return skip("no bwrap here");
  const sandbox = new Sandbox({ isolation });
  await withWorkspace(async (a) => {
    await withWorkspace(async (b) => {
      const script = "import os, time\nprint(os.getuid())\ntime.sleep(0.5)";
      const [ra, rb] = await Promise.all([runIn(a, script, sandbox), runIn(b, script, sandbox)]);
      assert.equal(ra.exitCode, 0, ra.stderr);
      assert.notEqual(ra.stdout.trim(), rb.stdout.trim());
      const owner = Deno.statSync(a);
      assert.equal(owner.uid, Number(ra.stdout.trim()));
      assert.equal(owner.mode! & 0o022, 0, "other users may write the workspace");
    });
  });
});

Deno.test("Sandbox.run() as root keeps per-user kernel quotas away from host root", async () => {
  // The attack: exhausting inotify instances in the jail made inotify fail for every root process.
  if (!isolation.hostRoot) return skip("not root: the quota is this user's own either way");
  if (!jailed) return skip("no bwrap here");
  await withWorkspace(async (ws) => {
    const running = new Sandbox({ isolation }).run({
      argv: python(
        "import ctypes, time\nlibc = ctypes.CDLL(None)\nn = 0\nwhile libc.inotify_init() >= 0:\n    n += 1\nopen('count', 'w').write(str(n))\ntime.sleep(30)",
      ),
      cwd: ws,
      timeoutMs: 5000,
    });
    let hostCould: boolean | null = null;
    try {
      for (let i = 0; i < 200 && hostCould === null; i++) {
        await new Promise((r) => setTimeout(r, 50));
        try {
          Deno.statSync(join(ws, "count"));
        } catch {
          continue;
        }
        // Host root (this process's user) makes an inotify instance while the jail holds its all.
        const out = await new Deno.Command("python3", {
          args: ["-c", "import ctypes\nprint(ctypes.CDLL(None).inotify_init() >= 0)"],
          stdout: "piped",
        }).output();
        hostCould = new TextDecoder().decode(out.stdout).trim() === "True";
      }
    } finally {
      await running;
    }
    assert.equal(hostCould, true);
  });
});

Deno.test("Sandbox.run() caps /tmp and /dev/shm while the command writes", async () => {
  // The attack: /dev/shm was the host's and uncapped (420 MiB written in one command).
  if (!jailed) return skip("no bwrap here: /dev/shm and /tmp are the host's");
  const sandbox = new Sandbox({
    isolation,
    limits: { shmBytes: 4 * 1024 ** 2, tmpBytes: 4 * 1024 ** 2 },
  });
  await withWorkspace(async (ws) => {
    const result = await runIn(
      ws,
      `for path in ('/dev/shm/fill', '/tmp/fill'):
    try:
        with open(path, 'wb') as f:
            for _ in range(16):
                f.write(b'x' * 1024 * 1024)
                f.flush()
        print(path, 'not capped')
    except OSError as e:
        print(path, e.errno)`,
      sandbox,
    );
    assert.equal(result.exitCode, 0, result.stderr);
    // ENOSPC (28) while writing, at 4 MiB, not afterwards.
    assert.equal(result.stdout, "/dev/shm/fill 28\n/tmp/fill 28\n");
  });
});

Deno.test("unmetRequirement() and missingGuarantees() say what this kind of machine lacks", () => {
  const bare = {
    ...isolation,
    level: "process" as const,
    reason: "bwrap is not installed",
    mounts: null,
    seccomp: null,
    cgroup: null,
    cgroupReason: "no pids controller",
  };
  assert.equal(unmetRequirement(bare, "none"), null);
  assert.match(unmetRequirement(bare, "jail")!, /no bwrap jail \(bwrap is not installed\)/);
  assert.match(unmetRequirement(bare, "full")!, /no per-sandbox cgroups \(no pids controller\)/);
  const missing = missingGuarantees(bare).join("\n");
  assert.match(missing, /no jail \(bwrap is not installed\)/);
  assert.match(missing, /no per-sandbox cgroups/);
  if (jailed && isolation.seccomp && isolation.cgroup?.memory) {
    assert.equal(unmetRequirement(isolation, "full"), null);
  }
});

Deno.test("Sandbox.run() binds setpriv into the jail only when it drops root there", async () => {
  // One program less the jailed code can run, and one bind less per run.
  if (!jailed) return skip("no bwrap here");
  await withWorkspace(async (ws) => {
    const where = isolation.mounts?.setpriv ?? "/usr/libexec/setpriv";
    const check =
      `import os\nprint(any(os.path.exists(p) for p in ('/usr/bin/setpriv', '${where}')))`;
    const own = await runIn(ws, check);
    assert.equal(own.exitCode, 0, own.stderr);
    assert.equal(own.stdout.trim(), "False");
    if (!isolation.hostRoot || !isolation.mounts?.setpriv) return;
    // As root through the sh fallback, setpriv is the jail's first program.
    const sh = new Sandbox({ isolation: { ...isolation, launcher: null, launcherReason: "test" } });
    const fallback = await runIn(ws, check, sh);
    assert.equal(fallback.exitCode, 0, fallback.stderr);
    assert.equal(fallback.stdout.trim(), "True");
  });
});
