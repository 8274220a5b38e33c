/** The compiled launcher as the spawner and `serve` tests need it, and their scratch folders. */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { buildLauncher } from "../../src/sandbox/launcher.ts";

/** Say why a test did nothing here. */
export function skip(reason: string): void {
  console.warn(`skipped: ${reason}`);
}

/** The compiled launcher, or null (with a note). */
export async function compiledLauncher(): Promise<string | null> {
  const built = await buildLauncher();
  if (!built.path) skip(`no compiled launcher: ${built.reason}`);
  return built.path ?? null;
}

/** The compiled launcher when it runs as root, or null (with a note). */
export async function rootLauncher(): Promise<string | null> {
  const launcher = await compiledLauncher();
  if (!launcher) return null;
  const uid = await new Deno.Command(launcher, { args: ["uid"], stderr: "null" }).output();
  if (new TextDecoder().decode(uid.stdout).trim() !== "0") {
    skip("not root");
    return null;
  }
  return launcher;
}

/** The pids of this process's children running `launcher serve` (Deno reads no /proc). */
export async function servePids(): Promise<number[]> {
  const ps = await new Deno.Command("ps", {
    args: ["-o", "pid=,ppid=,args=", "--ppid", String(Deno.pid)],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(ps.stdout).split("\n").map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, , mode]) => ppid === String(Deno.pid) && mode === "serve")
    .map(([pid]) => Number(pid));
}

/** Whether `dir` is a mount point: another device than its parent's (Deno reads no /proc). */
export function mounted(dir: string): boolean {
  try {
    return Deno.statSync(dir).dev !== Deno.statSync(join(dir, "..")).dev;
  } catch {
    return false;
  }
}

/**
 * Run `fn` in a scratch folder (its real path); whatever was mounted below it is detached through
 * `launcher umount-under` before it is removed, so a broken defense leaves nothing behind.
 */
export async function withDir(
  fn: (dir: string) => Promise<void>,
  launcher: string,
): Promise<void> {
  const dir = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-launcher-test-" }));
  try {
    await fn(dir);
  } finally {
    await new Deno.Command(launcher, { args: ["umount-under", dir] }).output();
    await Deno.remove(dir, { recursive: true });
  }
}
