/**
 * `serve`: trainer-driven mode, over JSON lines on stdin/stdout (`--stdio`) or over HTTP and
 * WebSocket in OpenEnv's API (`--http HOST:PORT`).
 */
import { patchgymCommand } from "../hint.ts";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../errors.ts";
import { HttpFront, PENDING_BODIES } from "../serve/http.ts";
import { readLines } from "../serve/lines.ts";
import { DEFAULT_SERVER_LIMITS, EpisodeServer } from "../serve/server.ts";
import { JsonlWriter } from "../trajectory/writer.ts";
import { DEFAULT_TOOL_LIMITS } from "../tools/types.ts";
import { exitOnSignal } from "../workspace/root.ts";
import { intFlag, numberFlag, parseFlags } from "./_args.ts";
import { ENVIRONMENT_FLAGS, openEnvironment, SANDBOX_FLAGS_HELP } from "./_environment.ts";

/** Default cap on a request line: far above any real step, far below what stalls the server. */
const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

/** Longest pause between sweeps for idle episodes. */
const MAX_SWEEP_MS = 30_000;

const HELP = `patchgym serve: trainer-driven episodes

--stdio: requests on stdin, one JSON object per line; answers on stdout, one per line (an "id" in
a request is echoed in its answer; answers to different episodes may come in any order):
  {"op":"reset","task_id":"py-median-even"}  (or "seed":N to pick a task, neither: a random one;
                                             "limits", "tool_calls")
                        -> {"episode_id","task","messages","tools","limits"}
  {"op":"step","episode_id":"...","message":{"role":"assistant","content":null,"tool_calls":[...]},
   "tokens":{"prompt_ids","completion_ids","logprobs"},"usage":{...}}
                        -> {"observation":[...],"reward","done","terminated","truncated",
                            "stop_reason","info"} (+ "record" at the end)
  {"op":"finish","episode_id":"..."}   grade now   {"op":"close","episode_id":"..."}
  {"op":"state","episode_id":"..."}                {"op":"tasks"}
Errors: {"error":{"code","message"}}. Logs go to stderr.

--http HOST:PORT: OpenEnv's API (/health, /metadata, /schema, /reset, /step, /state, WebSocket
sessions at /ws) plus /tasks; native requests (with "op") are also accepted on /ws. MCP's
JSON-RPC (tools/list, tools/call, openenv/session/create and close) on POST /mcp, the WebSocket
/mcp and {"type":"mcp"} frames on /ws: every tools/call is one step of its session's episode.
Any MCP client: connect to http://HOST:PORT/mcp?task_id=ID; its initialize opens the episode
(the Mcp-Session-Id header), the instructions carry the task, DELETE /mcp ends it.

Usage: patchgym serve (--stdio | --http HOST:PORT) [flags]

  --out DIR              append every finished episode's trajectory record to
                         DIR/trajectories.jsonl
  --max-line-bytes N     longest request line; longer ones answer line_too_long
                         (default ${DEFAULT_MAX_LINE_BYTES})
  --max-pending-bytes N  --http: bytes of requests read and not yet answered, all connections
                         together; more answer too_busy (default ${PENDING_BODIES} x
                         --max-line-bytes)
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
    http: { type: "string" },
    out: { type: "string" },
    "max-line-bytes": { type: "string" },
    "max-episodes": { type: "string" },
    "max-pending-bytes": { type: "string" },
    "idle-timeout": { type: "string" },
    "search-timeout": { type: "string" },
    ...ENVIRONMENT_FLAGS,
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.stdio === (values.http === undefined)) {
    throw new UsageError(
      `serve: give one of --stdio or --http HOST:PORT, e.g. "${patchgymCommand("serve --stdio")}"`,
    );
  }
  const address = values.http === undefined ? null : parseAddress(values.http);
  const maxLineBytes = intFlag(
    "max-line-bytes",
    values["max-line-bytes"],
    DEFAULT_MAX_LINE_BYTES,
    1,
    1024 ** 3,
  );
  const maxPendingBytes = intFlag(
    "max-pending-bytes",
    values["max-pending-bytes"],
    PENDING_BODIES * maxLineBytes,
    maxLineBytes,
    64 * 1024 ** 3,
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
  let writer: JsonlWriter | undefined;
  if (values.out) {
    mkdirSync(resolve(values.out), { recursive: true });
    writer = new JsonlWriter(join(resolve(values.out), "trajectories.jsonl"));
  }
  const server = new EpisodeServer(environment, {
    maxEpisodes,
    idleTimeoutMs: idleSeconds * 1000,
    writer,
  });
  const sweepMs = Math.min(idleSeconds * 500, MAX_SWEEP_MS);
  let sweep: ReturnType<typeof setInterval> | undefined;
  try {
    if (address) {
      const front = new HttpFront(server, {
        maxBodyBytes: maxLineBytes,
        maxPendingBytes,
        hostname: address.hostname,
        maxConnections: maxEpisodes,
        idleTimeoutMs: idleSeconds * 1000,
      });
      if (idleSeconds > 0) {
        sweep = setInterval(() => {
          front.sweep();
          void server.reapIdle();
        }, sweepMs);
      }
      await serveHttp(front, address, environment.isolation.level);
      front.closeAll();
    } else {
      if (idleSeconds > 0) {
        sweep = setInterval(() => void server.reapIdle(), sweepMs);
        Deno.unrefTimer(sweep);
      }
      await serveStdio(server, maxLineBytes, environment.isolation.level);
    }
  } finally {
    clearInterval(sweep);
    await server.closeAll();
    await writer?.close();
  }
  return 0;
}

/** Answer JSON lines from stdin until it closes. */
async function serveStdio(server: EpisodeServer, maxLineBytes: number, isolation: string) {
  console.error(`patchgym serve: ready (isolation ${isolation})`);
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
}

/** Serve HTTP until the process is stopped (Ctrl-C or SIGTERM; see `exitOnSignal`). */
async function serveHttp(
  front: HttpFront,
  address: { hostname: string; port: number },
  isolation: string,
) {
  const server = Deno.serve({
    ...address,
    onListen: ({ hostname, port }) => {
      console.error(
        `patchgym serve: listening on http://${hostname}:${port} (isolation ${isolation})`,
      );
    },
  }, front.handler);
  await server.finished;
}

/** `HOST:PORT` (`[::1]:8000` for IPv6; port 0 picks a free one). */
function parseAddress(text: string): { hostname: string; port: number } {
  const match = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(text);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) {
    throw new UsageError(`--http: expected HOST:PORT such as 127.0.0.1:8000, got "${text}"`);
  }
  return { hostname: match[1].replace(/^\[|\]$/g, ""), port };
}
