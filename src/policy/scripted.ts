/**
 * The scripted policy: replies from a JSON file, for tests and for replaying a trajectory.
 * A script is a list of steps (`{"tool", "arguments"}`, `{"tool_calls": [...]}` or
 * `{"content"}` for a reply without a call), `{"steps": [...]}`, or a trajectory record whose
 * model turns are replayed.
 */
import { formatIssue } from "../zod_issues.ts";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { PolicyError, UsageError } from "../errors.ts";
import { type PlannedCall, plannedTurn } from "./_turn.ts";
import type { Policy, PolicyRequest, PolicyTurn } from "./types.ts";

const CallSchema = z.strictObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

const StepSchema = z.union([
  z.strictObject({
    tool: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).default({}),
    content: z.string().optional(),
  }),
  z.strictObject({ tool_calls: z.array(CallSchema), content: z.string().optional() }),
  z.strictObject({ content: z.string() }),
]);

/** One scripted reply. */
export interface ScriptStep {
  calls: PlannedCall[];
  content: string | null;
}

/** A policy that replays fixed replies, then fails with `policy_error` when they run out. */
export class ScriptedPolicy implements Policy {
  readonly name = "scripted";
  readonly model = null;
  readonly sampling = {};
  readonly textToolCalls = false;
  readonly #steps: ScriptStep[];
  #index = 0;

  constructor(steps: ScriptStep[]) {
    this.#steps = steps;
  }

  next(_request: PolicyRequest): Promise<PolicyTurn> {
    const step = this.#steps[this.#index];
    if (!step) {
      return Promise.reject(
        new PolicyError(`Script exhausted after ${this.#steps.length} replies`),
      );
    }
    return Promise.resolve(plannedTurn(this.#index++, step.calls, step.content));
  }
}

/** Parse a script from JSON text (a step list, `{steps}`, or a trajectory record / JSONL). */
export function parseScript(text: string, label = "script"): ScriptStep[] {
  let data: unknown;
  const trimmed = text.trim();
  try {
    data = JSON.parse(trimmed);
  } catch {
    try {
      data = JSON.parse(trimmed.split("\n")[0]);
    } catch (error) {
      throw new UsageError(`${label}: not valid JSON or JSONL: ${(error as Error).message}`);
    }
  }
  if (
    isRecord(data) && typeof data.format === "string" &&
    data.format.startsWith("patchgym.trajectory")
  ) {
    return replaySteps(data, label);
  }
  const list = isRecord(data) && Array.isArray(data.steps) ? data.steps : data;
  const parsed = z.array(StepSchema).safeParse(list);
  if (!parsed.success) {
    const problem = formatIssue(parsed.error.issues[0], list, { under: "steps" });
    throw new UsageError(
      `${label}: ${problem}; a step is {"tool", "arguments"}, {"tool_calls": [...]} or {"content"}`,
    );
  }
  return parsed.data.map((step) => {
    if ("tool" in step) {
      return {
        calls: [{ name: step.tool, arguments: step.arguments }],
        content: step.content ?? null,
      };
    }
    if ("tool_calls" in step) return { calls: step.tool_calls, content: step.content ?? null };
    return { calls: [], content: step.content };
  });
}

/** Load a script file. */
export function loadScript(path: string): ScriptStep[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read script "${path}": ${(error as Error).message}`);
  }
  return parseScript(text, path);
}

function replaySteps(record: Record<string, unknown>, label: string): ScriptStep[] {
  if (!Array.isArray(record.turns)) {
    throw new UsageError(`${label}: trajectory record has no turns`);
  }
  return record.turns.map((turn) => {
    const model = isRecord(turn) && isRecord(turn.model) ? turn.model : {};
    const calls = Array.isArray(model.tool_calls) ? model.tool_calls : [];
    return {
      content: typeof model.content === "string" ? model.content : null,
      calls: calls.filter(isRecord).map((call) => {
        const fn = isRecord(call.function) ? call.function : call;
        const args = typeof fn.arguments === "string" ? safeJson(fn.arguments) : fn.arguments;
        return { name: String(fn.name), arguments: isRecord(args) ? args : {} };
      }),
    };
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
