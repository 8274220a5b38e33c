/** The flags every command that runs tasks shares, and opening the environment from them. */
import { Environment } from "../rollout/environment.ts";
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

/** Open the environment the flags describe. */
export function openEnvironment(values: EnvironmentFlagValues): Promise<Environment> {
  return Environment.open({
    tasksDir: tasksDirOf(values),
    workRoot: values["work-dir"],
    isolation: choiceFlag(
      "isolation",
      values.isolation,
      ["auto", "bwrap", "none"] as const,
      "auto",
    ),
  });
}
