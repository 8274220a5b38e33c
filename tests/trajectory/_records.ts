/** A complete, valid trajectory record for tests, with the parts a test varies as options. */
import { OpenAIPolicy } from "../../src/policy/openai.ts";
import type { TurnTokens } from "../../src/policy/types.ts";
import { toolSchemas } from "../../src/tools/registry.ts";
import {
  TRAJECTORY_FORMAT,
  type TrajectoryRecord,
  type TurnRecord,
} from "../../src/trajectory/record.ts";
import { buildTrainingView } from "../../src/trajectory/training_view.ts";
import { converse, THINKING_OUTPUTS } from "../_conversation.ts";
import { startQwen3Server } from "../_qwen3_server.ts";

/** The tool list of {@linkcode fakeRecord}. */
export const TOOLS: TrajectoryRecord["tools"] = [{
  type: "function",
  function: { name: "submit", description: "Finish", parameters: { type: "object" } },
}];

/** Options of {@linkcode fakeRecord}. */
export interface FakeRecordOptions {
  episode: string;
  group: string;
  sample: number;
  /** null: not graded. */
  resolved: boolean | null;
  /** Per turn; null entries give an unavailable training view. */
  tokens: (TurnTokens | null)[];
  /** Fields to replace. */
  overrides?: Partial<TrajectoryRecord>;
}

/** A minimal valid record; `tokens` null gives an unavailable training view. */
export function fakeRecord(options: FakeRecordOptions): TrajectoryRecord {
  const { episode, group, sample, resolved, tokens } = options;
  return {
    format: TRAJECTORY_FORMAT,
    run_id: "run-1",
    episode_id: episode,
    task_id: `task-${group}`,
    sample,
    group_id: group,
    policy: { name: "scripted", model: null, sampling: {} },
    env_version: "0.1.0",
    isolation: "process",
    sandbox: {
      level: "process",
      filesystem: "host",
      uid: "host_user",
      process_cap: "none",
      memory_cap: "none",
      kill: "process_group",
      network: "host",
    },
    task: { language: "python", difficulty: "easy", kind: "one_line_bug", max_turns: 10 },
    tools: TOOLS,
    messages: [
      { role: "system", content: "You fix bugs." },
      { role: "user", content: `Fix ${episode}` },
      {
        role: "assistant",
        content: null,
        tool_calls: [{
          id: "c1",
          type: "function",
          function: { name: "submit", arguments: '{"status":"solved"}' },
        }],
      },
      { role: "tool", tool_call_id: "c1", name: "submit", content: "Submitted" },
    ],
    turns: [],
    stop_reason: "submitted",
    error: null,
    submission: { status: "solved", summary: "done" },
    final_diff: "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n",
    diff_stat: { created: [], modified: [], deleted: [], binary: [] },
    reward: resolved === null ? null : {
      total: resolved ? 1 : 0,
      resolved,
      components: {
        fail_to_pass: { passed: resolved ? 1 : 0, total: 1 },
        pass_to_pass: { passed: 0, total: 0 },
        submitted: true,
        submit_status: "solved",
        patch_applied: true,
        test_report_problem: null,
        integrity: [],
        protected_path_edits: [],
        invalid_tool_calls: 0,
        turns: tokens.length,
        patch_lines: 2,
        reference_patch_lines: 2,
        patch_size_ratio: 1,
      },
      tests: { fail_to_pass: { "t.py::t": resolved ? "passed" : "failed" }, pass_to_pass: {} },
      failures: [],
    },
    training: buildTrainingView(tokens),
    usage: { prompt_tokens: 10, completion_tokens: 3 },
    timings: {
      started_at: "2026-01-01T00:00:00.000Z",
      wall_ms: 5,
      model_ms: 1,
      env_ms: 1,
      grade_ms: 1,
    },
    ...options.overrides,
  };
}

/**
 * `base` with the messages and token view of a real three-turn conversation with the Qwen3 fixture
 * server (reasoning and tool parsers on), and the tokens the model generated in it.
 */
export async function qwen3Conversation(
  base: TrajectoryRecord,
): Promise<{ record: TrajectoryRecord; generated: number[] }> {
  const server = startQwen3Server(THINKING_OUTPUTS, { reasoningParser: true, toolParser: true });
  try {
    const policy = new OpenAIPolicy({ baseUrl: server.baseUrl, model: "Qwen/Qwen3-8B" });
    const { messages, turns } = await converse(policy, 3);
    const training = buildTrainingView(turns.map((t) => t.tokens));
    const [segment] = training.segments;
    return {
      record: { ...base, messages, tools: toolSchemas(), training },
      generated: [...segment.prompt_ids, ...segment.response_ids],
    };
  } finally {
    await server.close();
  }
}

/** A turn of a record: the model's `content` and its call of `tool`, which answered `output`. */
export function fakeTurn(
  index: number,
  tool: string,
  args: unknown,
  output: string,
  content: string | null,
): TurnRecord {
  return {
    index,
    model: {
      content,
      reasoning: null,
      tool_calls: null,
      finish_reason: "tool_calls",
      usage: null,
      latency_ms: 3,
      parse_errors: [],
    },
    action: "tool_call",
    tool: {
      name: tool,
      arguments: args,
      ok: true,
      code: null,
      output,
      truncated: false,
      duration_ms: 1,
      meta: null,
    },
    dropped_tool_calls: 0,
    tokens: null,
  };
}
