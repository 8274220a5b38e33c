/**
 * Choosing and building the policy from flags and environment variables. The resolved choice is
 * plain data (saved in `run.json` for `--resume`); the API key is read from the environment only
 * and never saved.
 */
import { UsageError } from "../errors.ts";
import { OpenAIPolicy } from "../policy/openai.ts";
import { checkScheme, probeEndpoint } from "../policy/probe.ts";
import { ReferencePolicy } from "../policy/reference.ts";
import { TokenPolicy } from "../policy/token_policy.ts";
import { loadScript, ScriptedPolicy, type ScriptStep } from "../policy/scripted.ts";
import type { Policy } from "../policy/types.ts";
import { APIS, POLICIES, type PolicyConfig } from "../rollout/run_config.ts";
import type { Task } from "../task/spec.ts";
import { env } from "./_args.ts";

/** Flags that choose the policy. */
export interface PolicyFlags {
  policy?: string;
  "base-url"?: string;
  model?: string;
  script?: string;
  "text-tool-calls"?: boolean;
  temperature?: number;
  "top-p"?: number;
  seed?: number;
  api?: string;
  /** JSON object of extra request fields. */
  "extra-body"?: string;
  /** JSON object for the chat template (e.g. `{"enable_thinking": false}`). */
  "chat-template-kwargs"?: string;
}

/**
 * Resolve the policy: `--policy`, else `openai` when a model endpoint is configured
 * (`--base-url`, `PATCHGYM_BASE_URL` or `OPENAI_BASE_URL`), else `reference`.
 */
export function resolvePolicy(flags: PolicyFlags): { config: PolicyConfig; note: string | null } {
  const baseUrl = flags["base-url"] ?? env("PATCHGYM_BASE_URL") ?? env("OPENAI_BASE_URL") ?? null;
  const model = flags.model ?? env("PATCHGYM_MODEL") ?? env("OPENAI_MODEL") ?? null;
  let kind = flags.policy as PolicyConfig["kind"] | undefined;
  if (kind !== undefined && !(POLICIES as readonly string[]).includes(kind)) {
    throw new UsageError(`--policy: expected one of ${POLICIES.join(", ")}, got "${kind}"`);
  }
  let note: string | null = null;
  if (kind === undefined) {
    kind = baseUrl ? "openai" : flags.script ? "scripted" : "reference";
    if (kind === "reference") {
      note =
        "No model endpoint configured (--base-url or PATCHGYM_BASE_URL): running the reference policy, which replays each task's reference patch";
    }
  }
  if (kind === "openai") {
    const scheme = baseUrl ? checkScheme(baseUrl) : null;
    if (scheme) throw new UsageError(scheme);
    if (!baseUrl) {
      throw new UsageError(
        "--policy openai needs a model endpoint: pass --base-url http://HOST:PORT/v1 or set PATCHGYM_BASE_URL",
      );
    }
    if (!model) {
      throw new UsageError(
        "--policy openai needs a model name: pass --model NAME or set PATCHGYM_MODEL",
      );
    }
  }
  if (kind === "scripted" && !flags.script) {
    throw new UsageError("--policy scripted needs --script FILE.json");
  }
  const api = flags.api ?? "chat";
  if (!(APIS as readonly string[]).includes(api)) {
    throw new UsageError(`--api: expected one of ${APIS.join(", ")}, got "${api}"`);
  }
  const extraBody = jsonObjectFlag("extra-body", flags["extra-body"]) ?? {};
  const kwargs = jsonObjectFlag("chat-template-kwargs", flags["chat-template-kwargs"]);
  if (kwargs) {
    extraBody.chat_template_kwargs = {
      ...(extraBody.chat_template_kwargs as Record<string, unknown> | undefined),
      ...kwargs,
    };
  }
  const sampling: Record<string, unknown> = {};
  if (flags.temperature !== undefined) sampling.temperature = flags.temperature;
  if (flags["top-p"] !== undefined) sampling.top_p = flags["top-p"];
  return {
    config: {
      kind,
      base_url: kind === "openai" ? baseUrl : null,
      model: kind === "openai" ? model : null,
      script: kind === "scripted" ? flags.script! : null,
      text_tool_calls: flags["text-tool-calls"] ?? false,
      sampling,
      seed: flags.seed ?? null,
      api: api as PolicyConfig["api"],
      extra_body: extraBody,
    },
    note,
  };
}

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

/**
 * Before a run with the `openai` policy: one cheap request to the endpoint. Returns the line to
 * print when it fails, or null (also for policies that need no endpoint).
 */
export async function checkEndpoint(config: PolicyConfig): Promise<string | null> {
  if (config.kind !== "openai") return null;
  // A server that never answers would otherwise mean 30 s of silence: after 2 s, say what waits.
  const url = `${config.base_url!.replace(/\/+$/, "")}/chat/completions`;
  const waiting = setTimeout(() => {
    console.error(
      `Waiting for the model endpoint: POST ${url} (model "${config.model}", max_tokens 1) has not answered yet; giving up after 30 s`,
    );
  }, 2000);
  let result;
  try {
    result = await probeEndpoint({
      baseUrl: config.base_url!,
      model: config.model!,
      apiKey: apiKey(),
    });
  } finally {
    clearTimeout(waiting);
  }
  return result.ok ? null : result.message;
}

function apiKey(): string | undefined {
  return env("PATCHGYM_API_KEY") ?? env("OPENAI_API_KEY");
}

/** A flag holding a JSON object, or undefined. */
function jsonObjectFlag(
  name: string,
  value: string | undefined,
): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new UsageError(
      `--${name}: expected a JSON object, got "${value}": ${(error as Error).message}`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`--${name}: expected a JSON object, got "${value}"`);
  }
  return parsed as Record<string, unknown>;
}
