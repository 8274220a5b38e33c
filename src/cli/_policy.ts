/**
 * Choosing and building the policy from flags and environment variables. The resolved choice is
 * plain data (saved in `run.json` for `--resume`); the API key is read from the environment only
 * and never saved.
 */
import { UsageError } from "../errors.ts";
import { OpenAIPolicy } from "../policy/openai.ts";
import { checkScheme, probeEndpoint } from "../policy/probe.ts";
import { ReferencePolicy } from "../policy/reference.ts";
import { loadScript, ScriptedPolicy, type ScriptStep } from "../policy/scripted.ts";
import type { Policy } from "../policy/types.ts";
import { POLICIES, type PolicyConfig } from "../rollout/run_config.ts";
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
    case "openai":
      return new OpenAIPolicy({
        baseUrl: config.base_url!,
        model: config.model!,
        apiKey: apiKey(),
        textToolCalls: config.text_tool_calls,
        sampling: {
          ...config.sampling,
          ...(config.seed !== null ? { seed: config.seed + sample } : {}),
        },
      });
  }
}

/**
 * Before a run with the `openai` policy: one cheap request to the endpoint. Returns the line to
 * print when it fails, or null (also for policies that need no endpoint).
 */
export async function checkEndpoint(config: PolicyConfig): Promise<string | null> {
  if (config.kind !== "openai") return null;
  const result = await probeEndpoint({
    baseUrl: config.base_url!,
    model: config.model!,
    apiKey: apiKey(),
  });
  return result.ok ? null : result.message;
}

function apiKey(): string | undefined {
  return env("PATCHGYM_API_KEY") ?? env("OPENAI_API_KEY");
}
