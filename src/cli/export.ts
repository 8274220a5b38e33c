/** `export`: convert trajectory JSONL into a trainer's format. */
import { resolve } from "node:path";
import { UsageError } from "../errors.ts";
import { EXPORT_FORMATS, exportTrajectories, parseTrajectories } from "../trajectory/export.ts";
import { choiceFlag, parseFlags } from "./_args.ts";

const HELP = `patchgym export: convert trajectories for a trainer

Formats, one JSON object per line:
  verl     one line per training segment: prompt_ids, response_ids, response_mask,
           rollout_log_probs, reward, uid (the group), episode_id, task_id, token_drift;
           samples without a token view are skipped (counted on stderr)
  atropos  one scored group per group_id: tokens, masks (-100 where no loss applies), scores,
           messages; a group with a sample lacking one token sequence keeps messages only
  sft      one line per sample: messages and tools

--only-successful keeps only samples whose reward is resolved (every expected test passed).

Usage: patchgym export --format verl|atropos|sft [--only-successful] IN.jsonl --out OUT.jsonl
`;

/** Run the `export` command. */
export async function exportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("export", args, {
    format: { type: "string" },
    out: { type: "string" },
    "only-successful": { type: "boolean" },
  }, { positionals: true });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.format === undefined) {
    throw new UsageError(`export: --format is required; use one of ${EXPORT_FORMATS.join(", ")}`);
  }
  const format = choiceFlag("format", values.format, EXPORT_FORMATS, "sft");
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
  });
  await Deno.writeTextFile(values.out, result.lines.map((line) => `${line}\n`).join(""));
  for (const warning of result.warnings) console.error(warning);
  const filter = values["only-successful"] ? ` (${result.kept} resolved)` : "";
  console.log(
    `Wrote ${result.lines.length} ${format} lines from ${result.records} records${filter} to ${values.out}`,
  );
  return 0;
}
