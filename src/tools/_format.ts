/** How a finished child process is shown to the model. */
import type { RunResult } from "../sandbox/sandbox.ts";

/** Exit status, then stdout and stderr (each shown only when non-empty). */
export function formatRun(result: RunResult): string {
  const status = result.timedOut
    ? "killed: timed out"
    : result.signal
    ? `killed by ${result.signal}`
    : `exit code ${result.exitCode}`;
  const parts = [status];
  if (result.stdout) parts.push(`--- stdout ---\n${result.stdout.trimEnd()}`);
  if (result.stderr) parts.push(`--- stderr ---\n${result.stderr.trimEnd()}`);
  return parts.join("\n");
}
