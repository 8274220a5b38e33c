/** The jail's mount plan: what is bound, linked, or left out. */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { findProgram, planMounts } from "../../src/sandbox/mounts.ts";
import { probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";

const isolation = await probeIsolation();

/** A library folder of the plan's that holds only symlinks on this host, or null. */
function linkFolder(): string | null {
  const triplet = `${Deno.build.arch}-linux-gnu`;
  for (const dir of ["/usr/lib64", "/lib64", `/usr/lib/${triplet}`]) {
    try {
      const real = realpathSync(dir);
      const entries = [...Deno.readDirSync(real)];
      if (entries.length > 0 && entries.length <= 16 && entries.every((e) => e.isSymlink)) {
        return real;
      }
    } catch {
      // Not here.
    }
  }
  return null;
}

Deno.test("planMounts() makes a library folder of links out of the same links instead of a bind", async () => {
  const dir = linkFolder();
  if (!dir) return console.warn("skipped: no library folder of links only here");
  const plan = planMounts([]);
  assert.ok(!plan.mounts.some((m) => m.kind === "ro-bind" && m.dest === dir));
  const links = plan.mounts.filter((m) => m.kind === "symlink" && m.dest.startsWith(`${dir}/`));
  assert.deepEqual(
    links.map((m) => [m.dest, m.source]),
    [...Deno.readDirSync(dir)].map((e) => [join(dir, e.name), Deno.readLinkSync(join(dir, e.name))])
      .sort((a, b) => (a[0] < b[0] ? -1 : 1)),
  );
  if (isolation.level !== "bwrap") {
    // As root (no user namespace needed), an installed bwrap that cannot start the plan's jail is
    // this plan's fault: a folder the sandbox's uid cannot pass through makes even the probe fail.
    if (isolation.hostRoot) {
      assert.equal(
        findProgram("bwrap"),
        null,
        `bwrap is installed but unused: ${isolation.reason}`,
      );
    }
    return console.warn("skipped: no bwrap here");
  }
  // The jail shows the same links, reachable by the sandbox's uid (root: a folder bwrap makes is
  // 0700 unless the plan says otherwise), and programs still load through them.
  const ws = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-mounts-" }));
  try {
    const result = await new Sandbox({ isolation }).run({
      argv: [
        "python3",
        "-c",
        `import os, json; d = ${
          JSON.stringify(dir)
        }; print(json.dumps(sorted([os.path.join(d, n), os.readlink(os.path.join(d, n))] for n in os.listdir(d))))`,
      ],
      cwd: ws,
      timeoutMs: 20_000,
    });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), links.map((m) => [m.dest, m.source]));
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});
