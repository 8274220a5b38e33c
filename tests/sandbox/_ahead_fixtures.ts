/** What the tests of jails made ahead share (`ahead_test.ts` and `ahead_redteam_test.ts`). */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import {
  type AheadOwner,
  probeIsolation,
  type RunRequest,
  type RunResult,
  Sandbox,
} from "../../src/sandbox/sandbox.ts";

export const isolation = await probeIsolation();

/** Whether jails are made ahead here: bwrap and the compiled launcher. */
export const aheadable = isolation.level === "bwrap" && !!isolation.launcher;
/** Whether they are as root, each with a sandbox uid of its own (leased from the upper half). */
export const rootAhead = aheadable && isolation.users !== null;

/** A sandbox that makes jails ahead where it can, and one that makes each when its run comes. */
export const sandbox = new Sandbox({ isolation, runSlots: 8 });
export const cold = new Sandbox({ isolation, ahead: false, runSlots: 8 });

/**
 * True (and says so) where jails cannot be made ahead (`root`: not as root, with sandbox uids):
 * the test then returns.
 */
export function skipped(root = false): boolean {
  if (root ? rootAhead : aheadable) return false;
  console.warn(
    root
      ? "skipped: jails made ahead have uids of their own only as root"
      : "skipped: jails are made ahead only with bwrap and the compiled launcher",
  );
  return true;
}

/**
 * Run `fn` in a folder (a workspace) with its owner, which ends the jails made for it before the
 * folder goes. `name`: the folder's own name, inside a temporary one; `capped`: on a capped tmpfs
 * of its own, as an episode's workspace is (fast to fill with many files).
 */
export async function withFolder<T>(
  fn: (dir: string, owner: AheadOwner) => Promise<T>,
  options: { name?: string; capped?: boolean } = {},
): Promise<T> {
  const parent = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-ahead-" }));
  await Deno.chmod(parent, 0o700);
  const mount = options.capped ? sandbox.workspaceMount(1024 ** 3, 400_000) : null;
  await mount?.mount(parent);
  const dir = options.name ? join(parent, options.name) : parent;
  if (options.name) await Deno.mkdir(dir, { mode: 0o700 });
  const cleanups: (() => Promise<void>)[] = [];
  const owner: AheadOwner = { onRemove: (cleanup) => void cleanups.push(cleanup) };
  try {
    return await fn(dir, owner);
  } finally {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
    await mount?.unmount(parent);
    // A tree deeper than Deno's removal can name goes through `rm`.
    await new Deno.Command("rm", { args: ["-rf", "--", parent] }).output();
  }
}

/** `python3 -c code` in `dir` through `box`, naming `owner` (more commands may come) if given. */
export function python(
  box: Sandbox,
  dir: string,
  owner: AheadOwner | undefined,
  code: string,
  extra: Partial<RunRequest> = {},
): Promise<RunResult> {
  return box.run({
    argv: ["python3", "-c", code],
    cwd: dir,
    timeoutMs: 30_000,
    ...(owner ? { ahead: owner } : {}),
    ...extra,
  });
}
