/** `import`: convert SWE-bench or HumanEval JSONL records into task folders, reporting each. */
import { patchgymCommand } from "../hint.ts";
import { UsageError } from "../errors.ts";
import { importHumanEval } from "../task/import_humaneval.ts";
import { importSwebench } from "../task/import_swebench.ts";
import { displayPath } from "../task/load.ts";
import { parseFlags, printJson } from "./_args.ts";

const HELP = `patchgym import: convert dataset records into tasks

Usage: patchgym import swebench FILE.jsonl --out DIR [--repos DIR] [--json]
       patchgym import humaneval FILE.jsonl --out DIR [--json]

swebench, self-contained records (AReno's dataset and similar): instance_id, problem_statement,
FAIL_TO_PASS and PASS_TO_PASS (pytest ids, as lists or JSON-encoded strings), files (path ->
content: the whole repository, test files included), test_commands (pytest commands; checked,
and "python -m pytest" maps to the interpreter patchgym runs), and optionally patch (the
reference patch), title, difficulty, kind and max_turns. The test files the ids name stay visible
and are the graded tests (protected and restored pristine at grading).

swebench, real records (the public SWE-bench fields: repo, instance_id, base_commit, patch,
test_patch, problem_statement, FAIL_TO_PASS, PASS_TO_PASS, ...): --repos DIR holds a clone or
mirror of each repository (DIR/owner__name, DIR/owner/name, DIR/name or DIR/name.git). The files
at base_commit are the repository, the test files test_patch changes are hidden tests (the agent
sees their base version), and the gold patch is the reference solution. Needs git; the tests run
with the Python patchgym runs, so a repository's dependencies must be installed there.

humaneval: task_id, prompt, canonical_solution, test, entry_point. solution.py holds the prompt
with a body that raises NotImplementedError; the hidden test runs check(entry_point); the
canonical solution is the reference patch.

Every task written is loaded back and checked; a record that cannot be converted is reported with
its line number and every reason while the others still import. Existing task folders are never
overwritten. Exit code 1 when any record failed. Run "patchgym validate --tasks-dir DIR" next.
`;

const SOURCES = ["swebench", "humaneval"] as const;

/** Run the `import` command. */
export async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("import", args, {
    out: { type: "string" },
    repos: { type: "string" },
    json: { type: "boolean" },
  }, { positionals: true });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const [source, file, ...extra] = positionals;
  if (!(SOURCES as readonly string[]).includes(source) || !file || extra.length > 0) {
    throw new UsageError(
      `import: expected "import swebench|humaneval FILE.jsonl --out DIR", got "${
        positionals.join(" ")
      }"; run "${patchgymCommand("import --help")}"`,
    );
  }
  if (!values.out) {
    throw new UsageError("import: --out DIR is required; name the tasks folder to write");
  }
  if (values.repos !== undefined && source !== "swebench") {
    throw new UsageError("import: --repos applies to swebench records only; drop it");
  }
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    throw new UsageError(`import: cannot read "${file}": file not found; check the path`);
  }
  const outcomes = source === "swebench"
    ? (await importSwebench(text, values.out, { reposDir: values.repos })).map((o) => ({
      ...o,
      record: o.instance_id,
    }))
    : importHumanEval(text, values.out).map((o) => ({ ...o, record: o.task_id }));
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
      if (o.ok) {
        console.log(`line ${o.line}: imported "${o.id}" -> ${displayPath(o.dir!)}`);
        for (const note of o.notes) console.log(`  note: ${note}`);
      } else {
        const name = o.record === null ? "" : ` "${o.record}"`;
        console.log(
          `line ${o.line}: FAILED${name}\n${o.problems.map((p) => `  - ${p}`).join("\n")}`,
        );
      }
    }
    console.log(
      `${outcomes.length - failed.length} imported, ${failed.length} failed; run "${
        patchgymCommand(`validate --tasks-dir ${values.out}`)
      }" to check the tasks end to end`,
    );
  }
  return failed.length === 0 ? 0 : 1;
}
