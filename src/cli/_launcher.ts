/**
 * A `main.ts` started by `launch.ts` stops when the launcher is gone: a launcher killed with
 * SIGKILL cannot pass a signal on, and the orchestrator must not outlive it holding workspaces.
 */

/** The variable through which launch.ts names its own process id. */
export const LAUNCHER_ENV = "PATCHGYM_LAUNCHER";

/** How often the parent is checked. */
const POLL_MS = 200;

/**
 * When started by the launcher, exit as on SIGTERM (status 143, exit handlers run, so this
 * process's workspaces are removed) once the launcher is no longer this process's parent.
 */
export function exitWithLauncher(): void {
  let launcher: string | undefined;
  try {
    launcher = Deno.env.get(LAUNCHER_ENV);
  } catch {
    return;
  }
  if (!launcher || String(Deno.ppid) !== launcher) return;
  const timer = setInterval(() => {
    if (String(Deno.ppid) === launcher) return;
    clearInterval(timer);
    console.error("patchgym: the launcher exited; stopping");
    Deno.exit(143);
  }, POLL_MS);
  // The check never keeps the process alive by itself.
  Deno.unrefTimer(timer);
}
