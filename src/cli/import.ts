/** `import`: convert SWE-bench-style JSONL records into task folders, reporting each failure. */
import { UsageError } from "../errors.ts";
import { importSwebench } from "../task/import_swebench.ts";
import { displayPath } from "../task/load.ts";
import { parseFlags, printJson } from "./_args.ts";

const HELP = `patchgym import: convert SWE-bench-style records into tasks

Each line of FILE.jsonl is one record: instance_id, problem_statement, FAIL_TO_PASS and
PASS_TO_PASS (pytest ids, as lists or JSON-encoded strings), files (path -> content: the whole
repository, test files included), test_commands (pytest commands; checked, not run), and
optionally patch (the reference patch), title, difficulty, kind and max_turns.

The test files the ids name stay visible to the agent and are the graded tests (protected and
restored pristine at grading). Every task written is loaded back and checked; a record that cannot
be converted is reported with its line number and reason while the others still import. Existing
task folders are never overwritten. Exit code 1 when any record failed.

Usage: patchgym import swebench FILE.jsonl --out DIR [--json]
`;

/** Run the `import` command. */
export async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("import", args, {
    out: { type: "string" },
    json: { type: "boolean" },
  }, { positionals: true });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const [source, file, ...extra] = positionals;
  if (source !== "swebench" || !file || extra.length > 0) {
    throw new UsageError(
      `import: expected "import swebench FILE.jsonl --out DIR", got "${
        positionals.join(" ")
      }"; run "patchgym import --help"`,
    );
  }
  if (!values.out) {
    throw new UsageError("import: --out DIR is required; name the tasks folder to write");
  }
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    throw new UsageError(`import: cannot read "${file}": file not found; check the path`);
  }
  const outcomes = importSwebench(text, values.out);
  const failed = outcomes.filter((o) => !o.ok);
  if (values.json) {
    printJson({
      ok: failed.length === 0,
      out: values.out,
      imported: outcomes.length - failed.length,
      failed: failed.length,
      results: outcomes,
    });
  } else {
    for (const o of outcomes) {
      if (o.ok) console.log(`line ${o.line}: imported "${o.id}" -> ${displayPath(o.dir!)}`);
      else {
        const name = o.instance_id === null ? "" : ` "${o.instance_id}"`;
        console.log(
          `line ${o.line}: FAILED${name}\n${o.problems.map((p) => `  - ${p}`).join("\n")}`,
        );
      }
    }
    console.log(
      `${
        outcomes.length - failed.length
      } imported, ${failed.length} failed; run "patchgym validate --tasks-dir ${values.out}" to check the tasks end to end`,
    );
  }
  return failed.length === 0 ? 0 : 1;
}
