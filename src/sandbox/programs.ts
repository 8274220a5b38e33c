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

/**
 * The largest argument a child may get, in UTF-8 bytes: the kernel refuses one of 128 KiB or more
 * with its terminating NUL (`MAX_ARG_STRLEN`).
 */
export const MAX_ARGUMENT_BYTES = 128 * 1024 - 1;
/**
 * The most bytes all of a command's arguments may take (each counted with its NUL and pointer):
 * the kernel's whole budget (a quarter of the stack limit, 2 MiB by default) also holds the
 * environment and the sandbox's own arguments (bwrap's mounts).
 */
export const MAX_ARGV_BYTES = 512 * 1024;

/**
 * Why no process can be started with `argv` (a NUL byte, an argument or the whole list too long
 * for the kernel), or null. A spawn that fails for these is the caller's mistake, not a broken
 * sandbox.
 */
export function argvProblem(argv: readonly string[]): string | null {
  const encoder = new TextEncoder();
  let total = 0;
  for (const [i, arg] of argv.entries()) {
    if (arg.includes("\0")) return `argument ${i} holds a NUL byte, which no program can receive`;
    const bytes = encoder.encode(arg).length;
    if (bytes > MAX_ARGUMENT_BYTES) {
      return `argument ${i} is ${bytes} bytes, over the ${MAX_ARGUMENT_BYTES} one argument may be`;
    }
    total += bytes + 9;
  }
  if (total > MAX_ARGV_BYTES) {
    return `the arguments take ${total} bytes, over the ${MAX_ARGV_BYTES} a command may have`;
  }
  return null;
}
