/**
 * `serve`: trainer-driven mode, over JSON lines on stdin/stdout (`--stdio`) or over HTTP and
 * WebSocket in OpenEnv's API (`--http HOST:PORT`).
 */
import { patchgymCommand } from "../hint.ts";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { UsageError } from "../errors.ts";
import { Auth, newToken, parseTokenFile } from "../serve/auth.ts";
import { HttpFront, PENDING_BODIES } from "../serve/http.ts";
import { DEFAULT_CONNECTION_LIMITS, HttpServer } from "../serve/http1.ts";
import { readLines } from "../lines.ts";
import { DEFAULT_SERVER_LIMITS, EpisodeServer } from "../serve/server.ts";
import { JsonlWriter } from "../trajectory/writer.ts";
import { DEFAULT_TOOL_LIMITS } from "../tools/types.ts";
import { exitOnSignal } from "../workspace/root.ts";
import { env, intFlag, numberFlag, parseFlags } from "./_args.ts";
import {
  ENVIRONMENT_FLAGS,
  openEnvironment,
  SANDBOX_FLAGS_HELP,
  WORK_DIR_DEFAULT,
} from "./_environment.ts";

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

Authentication (--http): every route but /health, /metadata and /schema needs a token, sent as
"Authorization: Bearer TOKEN" or as HTTP Basic with the token as password
(http://patchgym:TOKEN@HOST:PORT, which OpenEnv's client sends as is). The tokens are those of
--token-file, else the one in PATCHGYM_TOKEN, else a new one made now, printed once and written
to ~/.patchgym/token (mode 0600), where patchgym's Python client looks for it.

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
  --token-file FILE      --http: the tokens, one a line: TOKEN [name=N] [role=drive|observe]
                         [sessions=N] [resets=N a minute] [body=BYTES]
  --no-auth              --http: no token at all; refused unless HOST is a loopback address
  --cert FILE --key FILE --http: HTTPS and WSS with this PEM certificate chain and key
  --header-timeout S     --http: a request's headers must arrive within S seconds
                         (default ${DEFAULT_CONNECTION_LIMITS.headerTimeoutMs / 1000})
  --body-timeout S       --http: its body within S seconds more (default ${
  DEFAULT_CONNECTION_LIMITS.bodyTimeoutMs / 1000
})
  --keep-alive-timeout S --http: close a connection idle S seconds between requests (default ${
  DEFAULT_CONNECTION_LIMITS.keepAliveMs / 1000
})
  --max-connections N    --http: connections open at once, HTTP and WebSocket (default ${DEFAULT_CONNECTION_LIMITS.maxConnections})
  --max-connections-per-peer N
                         --http: connections open at once from one address (default ${DEFAULT_CONNECTION_LIMITS.maxPerPeer})
  --tasks-dir DIR        task folder (default ./tasks or PATCHGYM_TASKS)
  --work-dir DIR         workspace root (${WORK_DIR_DEFAULT})
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
    "token-file": { type: "string" },
    "no-auth": { type: "boolean" },
    cert: { type: "string" },
    key: { type: "string" },
    "header-timeout": { type: "string" },
    "body-timeout": { type: "string" },
    "keep-alive-timeout": { type: "string" },
    "max-connections": { type: "string" },
    "max-connections-per-peer": { type: "string" },
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
  const network = address ? networkOptions(values, address.hostname) : null;
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
    if (address && network) {
      const limits = { maxEpisodes, maxBodyBytes: maxLineBytes };
      const auth = network.tokens === null
        ? Auth.none(limits)
        : Auth.of(network.tokens.specs, limits);
      const front = new HttpFront(server, {
        maxBodyBytes: maxLineBytes,
        maxPendingBytes,
        hostname: address.hostname,
        maxConnections: maxEpisodes,
        idleTimeoutMs: idleSeconds * 1000,
        auth,
      });
      if (idleSeconds > 0) {
        sweep = setInterval(() => {
          front.sweep();
          void server.reapIdle();
        }, sweepMs);
      }
      const http = HttpServer.listen({
        ...address,
        ...network.connections,
        // Over --max-line-bytes is answered line_too_long by the front; far over it ends the socket.
        maxMessageBytes: 2 * maxLineBytes + 65536,
        tls: network.tls,
      }, front.handler);
      const scheme = network.tls ? "https" : "http";
      const { hostname, port } = http.addr;
      const who = network.tokens === null
        ? "no authentication (--no-auth)"
        : `${network.tokens.specs.length} token(s) from ${network.tokens.source}`;
      console.error(
        `patchgym serve: listening on ${scheme}://${
          hostname.includes(":") ? `[${hostname}]` : hostname
        }:${port} (isolation ${environment.isolation.level}; ${who})`,
      );
      if (network.tokens?.made) {
        // Printed once; the file keeps it for the clients of this machine.
        console.error(
          `patchgym serve: token ${
            network.tokens.specs[0].token
          } (also in ${network.tokens.source}); connect with ${scheme}://patchgym:TOKEN@HOST:${port}`,
        );
      }
      await http.finished;
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

/** Where the token made at start is written, when none is given. */
export function defaultTokenFile(): string | null {
  const home = env("HOME");
  return home ? join(home, ".patchgym", "token") : null;
}

interface NetworkOptions {
  /** Null: no authentication (`--no-auth`). */
  tokens: { specs: ReturnType<typeof parseTokenFile>; source: string; made: boolean } | null;
  tls: { cert: string; key: string } | undefined;
  connections: {
    headerTimeoutMs: number;
    bodyTimeoutMs: number;
    keepAliveMs: number;
    maxConnections: number;
    maxPerPeer: number;
  };
}

/** The `--http` flags: tokens, TLS, connection limits. */
function networkOptions(
  values: Record<string, string | boolean | undefined>,
  hostname: string,
): NetworkOptions {
  const seconds = (name: string, fallbackMs: number) => {
    const value = numberFlag(name, values[name] as string | undefined);
    if (value === undefined) return fallbackMs;
    if (!(value > 0)) throw new UsageError(`--${name}: expected seconds > 0, got "${value}"`);
    return value * 1000;
  };
  const d = DEFAULT_CONNECTION_LIMITS;
  const connections = {
    headerTimeoutMs: seconds("header-timeout", d.headerTimeoutMs),
    bodyTimeoutMs: seconds("body-timeout", d.bodyTimeoutMs),
    keepAliveMs: seconds("keep-alive-timeout", d.keepAliveMs),
    maxConnections: intFlag(
      "max-connections",
      values["max-connections"] as string | undefined,
      d.maxConnections,
      1,
    ),
    maxPerPeer: intFlag(
      "max-connections-per-peer",
      values["max-connections-per-peer"] as string | undefined,
      d.maxPerPeer,
      1,
    ),
  };
  const certFile = values.cert as string | undefined;
  const keyFile = values.key as string | undefined;
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new UsageError("--cert and --key go together: give both PEM files, or neither");
  }
  const tls = certFile && keyFile
    ? { cert: readFileSync(resolve(certFile), "utf8"), key: readFileSync(resolve(keyFile), "utf8") }
    : undefined;
  const tokenFile = values["token-file"] as string | undefined;
  if (values["no-auth"]) {
    if (tokenFile) throw new UsageError("--no-auth and --token-file contradict; give one");
    if (!isLoopback(hostname)) {
      throw new UsageError(
        `--no-auth: refused on "${hostname}", which is not a loopback address: anyone who reaches it could run commands; listen on 127.0.0.1 or use a token`,
      );
    }
    return { tokens: null, tls, connections };
  }
  if (tokenFile) {
    const path = resolve(tokenFile);
    if (!existsSync(path)) {
      throw new UsageError(
        `--token-file: "${tokenFile}" does not exist; write one token a line (e.g. "openssl rand -hex 32 > ${tokenFile}; chmod 600 ${tokenFile}")`,
      );
    }
    if ((statSync(path).mode & 0o077) !== 0) {
      console.error(
        `patchgym serve: warning: "${tokenFile}" can be read by other users; chmod 600 it`,
      );
    }
    return {
      tokens: {
        specs: parseTokenFile(readFileSync(path, "utf8"), tokenFile),
        source: tokenFile,
        made: false,
      },
      tls,
      connections,
    };
  }
  const fromEnv = env("PATCHGYM_TOKEN");
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    return {
      tokens: {
        specs: parseTokenFile(fromEnv, "PATCHGYM_TOKEN"),
        source: "PATCHGYM_TOKEN",
        made: false,
      },
      tls,
      connections,
    };
  }
  const path = defaultTokenFile();
  if (path === null) {
    throw new UsageError("serve --http: HOME is not set; give --token-file FILE or PATCHGYM_TOKEN");
  }
  const token = newToken();
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // A new file, private from its first byte, renamed over the old: never written through a
    // file that was there (its mode, or a hard link to it, could let other users read the token).
    const fresh = `${path}.${crypto.randomUUID()}.tmp`;
    writeFileSync(fresh, `${token}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(fresh, 0o600);
    renameSync(fresh, path);
  } catch (error) {
    // The compiled binary may not write there (its permissions are fixed when it is built).
    throw new UsageError(
      `serve --http: cannot write the new token to "${path}": ${
        (error as Error).message
      }; set PATCHGYM_TOKEN or give --token-file FILE`,
    );
  }
  return {
    tokens: { specs: parseTokenFile(token, path), source: path, made: true },
    tls,
    connections,
  };
}

function isLoopback(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name === "localhost" || name === "::1" || /^127\.\d+\.\d+\.\d+$/.test(name);
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
