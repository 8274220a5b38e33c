/** `serve --stdio`: trainer-driven mode over JSON lines on stdin/stdout. */
import { UsageError } from "../errors.ts";
import { EpisodeServer } from "../rollout/server.ts";
import { parseFlags } from "./_args.ts";
import { ENVIRONMENT_FLAGS, openEnvironment, SANDBOX_FLAGS_HELP } from "./_environment.ts";

const HELP = `patchgym serve --stdio: trainer-driven episodes over JSON lines

Requests on stdin, one JSON object per line; answers on stdout, one per line (an "id" in a request
is echoed in its answer; answers to different episodes may come in any order):
  {"op":"reset","task_id":"py-median-even","seed":0}      -> {"episode_id","messages","tools"}
  {"op":"step","episode_id":"...","message":{"role":"assistant","content":null,"tool_calls":[...]}}
                                                        -> {"observation":[...],"done","reward","info"}
  {"op":"close","episode_id":"..."}                       -> {"closed":true}
Errors: {"error":{"code","message"}}. Logs go to stderr.

Usage: patchgym serve --stdio [--tasks-dir DIR] [--work-dir DIR] [--isolation MODE]
${SANDBOX_FLAGS_HELP}
`;

/** Run the `serve` command until stdin closes. */
export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("serve", args, {
    stdio: { type: "boolean" },
    ...ENVIRONMENT_FLAGS,
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.stdio) {
    throw new UsageError('serve: only --stdio is supported; run "patchgym serve --stdio"');
  }
  const environment = await openEnvironment(values);
  const server = new EpisodeServer(environment);
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
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of Deno.stdin.readable) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line === "") continue;
      const job = server.handle(line).then(reply);
      pending.add(job);
      job.finally(() => pending.delete(job));
    }
  }
  if (buffer.trim() !== "") pending.add(server.handle(buffer.trim()).then(reply));
  await Promise.all(pending);
  await writing;
  await server.closeAll();
  return 0;
}
