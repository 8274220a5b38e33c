/**
 * The entry point of `deno task patchgym`: computes the Deno permission flags the command line
 * needs (src/cli/permissions.ts) and runs `main.ts` under exactly those, in the folder the user
 * ran the task from. This process never sees agent input; it only reads the command line, the
 * endpoint variables and a resumed run's run.json, and starts this Deno.
 */
import { fileURLToPath } from "node:url";
import { LAUNCHER_ENV } from "./src/cli/_launcher.ts";
import { permissionFlags, planPermissions } from "./src/cli/permissions.ts";
import { buildLauncher, LAUNCHER_PATH_ENV } from "./src/sandbox/launcher.ts";
import { ownId } from "./src/own_id.ts";
import {
  buildProgramFolder,
  programEntries,
  PROGRAMS_PATH_ENV,
} from "./src/sandbox/program_folder.ts";
import { unsafeRoot, unsafeRootMessage } from "./src/workspace/root.ts";

/** Run `main.ts ARGS` with computed permissions; resolves with its exit code. */
export async function launch(args: string[]): Promise<number> {
  // `deno task` runs in the folder of deno.json and names the user's folder in INIT_CWD.
  const cwd = Deno.env.get("INIT_CWD") || Deno.cwd();
  const env = Object.fromEntries(
    [
      "PATCHGYM_BASE_URL",
      "OPENAI_BASE_URL",
      "PATCHGYM_TASKS",
      "PATCHGYM_RAY_PYTHON",
      "PATCHGYM_TOKEN",
      "PATCHGYM_ENV_CACHE",
      "HOME",
    ].map((n) => [n, Deno.env.get(n)]),
  );
  // Who runs it: the default workspace root is per user (see `defaultWorkRoot`).
  const uid = ownId("u");
  const plan = planPermissions(args, {
    cwd,
    env,
    bundledTasks: fileURLToPath(new URL("./tasks", import.meta.url)),
    uid,
  });
  // The whole path of the workspace root, which main.ts may look at only from the root down.
  if (plan.workRoot && uid !== null) {
    const unsafe = unsafeRoot(plan.workRoot, { uid, gid: ownId("g") ?? undefined });
    if (unsafe) {
      console.error(unsafeRootMessage(plan.workRoot, unsafe));
      return 1;
    }
  }
  // Children start through the compiled launcher (built here once: this process may run programs),
  // so main.ts may run only it; without a compiler, through sh, which can start anything.
  const launcher = await buildLauncher();
  if (!launcher.path) {
    console.error(
      `patchgym: no compiled launcher (${launcher.reason}): children start through sh, so --allow-run names sh, which can start any program; install a C compiler (apt-get install gcc)`,
    );
  }
  // The allowlisted programs as one folder per destination, bound into every jail in place of one
  // bind per program (main.ts checks it again before use, and may only read it).
  const programs = await buildProgramFolder(programEntries([Deno.execPath()]));
  if (!programs.folder) {
    console.error(
      `patchgym: no programs folder (${programs.reason}): each program is bound into the jail on its own`,
    );
  }
  const deno = Deno.execPath();
  const child = new Deno.Command(deno, {
    args: [
      "run",
      ...permissionFlags(plan, {
        launcher: launcher.path,
        programs: programs.folder?.folder ?? null,
      }),
      fileURLToPath(new URL("./main.ts", import.meta.url)),
      ...args,
    ],
    cwd,
    env: {
      [LAUNCHER_ENV]: String(Deno.pid),
      // Empty when there is none: main.ts inherits this environment, and a path named by whoever
      // started patchgym is not one launch.ts built and granted.
      [LAUNCHER_PATH_ENV]: launcher.path ?? "",
      [PROGRAMS_PATH_ENV]: programs.folder?.folder ?? "",
    },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
    // Its own process group: a terminal's Ctrl-C reaches this process only, which passes it on
    // once (main.ts treats a second Ctrl-C as "quit now").
    detached: true,
  }).spawn();
  const forward = (signal: Deno.Signal) => () => {
    try {
      child.kill(signal);
    } catch {
      // Already exited.
    }
  };
  const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((s) => [s, forward(s)] as const);
  for (const [signal, handler] of handlers) Deno.addSignalListener(signal, handler);
  try {
    const status = await child.status;
    return status.signal ? 128 + signalNumber(status.signal) : status.code;
  } finally {
    for (const [signal, handler] of handlers) Deno.removeSignalListener(signal, handler);
  }
}

function signalNumber(signal: Deno.Signal): number {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal as string] ?? 1;
}

if (import.meta.main) Deno.exit(await launch(Deno.args));
