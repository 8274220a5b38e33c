/**
 * What a tool is: a name, a model-facing description, a zod input schema with `.describe()` on
 * every field, and a handler that reaches side effects only through its context.
 */
import type { z } from "zod";
import type { Runner } from "../sandbox/runner.ts";
import type { Task } from "../task/spec.ts";
import { DEFAULT_MAX_DIFF_BYTES } from "../workspace/diff.ts";
import { DEFAULT_MAX_GROWTH_BYTES } from "../workspace/limits.ts";
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
  | "file_too_large"
  | "workspace_too_large"
  | "diff_too_large"
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

/** Bounds on what one tool call may cost the orchestrator. */
export interface ToolLimits {
  /** Longest a `search` may run before its worker is stopped. */
  searchTimeoutMs: number;
  /** Characters of one tool result shown to the model (head and tail kept). */
  maxOutputChars: number;
  /** Largest file `read_file` and `replace_text` load. */
  maxFileBytes: number;
  /** Cap on the final diff (see `diffTree`); `submit` refuses a bigger one. */
  maxDiffBytes: number;
  /** How much the workspace may grow over the task's repository. */
  maxGrowthBytes: number;
}

/** Default {@linkcode ToolLimits}. */
export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  searchTimeoutMs: 5_000,
  maxOutputChars: 64 * 1024,
  maxFileBytes: 8 * 1024 * 1024,
  maxDiffBytes: DEFAULT_MAX_DIFF_BYTES,
  maxGrowthBytes: DEFAULT_MAX_GROWTH_BYTES,
};

/** Everything a tool handler may touch. Tests swap in fakes. */
export interface ToolContext {
  task: Task;
  workspace: Workspace;
  runner: Runner;
  /** Defaults to {@linkcode DEFAULT_TOOL_LIMITS}. */
  limits?: Partial<ToolLimits>;
}

/** The limits in force for `ctx`. */
export function limitsOf(ctx: ToolContext): ToolLimits {
  return ctx.limits ? { ...DEFAULT_TOOL_LIMITS, ...ctx.limits } : DEFAULT_TOOL_LIMITS;
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
