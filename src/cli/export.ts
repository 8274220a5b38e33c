/** `export`: convert trajectory JSONL into a trainer's format. */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../errors.ts";
import {
  EXPORT_FORMATS,
  exportTrajectories,
  SEGMENT_CHOICES,
  type SftRow,
  TOOL_ARGUMENT_CHOICES,
} from "../trajectory/export.ts";
import { sftParquet } from "../trajectory/parquet.ts";
import { parseTrajectories } from "../trajectory/record.ts";
import { choiceFlag, parseFlags, readInput, writeOutput } from "./_args.ts";

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
  sft      one line per sample: messages (reasoning folded in as <think>...</think>) and tools;
           --arguments object gives tool-call arguments as objects instead of JSON text
           (for chat templates that serialize them with | tojson)

An --out path ending in .parquet writes sft as Parquet, what verl's MultiTurnSFTDataset and TRL's
SFTTrainer read: messages as a list of structs (a field a message lacks reads back as null) and
tools as JSON text, so no tool gets the other tools' parameters (verl: decode it with json.loads,
see docs/exports.md; TRL decodes it itself). Arguments stay JSON text there for the same reason.

verl and skyrl write one row per episode (its last segment with a loss token) unless
--segments all; rows without a loss token are skipped and counted on stderr. A token format over
records without token ids, or a batch with no loss token, is an error (exit 1, nothing written);
--allow-empty writes an empty batch anyway.

--only-successful keeps only samples whose reward is resolved (every expected test passed).
--out - writes the lines to stdout. A line that is not a valid trajectory record is reported with
its line number and skipped; the others are exported and the exit code is 1.

Usage: patchgym export --format verl|skyrl|atropos|sft [--only-successful] [--segments last|all]
                       [--arguments string|object] [--allow-empty] IN.jsonl --out OUT.jsonl
       patchgym export --format sft [--only-successful] IN.jsonl --out OUT.parquet

IN may also be a run folder (its trajectories.jsonl is read).
`;

/** Run the `export` command. */
export function exportCommand(args: string[]): Promise<number> {
  return new Promise((done) => done(runExport(args)));
}

function runExport(args: string[]): number {
  const { values, positionals } = parseFlags("export", args, {
    format: { type: "string" },
    out: { type: "string" },
    "only-successful": { type: "boolean" },
    segments: { type: "string" },
    "allow-empty": { type: "boolean" },
    arguments: { type: "string" },
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
  const toolArguments = choiceFlag("arguments", values.arguments, TOOL_ARGUMENT_CHOICES, "string");
  if (values.arguments !== undefined && format !== "sft") {
    throw new UsageError(`export: --arguments applies to --format sft only`);
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      `export: expected one input file, got ${positionals.length}; run "patchgym export --help"`,
    );
  }
  const input = positionals[0];
  if (!values.out) throw new UsageError("export: --out OUT.jsonl is required (- for stdout)");
  const parquet = values.out.toLowerCase().endsWith(".parquet");
  if (parquet && format !== "sft") {
    throw new UsageError(
      `export: Parquet output is for --format sft (what verl's and TRL's SFT datasets read); write ${format} as JSONL`,
    );
  }
  if (parquet && toolArguments === "object") {
    throw new UsageError(
      "export: --arguments object cannot go to Parquet: a column has one type, so every tool call would carry every tool's argument names as null; keep the default (JSON text) or write JSONL",
    );
  }
  // A run folder stands for its trajectories.
  const file = isDirectory(input) && existsSync(join(input, "trajectories.jsonl"))
    ? join(input, "trajectories.jsonl")
    : input;
  if (values.out !== "-" && resolve(values.out) === resolve(file)) {
    throw new UsageError("export: --out is the input file; write to another file");
  }
  const text = readInput("export", file);
  const parsed = parseTrajectories(text);
  if (parsed.partial) console.error(`Ignored the last line of "${file}": it was cut short`);
  const result = exportTrajectories(parsed.records, format, {
    onlySuccessful: values["only-successful"],
    segments,
    toolArguments,
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
  const toStdout = values.out === "-";
  if (parquet) writeOutput("export", values.out, sftParquet(result.rows as SftRow[]));
  else {
    const body = result.rows.map((row) => `${JSON.stringify(row)}\n`).join("");
    if (toStdout) {
      if (body) console.log(body.slice(0, -1));
    } else writeOutput("export", values.out, body);
  }
  for (const warning of result.warnings) console.error(warning);
  const filter = values["only-successful"] ? ` (${result.kept} resolved)` : "";
  const loss = result.loss_tokens === null ? "" : `, ${result.loss_tokens} tokens with loss`;
  // With --out -, stdout carries the data: the count goes to stderr.
  (toStdout ? console.error : console.log)(
    `Wrote ${result.rows.length} ${format} ${
      parquet ? "rows" : "lines"
    } from ${result.records} records${filter}${loss} to ${toStdout ? "stdout" : values.out}${
      parquet ? " (Parquet)" : ""
    }`,
  );
  if (parsed.problems.length > 0) {
    console.error(
      `Skipped ${parsed.badLines.length} bad lines of "${file}" (lines ${
        parsed.badLines.join(", ")
      }):\n${parsed.problems.map((p) => `  ${p}`).join("\n")}`,
    );
    return 1;
  }
  return 0;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
