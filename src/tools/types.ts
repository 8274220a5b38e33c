/**
 * What a tool is: a name, a model-facing description, a zod input schema with `.describe()` on
 * every field, and a handler that reaches side effects only through its context.
 */
import type { z } from "zod";
import type { Runner } from "../sandbox/runner.ts";
import type { Task } from "../task/spec.ts";
import type { Workspace } from "../workspace/workspace.ts";

/** The closed set of reasons a tool call fails; the model sees the code and the message. */
export type ToolErrorCode =
  | "invalid_input"
  | "unknown_tool"
  | "path_outside_workspace"
  | "path_not_allowed"
  | "not_found"
  | "is_directory"
  | "binary_file"
  | "protected_path"
  | "patch_failed"
  | "no_match"
  | "ambiguous_match"
  | "invalid_regex"
  | "program_not_allowed"
  | "timeout"
  | "internal_error";

/** A tool's answer: an observation for the model either way. */
export type ToolResult =
  | {
    ok: true;
    output: string;
    /** Whether the output was cut to fit its caps. */
    truncated?: boolean;
    /** Structured facts for the loop and the trajectory (test counts, submit status). */
    meta?: Record<string, unknown>;
  }
  | { ok: false; code: ToolErrorCode; message: string; meta?: Record<string, unknown> };

/** Everything a tool handler may touch. Tests swap in fakes. */
export interface ToolContext {
  task: Task;
  workspace: Workspace;
  runner: Runner;
}

/** One agent tool. */
export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: S;
  run(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** Define a tool with its input type inferred from the schema. */
export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}

/** Shorthand for a failed result. */
export function fail(code: ToolErrorCode, message: string): ToolResult {
  return { ok: false, code, message };
}

/**
 * Whether a guarded path is protected: as named, or where it really leads (a symlink inside the
 * workspace may point at a protected file).
 */
export function touchesProtected(task: Task, target: { rel: string; realRel: string }): boolean {
  return isProtected(task, target.rel) || isProtected(task, target.realRel);
}

/** Whether `path` (relative, normalized) is under one of the task's protected paths. */
export function isProtected(task: Task, path: string): boolean {
  return task.spec.protected_paths.some((p) =>
    p.endsWith("/")
      ? path.startsWith(p) || `${path}/` === p
      : path === p || path.startsWith(`${p}/`)
  );
}
