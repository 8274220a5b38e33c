/**
 * A process that claims a folder under `Deno.args[0]` as the CLI does (its exit detaches mounts
 * through the compiled launcher named in PATCHGYM_SANDBOX_LAUNCHER), exits on SIGTERM, and whose
 * exit meets a workspace mount that lands late: right after the exit's `umount-under`, the
 * launcher mounts a tmpfs on an empty workspace folder of the claim, as a mount request still in
 * flight in the launcher's helper does when the signal comes. Prints the claimed folder once set
 * up, then, at the exit, "late mount: ok" or "late mount: refused: WHY".
 */
import { join } from "node:path";
import { LAUNCHER_PATH_ENV, launcherUnmount } from "../../src/sandbox/launcher.ts";
import { claimRoot, exitOnSignal } from "../../src/workspace/root.ts";

const launcher = Deno.env.get(LAUNCHER_PATH_ENV)!;
const unmount = launcherUnmount()!;
let claimed = "";
const root = claimRoot(Deno.args[0], {
  unmount(dir) {
    unmount(dir);
    if (dir !== claimed) return;
    const late = new Deno.Command(launcher, {
      args: ["mount-workspace", "65536", "16", join(dir, "ws-late")],
      cwd: "/",
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).outputSync();
    const why = new TextDecoder().decode(late.stderr).trim();
    console.log(late.success ? "late mount: ok" : `late mount: refused: ${why}`);
  },
});
claimed = root.dir;
Deno.mkdirSync(join(root.dir, "ws-late"), { mode: 0o700 });
exitOnSignal("SIGTERM");
console.log(root.dir);
setInterval(() => {}, 1000);
