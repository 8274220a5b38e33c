/**
 * Building a sample's policy from a run's resolved policy choice (plain data, see `run.json`). The
 * API key comes from the environment only, never from the run's configuration.
 */
import { OpenAIPolicy } from "../policy/openai.ts";
import { ReferencePolicy } from "../policy/reference.ts";
import { TokenPolicy } from "../policy/token_policy.ts";
import { loadScript, ScriptedPolicy, type ScriptStep } from "../policy/scripted.ts";
import type { Policy } from "../policy/types.ts";
import type { Task } from "../task/spec.ts";
import type { PolicyConfig } from "./run_config.ts";

/** Build the policy for one sample. Scripts are read once and shared through `cache`. */
export function makePolicy(
  config: PolicyConfig,
  task: Task,
  sample: number,
  cache: { script?: ScriptStep[] } = {},
): Policy {
  switch (config.kind) {
    case "reference":
      return new ReferencePolicy(task);
    case "scripted":
      cache.script ??= loadScript(config.script!);
      return new ScriptedPolicy(cache.script);
    case "openai": {
      const common = {
        baseUrl: config.base_url!,
        model: config.model!,
        apiKey: apiKey(),
        textToolCalls: config.text_tool_calls,
        sampling: {
          ...config.sampling,
          ...(config.seed !== null ? { seed: config.seed + sample } : {}),
        },
      };
      const { chat_template_kwargs: kwargs, ...rest } = config.extra_body ?? {};
      if (config.api === "tokens") {
        // The template's arguments go to /tokenize; the rest to every completions request.
        return new TokenPolicy({
          ...common,
          chatTemplateKwargs: kwargs as Record<string, unknown> | undefined,
          extraBody: rest,
        });
      }
      return new OpenAIPolicy({ ...common, extraBody: config.extra_body });
    }
  }
}

/** The model endpoint's API key: `PATCHGYM_API_KEY`, else `OPENAI_API_KEY`. */
export function apiKey(): string | undefined {
  return envValue("PATCHGYM_API_KEY") ?? envValue("OPENAI_API_KEY");
}

function envValue(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}
