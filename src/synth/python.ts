/**
 * Python mutants from Python's own `ast` module: the standard-library mutator script runs as a
 * sandboxed child (argv without a shell, scrubbed environment, no network) and only parses the
 * sources it is given on stdin; it never imports or runs them.
 */
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { Mutant } from "./mutant.ts";
import { PYTHON_MUTATOR } from "./_python_mutator.ts";

/** Every mutant the Python mutator finds in `files` (repository path to source). */
export async function pythonMutants(
  sandbox: Sandbox,
  files: Record<string, string>,
  scratchDir: string,
): Promise<Mutant[]> {
  const cwd = await Deno.makeTempDir({ dir: scratchDir, prefix: "mutate-" });
  try {
    const result = await sandbox.run({
      argv: ["python3", "-I", "-B", "-c", PYTHON_MUTATOR],
      cwd,
      timeoutMs: 120_000,
      maxOutputBytes: 256 * 1024 * 1024,
      stdin: new TextEncoder().encode(JSON.stringify({ files })),
    });
    if (result.exitCode !== 0 || result.truncated) {
      throw new Error(
        `The Python mutator failed (exit ${result.exitCode}${
          result.truncated ? ", output cut" : ""
        }): ${result.stderr.slice(-2000)}`,
      );
    }
    return JSON.parse(result.stdout) as Mutant[];
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}
