/** `report`: (re)build `report.html` from a run folder. */
import { patchgymCommand } from "../hint.ts";
import { resolve } from "node:path";
import { UsageError } from "../errors.ts";
import { writeRunReport } from "../rollout/run.ts";
import { digestRecord } from "../trajectory/digest.ts";
import { summarize } from "../trajectory/summary.ts";
import { parseFlags } from "./_args.ts";
import { readRunFolder } from "./_run_folder.ts";

const HELP = `patchgym report: build report.html for a run

Usage: patchgym report RUN

RUN is a run folder (runs/run-...) or a trajectories.jsonl. Writes RUN/report.html: one
self-contained page (no network) with the summary and a viewer for every episode. Every rollout
writes it already; use this to rebuild it, e.g. after --resume of an older run.
`;

/** Run the `report` command. */
export function reportCommand(args: string[]): Promise<number> {
  return new Promise((done) => done(runReport(args)));
}

function runReport(args: string[]): number {
  const { values, positionals } = parseFlags("report", args, {}, { positionals: true });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      `report: expected one run folder, got ${positionals.length}; run "${
        patchgymCommand("report --help")
      }"`,
    );
  }
  const run = readRunFolder("report", positionals[0]);
  const digests = run.records.map(digestRecord);
  const saved = run.summary ?? {};
  const summary = {
    ...saved,
    ...summarize(digests),
  };
  const path = writeRunReport(run.dir, digests, summary);
  console.log(`Wrote ${resolve(path)} (${run.records.length} episodes)`);
  return 0;
}
