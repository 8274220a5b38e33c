/** `export`: convert trajectory JSONL into a trainer's format. */
import { resolve } from "node:path";
import { UsageError } from "../errors.ts";
import {
  EXPORT_FORMATS,
  exportTrajectories,
  parseTrajectories,
  SEGMENT_CHOICES,
} from "../trajectory/export.ts";
import { choiceFlag, parseFlags } from "./_args.ts";

const HELP = `patchgym export: convert trajectories for a trainer

Formats, one JSON object per line:
  verl     verl's AgentLoopOutput: prompt_ids, response_ids, response_mask, response_logprobs,
           routed_experts, multi_modal_data, reward_score, num_turns, metrics, extra_fields
           (uid = the GRPO group, episode_id, task_id, sample, segment_index, segment_count,
           is_last_step, token_drift, stop_reason)
  skyrl    one element of SkyRL's GeneratorOutput: prompt_token_ids, response_ids, rewards,
           loss_masks, stop_reasons, rollout_logprobs, trajectory_ids, is_last_step, env_metrics
  atropos  one scored group per group_id: tokens, masks (-100 where no loss applies), scores,
           messages; a group with a sample lacking one token sequence keeps messages only
  sft      one line per sample: messages (reasoning folded in as <think>...</think>) and tools

verl and skyrl write one row per episode (its last segment with a loss token) unless
--segments all; rows without a loss token are skipped and counted on stderr. A token format over
records without token ids, or a batch with no loss token, is an error (exit 1, nothing written);
--allow-empty writes an empty batch anyway.

--only-successful keeps only samples whose reward is resolved (every expected test passed).

Usage: patchgym export --format verl|skyrl|atropos|sft [--only-successful] [--segments last|all]
                       [--allow-empty] IN.jsonl --out OUT.jsonl
`;

/** Run the `export` command. */
export async function exportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("export", args, {
    format: { type: "string" },
    out: { type: "string" },
    "only-successful": { type: "boolean" },
    segments: { type: "string" },
    "allow-empty": { type: "boolean" },
  }, { positionals: true });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.format === undefined) {
    throw new UsageError(`export: --format is required; use one of ${EXPORT_FORMATS.join(", ")}`);
  }
  const format = choiceFlag("format", values.format, EXPORT_FORMATS, "sft");
  const segments = choiceFlag("segments", values.segments, SEGMENT_CHOICES, "last");
  if (positionals.length !== 1) {
    throw new UsageError(
      `export: expected one input file, got ${positionals.length}; run "patchgym export --help"`,
    );
  }
  const input = positionals[0];
  if (!values.out) throw new UsageError("export: --out OUT.jsonl is required");
  if (resolve(values.out) === resolve(input)) {
    throw new UsageError("export: --out is the input file; write to another file");
  }
  let text: string;
  try {
    text = await Deno.readTextFile(input);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    throw new UsageError(`export: cannot read "${input}": file not found; check the path`);
  }
  const parsed = parseTrajectories(text);
  if (parsed.problems.length > 0) {
    console.error(
      `Cannot export "${input}": ${parsed.problems.length} bad records; nothing written\n${
        parsed.problems.map((p) => `  ${p}`).join("\n")
      }`,
    );
    return 1;
  }
  if (parsed.partial) console.error(`Ignored the last line of "${input}": it was cut short`);
  const result = exportTrajectories(parsed.records, format, {
    onlySuccessful: values["only-successful"],
    segments,
  });
  const refusal = result.refusal;
  if (refusal && (refusal.code === "no_token_ids" || !values["allow-empty"])) {
    for (const warning of result.warnings) console.error(warning);
    console.error(
      `${refusal.message}; nothing written${
        refusal.code === "no_loss_tokens" ? " (--allow-empty writes it anyway)" : ""
      }`,
    );
    return 1;
  }
  await Deno.writeTextFile(values.out, result.lines.map((line) => `${line}\n`).join(""));
  for (const warning of result.warnings) console.error(warning);
  const filter = values["only-successful"] ? ` (${result.kept} resolved)` : "";
  const loss = result.loss_tokens === null ? "" : `, ${result.loss_tokens} tokens with loss`;
  console.log(
    `Wrote ${result.lines.length} ${format} lines from ${result.records} records${filter}${loss} to ${values.out}`,
  );
  return 0;
}
