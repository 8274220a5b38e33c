/** `serve --stdio`: trainer-driven mode over JSON lines on stdin/stdout. */
import { UsageError } from "../errors.ts";
import { readLines } from "../rollout/lines.ts";
import { DEFAULT_SERVER_LIMITS, EpisodeServer } from "../rollout/server.ts";
import { DEFAULT_TOOL_LIMITS } from "../tools/types.ts";
import { exitOnSignal } from "../workspace/root.ts";
import { intFlag, numberFlag, parseFlags } from "./_args.ts";
import { ENVIRONMENT_FLAGS, openEnvironment, SANDBOX_FLAGS_HELP } from "./_environment.ts";

/** Default cap on a request line: far above any real step, far below what stalls the server. */
const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

/** Longest pause between sweeps for idle episodes. */
const MAX_SWEEP_MS = 30_000;

const HELP = `patchgym serve --stdio: trainer-driven episodes over JSON lines

Requests on stdin, one JSON object per line; answers on stdout, one per line (an "id" in a request
is echoed in its answer; answers to different episodes may come in any order):
  {"op":"reset","task_id":"py-median-even","seed":0}      -> {"episode_id","messages","tools"}
  {"op":"step","episode_id":"...","message":{"role":"assistant","content":null,"tool_calls":[...]}}
                                                        -> {"observation":[...],"done","reward","info"}
  {"op":"close","episode_id":"..."}                       -> {"closed":true}
Errors: {"error":{"code","message"}}. Logs go to stderr.

Usage: patchgym serve --stdio [flags]

  --max-line-bytes N     longest request line; longer ones answer line_too_long
                         (default ${DEFAULT_MAX_LINE_BYTES})
  --max-episodes N       episodes open at once; more resets answer too_many_episodes
                         (default ${DEFAULT_SERVER_LIMITS.maxEpisodes})
  --idle-timeout S       close an episode after S seconds without a request; 0 never
                         (default ${DEFAULT_SERVER_LIMITS.idleTimeoutMs / 1000})
  --search-timeout S     stop a search tool call after S seconds (default ${
  DEFAULT_TOOL_LIMITS.searchTimeoutMs / 1000
})
  --tasks-dir DIR        task folder (default ./tasks or PATCHGYM_TASKS)
  --work-dir DIR         workspace root (default /tmp/patchgym)
  --isolation MODE       auto | bwrap | none (default auto)
${SANDBOX_FLAGS_HELP}
`;

/** Run the `serve` command until stdin closes. */
export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("serve", args, {
    stdio: { type: "boolean" },
    "max-line-bytes": { type: "string" },
    "max-episodes": { type: "string" },
    "idle-timeout": { type: "string" },
    "search-timeout": { type: "string" },
    ...ENVIRONMENT_FLAGS,
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.stdio) {
    throw new UsageError('serve: only --stdio is supported; run "patchgym serve --stdio"');
  }
  const maxLineBytes = intFlag(
    "max-line-bytes",
    values["max-line-bytes"],
    DEFAULT_MAX_LINE_BYTES,
    1,
    1024 ** 3,
  );
  const maxEpisodes = intFlag(
    "max-episodes",
    values["max-episodes"],
    DEFAULT_SERVER_LIMITS.maxEpisodes,
  );
  const idleSeconds = numberFlag("idle-timeout", values["idle-timeout"]) ??
    DEFAULT_SERVER_LIMITS.idleTimeoutMs / 1000;
  const searchSeconds = numberFlag("search-timeout", values["search-timeout"]) ??
    DEFAULT_TOOL_LIMITS.searchTimeoutMs / 1000;
  if (!(searchSeconds > 0)) {
    throw new UsageError(
      `--search-timeout: expected seconds > 0, got "${values["search-timeout"]}"`,
    );
  }
  if (idleSeconds < 0) {
    throw new UsageError(`--idle-timeout: expected seconds >= 0, got "${values["idle-timeout"]}"`);
  }
  // Ctrl-C and SIGTERM end the process; the exit removes every workspace it still has.
  exitOnSignal("SIGINT");
  const environment = await openEnvironment(values, { searchTimeoutMs: searchSeconds * 1000 });
  const server = new EpisodeServer(environment, {
    maxEpisodes,
    idleTimeoutMs: idleSeconds * 1000,
  });
  let sweep: ReturnType<typeof setInterval> | undefined;
  if (idleSeconds > 0) {
    const timer = setInterval(
      () => void server.reapIdle(),
      Math.min(idleSeconds * 500, MAX_SWEEP_MS),
    );
    Deno.unrefTimer(timer);
    sweep = timer;
  }
  console.error(`patchgym serve: ready (isolation ${environment.isolation.level})`);
  const encoder = new TextEncoder();
  let writing = Promise.resolve();
  const reply = (value: Record<string, unknown>) => {
    const bytes = encoder.encode(`${JSON.stringify(value)}\n`);
    writing = writing.then(async () => {
      let n = 0;
      while (n < bytes.length) n += await Deno.stdout.write(bytes.subarray(n));
    });
  };
  const pending = new Set<Promise<void>>();
  for await (const event of readLines(Deno.stdin.readable, maxLineBytes)) {
    if (event.kind === "line" && event.text.trim() === "") continue;
    const job = server.handleEvent(event).then(reply);
    pending.add(job);
    job.finally(() => pending.delete(job));
  }
  await Promise.all(pending);
  await writing;
  clearInterval(sweep);
  await server.closeAll();
  return 0;
}
