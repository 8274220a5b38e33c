/**
 * What a tool is: a name, a model-facing description, a zod input schema with `.describe()` on
 * every field, and a handler that reaches side effects only through its context.
 */
import type { z } from "zod";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { TestEnvironment } from "../sandbox/test_runner.ts";
import { isProtected } from "../task/protected.ts";
import type { RunnerName, Task } from "../task/spec.ts";
import { DEFAULT_MAX_DIFF_BYTES } from "../patch/diff.ts";
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
  | "patch_too_large"
  | "path_too_deep"
  | "interrupted"
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
  /** Files one `apply_patch` may create, change, delete or rename. */
  maxPatchFiles: number;
  /** Bytes one write (a patch's text, `write_file`'s content, a replacement) may carry. */
  maxWriteBytes: number;
  /** Folders deep a path the write tools create may be. */
  maxPathDepth: number;
  /** Longest one `apply_patch` may take to stage its changes (nothing is written after it). */
  writeTimeoutMs: number;
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
  /** Folder entries `list_files` and `inspect_tree` read at most (they run on the main thread). */
  maxListEntries: number;
}

/** Default {@linkcode ToolLimits}. */
export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  searchTimeoutMs: 5_000,
  maxOutputChars: 64 * 1024,
  maxFileBytes: 8 * 1024 * 1024,
  maxDiffBytes: DEFAULT_MAX_DIFF_BYTES,
  maxGrowthBytes: DEFAULT_MAX_GROWTH_BYTES,
  maxListEntries: 50_000,
  maxPatchFiles: 500,
  maxWriteBytes: 8 * 1024 * 1024,
  maxPathDepth: 32,
  writeTimeoutMs: 20_000,
};

/**
 * Everything a tool handler may touch: the workspace, the sandbox, and a narrow view of the task.
 * Never the whole task: the hidden tests' folder and the reference patch stay out of reach of
 * every tool. Tests swap in fakes.
 */
export interface ToolContext {
  workspace: Workspace;
  sandbox: Sandbox;
  /** The visible tests `run_tests` runs: the test framework and the files. */
  tests: { runner: RunnerName; files: readonly string[]; environment?: TestEnvironment };
  /** Paths the agent must not edit (see `isProtected`). */
  protectedPaths: readonly string[];
  /** Longest one command or test run may take, in seconds. */
  commandTimeoutS: number;
  /** Defaults to {@linkcode DEFAULT_TOOL_LIMITS}. */
  limits?: Partial<ToolLimits>;
  /**
   * Aborted when the episode is stopped (Ctrl-C): a sandboxed run still waiting for its turn then
   * never starts, and the tool answers `interrupted`.
   */
  signal?: AbortSignal;
}

/** The tool context for `task` over `workspace`: only what tools need to know of the task. */
export function toolContext(
  task: Task,
  env: {
    workspace: Workspace;
    sandbox: Sandbox;
    limits?: Partial<ToolLimits>;
    environment?: TestEnvironment;
    signal?: AbortSignal;
  },
): ToolContext {
  const { spec } = task;
  return {
    workspace: env.workspace,
    sandbox: env.sandbox,
    tests: {
      runner: spec.runner,
      files: spec.visible_tests,
      ...(env.environment ? { environment: env.environment } : {}),
    },
    protectedPaths: spec.protected_paths,
    commandTimeoutS: spec.limits.command_timeout_s,
    ...(env.limits ? { limits: env.limits } : {}),
    ...(env.signal ? { signal: env.signal } : {}),
  };
}

/** How many folders deep a relative path is (`a/b/c.py` is 3). */
export function pathDepth(path: string): number {
  return path.split("/").filter((part) => part !== "" && part !== ".").length;
}

/**
 * Why a write tool refuses `path` and `bytes` under `limits`, as a tool failure; null when both
 * are within bounds.
 */
export function writeBoundsProblem(
  path: string,
  bytes: number,
  limits: ToolLimits,
): { ok: false; code: ToolErrorCode; message: string } | null {
  if (pathDepth(path) > limits.maxPathDepth) {
    return {
      ok: false,
      code: "path_too_deep",
      message: `Cannot write "${path.slice(0, 120)}...": it is ${
        pathDepth(path)
      } folders deep, over the limit of ${limits.maxPathDepth}; use a shallower path`,
    };
  }
  if (bytes > limits.maxWriteBytes) {
    return {
      ok: false,
      code: "file_too_large",
      message:
        `Cannot write "${path}": the content holds ${bytes} bytes, over the limit of ${limits.maxWriteBytes} bytes per write; write a smaller file`,
    };
  }
  return null;
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
export function touchesProtected(
  ctx: ToolContext,
  target: { rel: string; realRel: string },
): boolean {
  return isProtected(ctx.protectedPaths, target.rel) ||
    isProtected(ctx.protectedPaths, target.realRel);
}
