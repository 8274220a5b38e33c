/**
 * For jail_redteam_hide_test.ts, run as root in a mount namespace of its own (`unshare --mount
 * --propagation private`), so nothing it mounts reaches the host and all of it goes when it exits:
 * it gives the host the layout named by its first argument, then runs the same jailed command
 * with the launcher's hide step and without, and prints both results as JSON.
 *
 * Layouts: `shared` (every mount shared, as systemd makes them), `usr` (/usr a mount of its own), `tmp` (/tmp one), `root` (the work root one),
 * `etc-chain` (/etc/nsswitch.conf a symlink whose chain passes through a mount that neither the
 * link's path nor its real path is under; below that mount lies another link, to a secret file).
 * `churn ROUNDS` instead counts how runs with the step and without end while mounts come and go
 * inside a folder the jail binds.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";

const [layout, base] = Deno.args;

async function sh(...argv: string[]): Promise<void> {
  const out = await new Deno.Command(argv[0], { args: argv.slice(1), stderr: "piped" }).output();
  if (!out.success) throw new Error(`${argv.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

if (layout === "shared") await sh("mount", "--make-rshared", "/");
if (layout === "usr") await sh("mount", "--bind", "/usr", "/usr");
if (layout === "tmp") await sh("mount", "--bind", "/tmp", "/tmp");
if (layout === "root") await sh("mount", "--bind", base, base);
if (layout === "etc-chain") {
  const [copy, mid, real, secret] = ["etc", "mid", "real", "secret"].map((d) => join(base, d));
  for (const dir of [mid, real, secret]) await Deno.mkdir(dir);
  await sh("cp", "-a", "/etc/.", copy);
  await Deno.writeTextFile(join(real, "nsswitch.conf"), "# the host's own\n");
  await Deno.writeTextFile(join(secret, "nsswitch.conf"), "# secret, under a mount\n");
  await Deno.symlink(join(secret, "nsswitch.conf"), join(mid, "link"));
  await sh("mount", "-t", "tmpfs", "tmpfs", mid);
  await Deno.symlink(join(real, "nsswitch.conf"), join(mid, "link"));
  await Deno.remove(join(copy, "nsswitch.conf"));
  await Deno.symlink(join(mid, "link"), join(copy, "nsswitch.conf"));
  await sh("mount", "--bind", copy, "/etc");
}

/**
 * Mounts that come and go inside a folder a jail binds: each of four processes makes a folder,
 * mounts a tmpfs on it, detaches it and removes the folder, in a loop, until killed.
 */
const CHURN = `import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
i = 0
while True:
    path = os.path.join(sys.argv[1], 'c%d' % i).encode()
    i += 1
    os.mkdir(path)
    libc.mount(b'churn', path, b'tmpfs', 0, None)
    libc.umount2(path, 2)
    os.rmdir(path)
`;

/** How `rounds` runs with the step and as many without ended while mounts churn inside a bind. */
async function churn(rounds: number): Promise<Record<string, number>> {
  const dir = join(base, "shared");
  const ws = join(base, "churn-ws");
  await Deno.mkdir(dir);
  await Deno.mkdir(join(ws, "env"), { recursive: true });
  // Shared, as the host's mounts are: what is mounted inside reaches each launcher's namespace.
  await sh("mount", "--bind", dir, dir);
  await sh("mount", "--make-shared", dir);
  const churners = [0, 1, 2, 3].map((n) => {
    Deno.mkdirSync(join(dir, `p${n}`));
    return new Deno.Command("python3", { args: ["-c", CHURN, join(dir, `p${n}`)] }).spawn();
  });
  const counts: Record<string, number> = {};
  try {
    for (let round = 0; round < rounds; round++) {
      for (const hide of [true, false]) {
        // Bound read-only (as a task's environment is): a writable place is walked by the chown
        // step, which would meet the same churn with or without the hide step.
        const end = await new Sandbox({ isolation: { ...isolation, hideMounts: hide } }).run({
          argv: ["true"],
          cwd: ws,
          binds: [{ source: dir, dest: join(ws, "env") }],
          timeoutMs: 30_000,
        }).then((run) => run.exitCode === 0 ? "ok" : "exit", () => "setup");
        const key = `${hide ? "hide" : "plain"}-${end}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
    }
  } finally {
    for (const child of churners) child.kill("SIGKILL");
    await Promise.all(churners.map((child) => child.status));
  }
  return counts;
}

const isolation = await probeIsolation();
if (layout === "churn") {
  const counts = await churn(Number(Deno.args[2]));
  console.log(JSON.stringify({ hideMounts: isolation.hideMounts ?? false, ...counts }));
  Deno.exit(0);
}
const results: Record<string, unknown> = { hideMounts: isolation.hideMounts ?? false };
const ws = join(base, "ws");
await Deno.mkdir(ws);
const sandbox = new Sandbox({ isolation });
const mount = sandbox.workspaceMount(1 << 24, 1000);
await mount?.mount(ws);
try {
  await Deno.writeTextFile(join(ws, "mark"), "own workspace\n");
  for (const hide of [true, false]) {
    const run = await new Sandbox({ isolation: { ...isolation, hideMounts: hide } }).run({
      argv: [
        "python3",
        "-c",
        `import os, json, sqlite3
print(open('/etc/nsswitch.conf').read() if os.path.exists('/etc/nsswitch.conf') else 'none')
print(open('mark').read().strip(), len(os.listdir('/usr/bin')) > 0)
print(sorted(line.split()[4] for line in open('/proc/self/mountinfo')))`,
      ],
      cwd: ws,
      timeoutMs: 30_000,
    }).catch((error) => ({ error: String(error) }));
    results[hide ? "hide" : "plain"] = "error" in run
      ? run
      : { exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr };
  }
  results.table = await tableWhileJailed(ws);
} finally {
  await mount?.unmount(ws);
}
console.log(JSON.stringify(results));

/**
 * This namespace's mount table before, while a jail with the step runs (it waits for a file
 * before it exits) and after: what the step's namespace does must not reach it.
 */
async function tableWhileJailed(ws: string): Promise<string[][]> {
  // Other episodes' mounts on a shared machine go from this namespace too when their folders
  // are removed: only this layout's and the host's own are compared.
  const table = () =>
    Deno.readTextFileSync("/proc/self/mountinfo").split("\n").map((line) =>
      line.split(" ").slice(4, 7).join(" ")
    ).filter((line) => !line.includes("patchgym") || line.startsWith(base)).sort();
  const before = table();
  const running = new Sandbox({ isolation }).run({
    argv: [
      "python3",
      "-c",
      "import os, time\nopen('started', 'w').close()\nwhile not os.path.exists('go'): time.sleep(0.01)",
    ],
    cwd: ws,
    timeoutMs: 60_000,
  });
  while (!existsSync(join(ws, "started"))) await new Promise((go) => setTimeout(go, 10));
  const during = table();
  Deno.writeTextFileSync(join(ws, "go"), "");
  await running;
  return [before, during, table()];
}
