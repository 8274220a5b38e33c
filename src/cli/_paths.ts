/** Where the bundled tasks are: in the working directory, or beside the program. */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The default tasks folder: `PATCHGYM_TASKS` if set, else `./tasks` if it exists, else the tasks
 * bundled beside the program (embedded in the compiled binary).
 */
export function defaultTasksDir(envValue: string | undefined): string {
  if (envValue) return envValue;
  if (existsSync("tasks")) return "tasks";
  return fileURLToPath(new URL("../../tasks", import.meta.url));
}
