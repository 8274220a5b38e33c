/**
 * Programs a child process may be: the closed allowlist for `run_command` and the test runners.
 * Names only; the sandbox resolves them on a fixed PATH inside the jail.
 */

/** Programs the agent may run with `run_command`, and the test runners. */
export const ALLOWED_PROGRAMS: ReadonlySet<string> = new Set([
  "python3",
  "deno",
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep",
  "diff",
  "sort",
  "uniq",
  "echo",
  "pwd",
  "true",
  "false",
  "sed",
  "tr",
  "cut",
]);

/**
 * Programs only the test runners start (never `run_command`): `node` runs `node_test` tests under
 * Node's permission model with patchgym's preload.
 */
export const RUNNER_PROGRAMS: ReadonlySet<string> = new Set(["node"]);

/** The PATH children see, before the folder of the `deno` executable. */
export const CHILD_PATH = "/usr/local/bin:/usr/bin:/bin";

/** Whether `program` may be run; it must be a bare allowlisted name, never a path. */
export function isAllowedProgram(program: string): boolean {
  return ALLOWED_PROGRAMS.has(program);
}

/** Whether the sandbox may start `program`: an allowlisted program or a test runner's. */
export function isSandboxProgram(program: string): boolean {
  return ALLOWED_PROGRAMS.has(program) || RUNNER_PROGRAMS.has(program);
}
