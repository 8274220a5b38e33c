/**
 * One episode's state: the conversation, the turn records and the limits. Every driver (the batch
 * loop, `serve`) advances an episode through `step` (step.ts) and ends it with `finish`
 * (finish.ts), so one piece of code decides what a reply does and what the record holds.
 */
import type { ChatMessage, PolicyTurn } from "../policy/types.ts";
import { testCommandLine, type TestEnvironment } from "../sandbox/test_runner.ts";
import { executeTool, TOOLS, type ToolSchema, toolSchemas } from "../tools/registry.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { Task } from "../task/spec.ts";
import { type Tool, type ToolContext, toolContext, type ToolLimits } from "../tools/types.ts";
import type { Workspace } from "../workspace/workspace.ts";
import {
  DEFAULT_EPISODE_LIMITS,
  DEFAULT_PROMPTS,
  type EpisodeLimits,
  fillTemplate,
  type Prompts,
} from "./config.ts";
import { parseJson } from "../well_formed.ts";
import type { StopReason, Submission, ToolRecord, TurnRecord } from "../trajectory/record.ts";

/**
 * What the time limit counts: `wall` time since the episode started (the batch loop, where the
 * model's latency is part of the episode), or `environment` time spent executing tools (a
 * trainer-driven episode, where the trainer's generation queue must not time episodes out).
 */
export type EpisodeClock = "wall" | "environment";

/** Options of an episode. */
export interface EpisodeOptions {
  limits?: Partial<EpisodeLimits>;
  prompts?: Partial<Prompts>;
  /** Put the tool schemas in the system prompt (models without native tool calling). */
  textToolCalls?: boolean;
  tools?: readonly Tool[];
  /** What `max_wall_s` counts (default `wall`). */
  clock?: EpisodeClock;
  /** Clock in ms; tests swap it. */
  now?: () => number;
}

/** What an episode runs on: the task, its workspace and the sandbox. */
export interface EpisodeSetup {
  task: Task;
  workspace: Workspace;
  sandbox: Sandbox;
  /** The task's dependency environment, when it has one. */
  environment?: TestEnvironment;
  limits?: Partial<ToolLimits>;
  /** Aborted when the episode is stopped: its runs still waiting for their turn never start. */
  signal?: AbortSignal;
}

/** A running episode over one workspace. */
export class Episode {
  readonly task: Task;
  /** What the tools see: a narrow view of the task (see {@linkcode toolContext}). */
  readonly ctx: ToolContext;
  readonly limits: EpisodeLimits & { max_turns: number };
  readonly prompts: Prompts;
  readonly tools: readonly Tool[];
  readonly schemas: ToolSchema[];
  readonly messages: ChatMessage[] = [];
  readonly turns: TurnRecord[] = [];
  readonly startedAt: number;
  stopReason: StopReason | null = null;
  error: { code: string; message: string } | null = null;
  submission: Submission | null = null;
  /**
   * Tokens of the conversation so far: the latest turn's prompt + completion as the server counted
   * them (estimated when it did not), plus an estimate for the tool results appended since.
   */
  contextTokens = 0;
  modelMs = 0;
  envMs = 0;
  readonly clock: EpisodeClock;
  readonly #now: () => number;

  constructor(setup: EpisodeSetup, options: EpisodeOptions = {}) {
    this.task = setup.task;
    this.ctx = toolContext(setup.task, setup);
    this.#now = options.now ?? (() => performance.now());
    this.clock = options.clock ?? "wall";
    this.startedAt = this.#now();
    this.limits = {
      ...DEFAULT_EPISODE_LIMITS,
      max_turns: setup.task.spec.limits.max_turns,
      ...Object.fromEntries(
        Object.entries(options.limits ?? {}).filter(([, v]) => v !== undefined),
      ),
    };
    this.prompts = { ...DEFAULT_PROMPTS, ...options.prompts };
    this.tools = options.tools ?? TOOLS;
    this.schemas = toolSchemas(this.tools);
    const { spec } = setup.task;
    const toolBlock = options.textToolCalls
      ? fillTemplate(this.prompts.text_tools, {
        schemas: this.schemas.map((s) => JSON.stringify(s.function)).join("\n"),
      })
      : "";
    this.messages.push(
      { role: "system", content: fillTemplate(this.prompts.system, { tools: toolBlock }) },
      {
        role: "user",
        content: fillTemplate(this.prompts.task, {
          title: spec.title,
          statement: spec.statement,
          test_command: testCommandLine(spec.runner, spec.visible_tests),
        }),
      },
    );
  }

  /** Whether the episode has ended. */
  get done(): boolean {
    return this.stopReason !== null;
  }

  /** Milliseconds since the episode started. */
  wallMs(): number {
    return this.#now() - this.startedAt;
  }

  /** Milliseconds the time limit counts: wall time or tool time, see {@linkcode EpisodeClock}. */
  elapsedMs(): number {
    return this.clock === "wall" ? this.wallMs() : this.envMs;
  }

