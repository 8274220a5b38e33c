/**
 * Reasoning on the way back to the server. A reasoning parser (vLLM or SGLang `--reasoning-parser`)
 * moves `<think>...</think>` out of `content`; chat templates then re-render an earlier assistant
 * turn without it, or with different newlines, and the next prompt no longer starts with the tokens
 * the model generated. Folding the reasoning back into the content as
 * `<think>{reasoning}</think>{content}` lets templates such as Qwen3's and DeepSeek-R1's split it
 * again and render exactly what was generated, on servers that accept a separate reasoning field
 * and on those that drop it.
 */
import type { AssistantMessage } from "./types.ts";

/** The content with the reasoning folded in, unless the content already carries a `</think>`. */
export function foldedContent(message: AssistantMessage): string | null {
  const reasoning = message.reasoning_content;
  if (!reasoning || message.content?.includes("</think>")) return message.content;
  return `<think>${reasoning}</think>${message.content ?? ""}`;
}

/** The message as a server (or a template) should read it: reasoning folded, bookkeeping removed. */
export function foldReasoning(message: AssistantMessage): AssistantMessage {
  const { reasoning_content: _, ...rest } = message;
  return { ...rest, content: foldedContent(message) };
}
