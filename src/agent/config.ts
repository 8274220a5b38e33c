/**
 * Prompts, templates and loop limits: data with defaults, in one place. Templates use
 * `{name}` placeholders filled by {@linkcode fillTemplate}.
 */

/** The texts the environment says to the model. */
export interface Prompts {
  /** System prompt. `{tools}` is replaced by the tool list block (empty for native tool calling). */
  system: string;
  /** Tool list block for models without native tool calling; `{schemas}` is one JSON line per tool. */
  text_tools: string;
  /** First user message. `{title}`, `{statement}`, `{test_command}`. */
  task: string;
  /** Sent when a reply has no tool call. */
  no_tool_call: string;
  /** Tool message for each extra call in one reply that was not executed. */
  extra_tool_call: string;
}

/** Default prompts. */
export const DEFAULT_PROMPTS: Prompts = {
  system: [
    "You are a careful software engineer working in a repository checked out in your workspace.",
    "Solve the task by calling tools, exactly one tool call per reply. Every tool result comes back as the next message.",
    "Explore before editing: look at the tree, read the relevant files and the tests, search for names.",
    "Edit with apply_patch, replace_text or write_file, run the tests with run_tests, and when the change is complete call submit.",
    "Tests you cannot see will grade your work, so fix the cause, keep existing behaviour and do not edit the tests.{tools}",
  ].join("\n"),
  text_tools: [
    "",
    "",
    "# Tools",
    "You may call one of these functions per reply. Each is given as a JSON schema:",
    "{schemas}",
    "",
    "To call one, reply with a block of this exact form (arguments as a JSON object):",
    '<tool_call>{"name": "read_file", "arguments": {"path": "src/app.py"}}</tool_call>',
  ].join("\n"),
  task: "# Task: {title}\n\n{statement}\n\nThe visible tests run with: {test_command}",
  no_tool_call:
    "Your reply had no tool call. Reply with exactly one tool call: continue working on the task, or call submit if you are done.",
  extra_tool_call:
    "Not executed: only one tool call per reply is run, and this one came after the first. Send it again in its own reply if you still need it.",
};

/** Limits of one episode. `max_turns` defaults to the task's own limit. */
export interface EpisodeLimits {
  max_turns?: number;
  /** Wall time of the whole episode, seconds. */
  max_wall_s: number;
  /** Largest conversation (prompt plus completion tokens of the latest turn). */
  max_total_tokens: number;
  /** Most tokens one reply may generate. */
  max_tokens_per_turn: number;
}

/** Default episode limits. */
export const DEFAULT_EPISODE_LIMITS: EpisodeLimits = {
  max_wall_s: 900,
  max_total_tokens: 32768,
  max_tokens_per_turn: 4096,
};

/** Replace `{name}` placeholders; unknown names stay as they are. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
