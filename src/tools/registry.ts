/**
 * The tool registry: the list of tools, the JSON schemas sent to the model (generated from the
 * zod schemas, never written twice) and the one place a tool call is validated and executed.
 */
import { z } from "zod";
import { formatIssues } from "../zod_issues.ts";
import { PatchgymError } from "../errors.ts";
import { applyPatchTool } from "./apply_patch.ts";
import { inspectTreeTool } from "./inspect_tree.ts";
import { listFilesTool } from "./list_files.ts";
import { readFileTool } from "./read_file.ts";
import { replaceTextTool } from "./replace_text.ts";
import { runCommandTool } from "./run_command.ts";
import { runTestsTool } from "./run_tests.ts";
import { searchTool } from "./search.ts";
import { submitTool } from "./submit.ts";
import { fail, limitsOf, type Tool, type ToolContext, type ToolResult } from "./types.ts";
import { writeFileTool } from "./write_file.ts";
import { parseJson } from "../well_formed.ts";

/** Every agent tool, in the order the model sees them. */
export const TOOLS: readonly Tool[] = [
  inspectTreeTool,
  listFilesTool,
  readFileTool,
  searchTool,
  applyPatchTool,
  replaceTextTool,
  writeFileTool,
  runTestsTool,
  runCommandTool,
  submitTool,
] as Tool[];

/** An OpenAI chat-completions tool definition. */
export interface ToolSchema {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** Schemas already generated, per tool list: every episode asks, and generating them is slow. */
const schemaCache = new WeakMap<readonly Tool[], ToolSchema[]>();

/**
 * The tool list for the model, from the zod schemas. Generated once per tool list and frozen,
 * since every episode shares the same array.
 */
export function toolSchemas(tools: readonly Tool[] = TOOLS): ToolSchema[] {
  let schemas = schemaCache.get(tools);
  if (!schemas) {
    schemas = deepFreeze(tools.map((tool): ToolSchema => {
      const { $schema: _, ...parameters } = z.toJSONSchema(tool.input, { io: "input" }) as Record<
        string,
        unknown
      >;
      return {
        type: "function",
        function: { name: tool.name, description: tool.description, parameters },
      };
    }));
    schemaCache.set(tools, schemas);
  }
  return schemas;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Validate and run one tool call. Arguments may be a JSON string (as models send them) or an
 * object. Every failure, including an unexpected exception in a handler, becomes a result the
 * model sees; only broken infrastructure ({@linkcode PatchgymError}) is rethrown.
 */
export async function executeTool(
  name: string,
  rawArguments: unknown,
  ctx: ToolContext,
  tools: readonly Tool[] = TOOLS,
): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    return fail(
      "unknown_tool",
      `Unknown tool "${name}"; use one of: ${tools.map((t) => t.name).join(", ")}`,
    );
  }
  let args: unknown = rawArguments ?? {};
  if (typeof args === "string") {
    try {
      args = args.trim() === "" ? {} : parseJson(args);
    } catch (error) {
      return fail(
        "invalid_input",
        `Arguments of "${name}" are not valid JSON: ${
          (error as Error).message
        }; send a JSON object`,
      );
    }
  }
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) {
    const problems = formatIssues(parsed.error, args, { top: "arguments" });
    return fail(
      "invalid_input",
      `Invalid arguments for "${name}": ${problems.join("; ")}; see the tool's parameters`,
    );
  }
  try {
    return capOutput(await tool.run(parsed.data, ctx), limitsOf(ctx).maxOutputChars);
  } catch (error) {
    // The episode was stopped while the tool's run waited for its turn: nothing ran.
    if (ctx.signal?.aborted && error === ctx.signal.reason) {
      return fail("interrupted", `Tool "${name}" did not run: the episode was stopped`);
    }
    if (error instanceof PatchgymError) throw error;
    return fail(
      "internal_error",
      `Tool "${name}" failed unexpectedly: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
}

/**
 * The last line of defence on what the model reads: a result longer than `max` characters keeps
 * its head and tail around a marker. Each tool caps its own output more precisely first.
 */
function capOutput(result: ToolResult, max: number): ToolResult {
  const text = result.ok ? result.output : result.message;
  if (text.length <= max) return result;
  const half = Math.floor(max / 2);
  const cut = `${text.slice(0, half)}\n[... ${
    text.length - 2 * half
  } characters omitted: tool output is capped at ${max} characters ...]\n${text.slice(-half)}`;
  return result.ok ? { ...result, output: cut, truncated: true } : { ...result, message: cut };
}
