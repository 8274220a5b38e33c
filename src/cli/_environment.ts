/** The flags every command that runs tasks shares, and opening the environment from them. */
import { resolve } from "node:path";
import { defaultWorkRoot, Environment, SHARED_WORK_ROOT } from "../agent/environment.ts";
import { UsageError } from "../errors.ts";
import { launcherUnmount } from "../sandbox/launcher.ts";
import { DEFAULT_LIMITS, ISOLATION_REQUIREMENTS } from "../sandbox/sandbox.ts";
import { defaultRunSlots, RUNS_PER_CORE } from "../sandbox/run_slots.ts";
import { DEFAULT_USER_RANGE, parseUserRange } from "../sandbox/users.ts";
import type { ToolLimits } from "../tools/types.ts";
import { claimRoot, exitOnSignal } from "../workspace/root.ts";
import { choiceFlag, env, intFlag } from "./_args.ts";
import { defaultTasksDir } from "./_paths.ts";

/** `--tasks-dir`, `--work-dir`, `--isolation`, and the per-sandbox caps. */
export const ENVIRONMENT_FLAGS = {
  "tasks-dir": { type: "string" },
  "work-dir": { type: "string" },
  isolation: { type: "string" },
  "sandbox-processes": { type: "string" },
  "sandbox-memory-mb": { type: "string" },
  "sandbox-uids": { type: "string" },
  "sandbox-runs": { type: "string" },
  "require-isolation": { type: "string" },
  "unsafe-root-without-jail": { type: "boolean" },
  "cold-python": { type: "boolean" },
  "on-demand-jails": { type: "boolean" },
  "env-cache": { type: "string" },
} as const;

/** Where `--work-dir` defaults to, for help texts (see `defaultWorkRoot`). */
export const WORK_DIR_DEFAULT = Deno.build.standalone
  ? `default ${SHARED_WORK_ROOT}`
  : `default ${SHARED_WORK_ROOT}-UID, as root ${SHARED_WORK_ROOT}`;

/** Help text for {@linkcode ENVIRONMENT_FLAGS}' sandbox caps. */
export const SANDBOX_FLAGS_HELP =
  `  --sandbox-processes N  processes and threads per sandbox (cgroup; default ${DEFAULT_LIMITS.processes})
  --sandbox-memory-mb N  memory per sandbox in MiB (cgroup; default ${
    DEFAULT_LIMITS.memoryBytes / 1024 ** 2
  })
  --sandbox-uids A-B     as root: host uids sandboxes run as, one per concurrent sandbox
                         (default ${DEFAULT_USER_RANGE.first}-${
    DEFAULT_USER_RANGE.first + DEFAULT_USER_RANGE.count - 1
  })
  --sandbox-runs N       sandboxed commands and test runs at once; more wait their turn
                         (default ${RUNS_PER_CORE} per core: ${defaultRunSlots()} here)
  --require-isolation L  refuse to start unless this machine gives "jail" (bwrap + seccomp)
                         or "full" (jail + per-sandbox cgroups); default none
  --unsafe-root-without-jail
                         as root without bwrap, run agent code anyway (it reaches the host)
  --cold-python          as root: start every Python test run in its jail, never forked from
                         the warm interpreter (docs/sandbox.md, "Warm Python runs")
  --on-demand-jails      as root: make each command's jail when it comes, not while the model
                         answers (docs/sandbox.md, "Jails made ahead")`;

/** Values of {@linkcode ENVIRONMENT_FLAGS} after parsing. */
export interface EnvironmentFlagValues {
  "tasks-dir"?: string;
  "work-dir"?: string;
  isolation?: string;
  "sandbox-processes"?: string;
  "sandbox-memory-mb"?: string;
  "sandbox-uids"?: string;
  "sandbox-runs"?: string;
  "require-isolation"?: string;
  "unsafe-root-without-jail"?: boolean;
  "cold-python"?: boolean;
  "on-demand-jails"?: boolean;
  "env-cache"?: string;
}

/** The tasks folder the flags name (or the default). */
export function tasksDirOf(values: EnvironmentFlagValues): string {
  return values["tasks-dir"] ?? defaultTasksDir(env("PATCHGYM_TASKS"));
}

/**
 * Open the environment the flags describe, with `toolLimits` for every episode's tool calls.
 * Workspaces go to this process's own folder under the workspace root (see `claimRoot`): folders
 * left there by dead processes are removed first, and this one is removed at exit, also on SIGTERM
 * (unless `drainOnSigterm`: the caller then handles SIGTERM itself and exits once drained).
 */
export function openEnvironment(
  values: EnvironmentFlagValues,
  toolLimits?: Partial<ToolLimits>,
  options: { drainOnSigterm?: boolean } = {},
): Promise<Environment> {
  const isolation = choiceFlag(
    "isolation",
    values.isolation,
    ["auto", "bwrap", "none"] as const,
    "auto",
  );
  const sandboxLimits = {
    processes: intFlag(
      "sandbox-processes",
      values["sandbox-processes"],
      DEFAULT_LIMITS.processes,
      8,
      100_000,
    ),
    memoryBytes: intFlag(
      "sandbox-memory-mb",
      values["sandbox-memory-mb"],
      DEFAULT_LIMITS.memoryBytes / 1024 ** 2,
      32,
      1024 ** 2,
    ) * 1024 ** 2,
  };
  const owned = claimRoot(resolve(values["work-dir"] || defaultWorkRoot()), {
    unmount: launcherUnmount(),
  });
  if (!options.drainOnSigterm) exitOnSignal("SIGTERM");
  if (owned.swept.length > 0) {
    console.error(
      `Removed ${owned.swept.length} workspace folder(s) left by processes that died: ${
        owned.swept.join(", ")
      }`,
    );
  }
  const requireIsolation = choiceFlag(
    "require-isolation",
    values["require-isolation"],
    ISOLATION_REQUIREMENTS,
    "none",
  );
  let sandboxUsers;
  try {
    sandboxUsers = values["sandbox-uids"] ? parseUserRange(values["sandbox-uids"]) : undefined;
  } catch (error) {
    throw new UsageError(`--sandbox-uids: ${(error as Error).message}`);
  }
  const runSlots = intFlag("sandbox-runs", values["sandbox-runs"], defaultRunSlots(), 1, 100_000);
  return Environment.open({
    tasksDir: tasksDirOf(values),
    runSlots,
    workRoot: owned.dir,
    keepRoot: owned.parent,
    isolation,
    limits: toolLimits,
    sandboxLimits,
    sandboxUsers,
    unjailedRoot: values["unsafe-root-without-jail"] ?? false,
    coldPython: values["cold-python"] ?? false,
    onDemandJails: values["on-demand-jails"] ?? false,
    requireIsolation,
    ...(values["env-cache"] ? { envCache: resolve(values["env-cache"]) } : {}),
  });
}
