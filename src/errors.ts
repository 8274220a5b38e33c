/**
 * The few error classes patchgym throws. A tool failure is never one of these: tools return
 * results the model sees. These are for malformed input at the edges and broken infrastructure.
 */

/** Codes carried by thrown errors, so callers can branch without parsing messages. */
export type ErrorCode =
  | "task_invalid"
  | "task_not_found"
  | "sandbox_failed"
  | "policy_failed"
  | "queue_failed"
  | "usage"
  | "run_failed"
  | "environment_fault"
  | "workspace_full";

/** Base class: every thrown patchgym error has a code and, where one exists, a cause. */
export class PatchgymError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A task on disk is malformed; `problems` lists every problem found, one line each. */
export class TaskError extends PatchgymError {
  readonly problems: string[];
  constructor(
    code: "task_invalid" | "task_not_found",
    problems: string[],
    options?: { cause?: unknown },
  ) {
    super(code, problems.join("\n"), options);
    this.problems = problems;
  }
}

/** A child process could not be started or supervised (not: it exited non-zero). */
export class SandboxError extends PatchgymError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("sandbox_failed", message, options);
  }
}

/** The policy could not produce an action (HTTP failure, malformed response, timeout). */
export class PolicyError extends PatchgymError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("policy_failed", message, options);
  }
}

/** The command line was used wrongly; the message says how to use it. */
export class UsageError extends PatchgymError {
  constructor(message: string) {
    super("usage", message);
  }
}

/** A run cannot start or go on for a reason outside the command line (e.g. the endpoint is down). */
export class RunError extends PatchgymError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("run_failed", message, options);
  }
}

/**
 * An error as a record's `{code, message}`: a patchgym error keeps its code, anything else (our
 * own bug, a failed file system call) is `unexpected` with its name and message.
 */
export function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof PatchgymError) return { code: error.code, message: error.message };
  return {
    code: "unexpected",
    message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  };
}

/**
 * This machine cannot run what a task needs (a test runner or runtime missing in the jail): an
 * `environment_error`, never the agent's doing and never a reward hack.
 */
export class EnvironmentFault extends PatchgymError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("environment_fault", message, options);
  }
}

/**
 * A workspace's own capped file system (or a scoring copy's) refused a write patchgym made into it
 * for want of room: what the code in it wrote took the room. It is the episode's doing (the model
 * is told, a grade is refused), never broken infrastructure.
 */
export class WorkspaceFull extends PatchgymError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("workspace_full", message, options);
  }
}

/** Whether `error` is a file system refusing a write for want of room (bytes or inodes). */
function noSpace(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOSPC";
}

/**
 * `write` into a workspace's folders; where they are its own capped file system (`capped`), a
 * refusal for want of room is the workspace's: a {@linkcode WorkspaceFull} whose message starts
 * with `failed` (what could not be done).
 */
export async function writingInto<T>(
  capped: boolean,
  failed: string,
  write: () => Promise<T> | T,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!capped || !noSpace(error)) throw error;
    throw new WorkspaceFull(
      `${failed}: the workspace's file system is full (${(error as Error).message})`,
      { cause: error },
    );
  }
}
