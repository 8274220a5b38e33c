/** The flags every command that runs tasks shares, and opening the environment from them. */
import { resolve } from "node:path";
import { DEFAULT_WORK_ROOT, Environment } from "../rollout/environment.ts";
import type { ToolLimits } from "../tools/types.ts";
import { claimRoot, exitOnSignal } from "../workspace/root.ts";
import { choiceFlag, env } from "./_args.ts";
import { defaultTasksDir } from "./_paths.ts";

/** `--tasks-dir`, `--work-dir`, `--isolation`. */
export const ENVIRONMENT_FLAGS = {
  "tasks-dir": { type: "string" },
  "work-dir": { type: "string" },
  isolation: { type: "string" },
} as const;

/** Values of {@linkcode ENVIRONMENT_FLAGS} after parsing. */
export interface EnvironmentFlagValues {
  "tasks-dir"?: string;
  "work-dir"?: string;
  isolation?: string;
}

/** The tasks folder the flags name (or the default). */
export function tasksDirOf(values: EnvironmentFlagValues): string {
  return values["tasks-dir"] ?? defaultTasksDir(env("PATCHGYM_TASKS"));
}

/**
 * Open the environment the flags describe; `hide` adds paths children must not see. Workspaces go
 * to this process's own folder under the workspace root (see `claimRoot`): folders left there by
 * dead processes are removed first, and this one is removed at exit, also on SIGTERM.
 */
export function openEnvironment(
  values: EnvironmentFlagValues,
  hide: string[] = [],
  limits?: Partial<ToolLimits>,
): Promise<Environment> {
  const owned = claimRoot(resolve(values["work-dir"] ?? DEFAULT_WORK_ROOT));
  exitOnSignal("SIGTERM");
  if (owned.swept.length > 0) {
    console.error(
      `Removed ${owned.swept.length} workspace folder(s) left by processes that died: ${
        owned.swept.join(", ")
      }`,
    );
  }
  return Environment.open({
    tasksDir: tasksDirOf(values),
    workRoot: owned.dir,
    keepRoot: owned.parent,
    hide: [...hide, owned.parent],
    limits,
    isolation: choiceFlag(
      "isolation",
      values.isolation,
      ["auto", "bwrap", "none"] as const,
      "auto",
    ),
  });
}