  /** The limit that forbids another model call, if any. */
  limitReached(): StopReason | null {
    if (this.turns.length >= this.limits.max_turns) return "max_turns";
    if (this.elapsedMs() >= this.limits.max_wall_s * 1000) return "time_limit";
    if (this.contextTokens >= this.limits.max_total_tokens) return "token_limit";
    return null;
  }

  /**
   * Stop the episode when a limit forbids another model call; the one place limits are enforced
   * (before every model call and after every step). Returns whether the episode is over.
   */
  checkLimits(): boolean {
    if (!this.done) {
      const limit = this.limitReached();
      if (limit) this.stop(limit);
    }
    return this.done;
  }

  /** Tokens the next reply may use: the per-turn cap, bounded by what the conversation has left. */
  nextMaxTokens(): number {
    return Math.max(
      1,
      Math.min(this.limits.max_tokens_per_turn, this.limits.max_total_tokens - this.contextTokens),
    );
  }

  /** End the episode. The first reason given wins. */
  stop(reason: StopReason, error?: { code: string; message: string }): void {
    if (this.stopReason !== null) return;
    this.stopReason = reason;
    if (error) this.error = error;
  }

  /**
   * Apply one policy reply: append it, execute its first tool call (or nudge when there is none),
   * tell the model about dropped extra calls, and record the turn. Returns the new messages.
   */
  async act(turn: PolicyTurn): Promise<ChatMessage[]> {
    if (this.done) throw new Error(`Episode already ended (${this.stopReason})`);
    this.modelMs += turn.latency_ms;
    this.messages.push(turn.message);
    // The server's count and the token ids' count, the larger when both are given (a trainer's
    // usage is its own word, and each id it sends is kept); otherwise an estimate (4 characters a
    // token).
    const ids = turn.tokens?.prompt_ids && turn.tokens.completion_ids
      ? turn.tokens.prompt_ids.length + turn.tokens.completion_ids.length
      : null;
    const usage = turn.usage ? turn.usage.prompt_tokens + turn.usage.completion_tokens : null;
    const conversation = usage !== null || ids !== null
      ? Math.max(usage ?? 0, ids ?? 0)
      : estimateTokens(this.messages);
    const observation: ChatMessage[] = [];
    const [call, ...extra] = turn.calls;
    let tool: ToolRecord | null = null;
    if (!call) {
      observation.push({ role: "user", content: this.prompts.no_tool_call });
    } else {
      // A workspace may still be being written (see startWorkspace); tools need its files.
      await this.ctx.workspace.ready;
      const started = this.#now();
      const result = await executeTool(
        call.function.name,
        call.function.arguments,
        this.ctx,
        this.tools,
      );
      const duration = this.#now() - started;
      this.envMs += duration;
      const content = result.ok ? result.output : `Error [${result.code}]: ${result.message}`;
      tool = {
        name: call.function.name,
        arguments: parseArguments(call.function.arguments),
        ok: result.ok,
        code: result.ok ? null : result.code,
        output: content,
        truncated: result.ok ? result.truncated ?? false : false,
        duration_ms: round(duration),
        meta: result.meta ?? null,
      };
      observation.push({ role: "tool", tool_call_id: call.id, name: call.function.name, content });
      for (const dropped of extra) {
        observation.push({
          role: "tool",
          tool_call_id: dropped.id,
          name: dropped.function.name,
          content: this.prompts.extra_tool_call,
        });
      }
      if (call.function.name === "submit" && result.ok) {
        this.submission = result.meta as unknown as Submission;
        this.stop("submitted");
      }
    }
    this.messages.push(...observation);
    this.contextTokens = conversation + estimateTokens(observation);
    this.turns.push({
      index: this.turns.length,
      model: {
        content: turn.raw.content,
        reasoning: turn.raw.reasoning,
        tool_calls: turn.raw.tool_calls,
        finish_reason: turn.finish_reason,
        usage: turn.usage,
        latency_ms: round(turn.latency_ms),
        parse_errors: turn.parse_errors,
      },
      action: call ? "tool_call" : "no_tool_call",
      tool,
      dropped_tool_calls: extra.length,
      tokens: turn.tokens,
    });
    return observation;
  }

  /** Tool calls that failed validation or named no tool, plus replies whose calls could not be parsed. */
  invalidToolCalls(): number {
    return this.turns.filter((t) =>
      t.model.parse_errors.length > 0 || t.tool?.code === "invalid_input" ||
      t.tool?.code === "unknown_tool"
    ).length;
  }
}

/** A rough token count (4 characters a token) for limits when the server gives no usage. */
function estimateTokens(messages: ChatMessage[]): number {
  let chars = 0;
  for (const m of messages) {
    chars += (m.content ?? "").length;
    if (m.role === "assistant") chars += JSON.stringify(m.tool_calls ?? []).length;
  }
  return Math.ceil(chars / 4);
}

function parseArguments(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return text;
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
