/**
 * `serve --http`: the protocol core over HTTP and WebSocket, in OpenEnv's routes and shapes
 * (`/health`, `/metadata`, `/schema`, `/reset`, `/step`, `/state`, `/ws`, `/mcp`) plus `/tasks`.
 * On `/ws` a text frame holding an `op` is a request of the native protocol (answered by id, any
 * number of episodes per connection, concurrently); one holding a `type` is OpenEnv's (answered in
 * order, one current episode per connection; `{"type":"mcp","data":{JSON-RPC}}` is an MCP request
 * on that episode). `POST /mcp` and the WebSocket `/mcp` speak MCP's JSON-RPC (see mcp.ts).
 *
 * Bounded like stdio: request bodies and frames are capped, nesting is checked before parsing,
 * the bytes of all requests in flight at once are capped (however many connections, slow bodies
 * or frames queued behind a busy episode hold them), connections are capped and closed when idle,
 * and episodes stay capped and idle-reaped by the core. A connection that drops leaves its
 * episodes open until they idle out, so a client can reconnect and go on by episode id.
 */
import { scanLine } from "./_json_depth.ts";
import {
  metadata,
  type OpenEnvFailure,
  openEnvReset,
  type OpenEnvResult,
  openEnvState,
  openEnvStep,
  schemas,
  StepBodySchema,
  withStatus,
} from "./openenv.ts";
import { failure, firstIssue, type ServeError, type ServeErrorCode } from "./protocol.ts";
import {
  JSON_RPC,
  type JsonRpcResponse,
  type McpBinding,
  mcpRequest,
  rpcError,
  rpcFailure,
} from "./mcp.ts";
import type { Episodes, EpisodeServer } from "./server.ts";
import { Auth, type Principal } from "./auth.ts";
import type { ConnInfo } from "./http1.ts";
import { parseJson } from "../well_formed.ts";

/** Bounds of the HTTP front. */
export interface HttpLimits {
  /** Largest request body or WebSocket frame, bytes. */
  maxBodyBytes: number;
  /** WebSocket connections open at once. */
  maxConnections: number;
  /** A connection with no message for this long is closed (0: never). */
  idleTimeoutMs: number;
  /**
   * Bytes of request bodies and frames held at once, from their first byte until they are
   * answered (a WebSocket frame at least {@linkcode FRAME_COST}); a request that would go past it
   * is answered `too_busy`. At least `maxBodyBytes`.
   */
  maxPendingBytes: number;
}

/** Options of an {@linkcode HttpFront}. */
export interface HttpOptions extends Omit<HttpLimits, "maxPendingBytes"> {
  /** Default: {@linkcode PENDING_BODIES} times `maxBodyBytes`. */
  maxPendingBytes?: number;
  /**
   * The address the server listens on. On a loopback one, a request must name it by a loopback
   * name in its Host: a DNS name rebound to this machine is refused even without an Origin.
   */
  hostname?: string;
  /** Clock in ms; tests swap it. */
  now?: () => number;
  /**
   * Who may call (see auth.ts). Default: nobody needs a token, which only the tests and
   * `serve --http --no-auth` on loopback use.
   */
  auth?: Auth;
}

/** The part of a WebSocket the front uses: a browser-style one, or http1.ts's own. */
type Socket = Pick<WebSocket, "send" | "close" | "readyState"> & {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
};

interface Connection {
  socket: Socket;
  /** Who opened it; its episodes are this caller's. */
  principal: Principal;
  episodes: Episodes;
  /** `/mcp`: every frame is a JSON-RPC request. */
  mcp: boolean;
  /** The episode OpenEnv and MCP messages act on. */
  episodeId: string | undefined;
  /** OpenEnv messages are answered in order. */
  queue: Promise<unknown>;
  lastActive: number;
  busy: number;
}

/** How many largest requests may be in flight at once, by default (see `maxPendingBytes`). */
export const PENDING_BODIES = 16;

/**
 * The least a WebSocket frame holds against `maxPendingBytes` from its arrival to its answer,
 * whatever its length: what waiting costs the server besides the frame's text.
 */
export const FRAME_COST = 1024;

/** A request body being read, and when its last bytes came. */
interface BodyRead {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  lastActive: number;
  stalled: boolean;
}

/** Bytes of one request held against `maxPendingBytes`, released once it is answered. */
interface Held {
  bytes: number;
}

/** OpenEnv's WebSocket error codes for patchgym's. */
const WS_CODES: Partial<Record<ServeErrorCode, string>> = {
  bad_json: "INVALID_JSON",
  bad_request: "VALIDATION_ERROR",
  too_deep: "VALIDATION_ERROR",
  line_too_long: "VALIDATION_ERROR",
  too_many_episodes: "CAPACITY_REACHED",
  too_busy: "CAPACITY_REACHED",
  over_quota: "CAPACITY_REACHED",
  too_slow: "VALIDATION_ERROR",
};

/** Answers HTTP requests and WebSocket frames for one {@linkcode EpisodeServer}. */
export class HttpFront {
  readonly #server: EpisodeServer;
  readonly limits: HttpLimits;
  readonly #now: () => number;
  readonly #connections = new Set<Connection>();
  /** Request bodies being read: a sweep drops those that stalled. */
  readonly #bodies = new Set<BodyRead>();
  readonly #loopback: boolean;
  readonly auth: Auth;
  #pending = 0;

  constructor(server: EpisodeServer, options: HttpOptions) {
    this.#server = server;
    const { now, maxPendingBytes, hostname, auth, ...limits } = options;
    this.auth = auth ??
      Auth.none({ maxEpisodes: server.limits.maxEpisodes, maxBodyBytes: limits.maxBodyBytes });
    this.#loopback = hostname !== undefined && isLoopbackName(hostname);
    this.limits = {
      ...limits,
      maxPendingBytes: Math.max(
        maxPendingBytes ?? PENDING_BODIES * limits.maxBodyBytes,
        limits.maxBodyBytes,
      ),
    };
    this.#now = now ?? (() => performance.now());
  }

  /** Bytes of requests in flight now (see `maxPendingBytes`). */
  get pendingBytes(): number {
    return this.#pending;
  }

  /** Hold `bytes` more for a request, or answer why not; `held` keeps the count to release. */
  #hold(held: Held, bytes: number): OpenEnvFailure | null {
    if (this.#pending + bytes > this.limits.maxPendingBytes) {
      return failed(
        "too_busy",
        `The server holds ${this.#pending} bytes of requests not yet answered, the limit (--max-pending-bytes) is ${this.limits.maxPendingBytes}; retry once earlier requests are answered`,
      );
    }
    this.#pending += bytes;
    held.bytes += bytes;
    return null;
  }

  #release(held: Held): void {
    this.#pending -= held.bytes;
    held.bytes = 0;
  }

  /** Open WebSocket connections. */
  get connections(): number {
    return this.#connections.size;
  }

  /**
   * Answer one HTTP request (upgrading `/ws` and `/mcp` through `info`, http1.ts's, or
   * `Deno.upgradeWebSocket` without it). Never throws.
   */
  handler = async (request: Request, info?: ConnInfo): Promise<Response> => {
    const held: Held = { bytes: 0 };
    try {
      return await this.#route(request, held, info);
    } finally {
      this.#release(held);
    }
  };

  async #route(request: Request, held: Held, info: ConnInfo | undefined): Promise<Response> {
    const { pathname, searchParams } = new URL(request.url);
    const route = `${request.method} ${pathname}`;
    if (this.#loopback && !isLoopbackHost(request.headers.get("host"))) {
      // DNS rebinding: a page of the attacker's name, now pointing at 127.0.0.1, sends same-origin
      // GETs with no Origin; only its Host tells it apart from a client of this machine.
      return json({
        detail:
          "This server listens on a loopback address: name it by a loopback name (127.0.0.1, localhost, [::1]) in Host",
      }, 403);
    }
    if (crossOrigin(request)) {
      // A web page the trainer's machine visits must not drive episodes (DNS rebinding included):
      // browsers name the page in Origin; trainers' clients send none, or this server's own.
      return json(
        { detail: "Cross-origin requests are refused: a web page cannot drive episodes" },
        403,
      );
    }
    // Open to anyone: they start nothing and read nothing of an episode.
    switch (route) {
      case "GET /health":
        return json({ status: "healthy" });
      case "GET /metadata":
        return json(metadata());
      case "GET /schema":
        return json(schemas());
    }
    const principal = this.auth.authenticate(request.headers.get("authorization"));
    if (principal === null) {
      await request.body?.cancel().catch(() => {});
      return json(
        {
          detail:
            "Authentication required: send the server's token as Authorization: Bearer TOKEN, or as the password of HTTP Basic (http://patchgym:TOKEN@HOST:PORT)",
          error: { code: "unauthorized", message: "Missing or wrong token" },
        },
        401,
        { "www-authenticate": 'Bearer realm="patchgym", Basic realm="patchgym"' },
      );
    }
    if (principal.role === "observe" && !OBSERVE_ROUTES.includes(route)) {
      await request.body?.cancel().catch(() => {});
      return result(failed(
        "forbidden",
        `This token may only observe (role=observe): ${route} is for tokens that drive episodes`,
      ));
    }
    const episodes = this.#server.as(this.#caller(principal));
    const bodyLimit = principal.limits.bodyBytes;
    try {
      switch (route) {
        case "GET /tasks":
          return json(this.#server.tasks());
        case "GET /metrics":
          return json(this.metrics(principal));
        case "GET /state":
          return result(
            await openEnvState(episodes, searchParams.get("episode_id") ?? undefined),
          );
        case "POST /reset": {
          const body = await this.#body(request, held, bodyLimit);
          if (isFailure(body)) return result(body);
          return result(await openEnvReset(episodes, body));
        }
        case "POST /step": {
          const body = await this.#body(request, held, bodyLimit);
          if (isFailure(body)) return result(body);
          const parsed = StepBodySchema.safeParse(body);
          if (!parsed.success) return result(failed("bad_request", firstIssue(parsed.error, body)));
          const { action, episode_id, request_id } = parsed.data;
          return result(
            await openEnvStep(episodes, action, {
              episodeId: episode_id,
              requestId: request_id,
            }),
          );
        }
        case "GET /ws":
          return this.#upgrade(request, false, principal, info);
        case "POST /mcp":
          return await this.#mcpPost(request, searchParams, held, principal);
        case "DELETE /mcp":
          return await this.#mcpDelete(request, episodes);
        case "GET /mcp":
          // A WebSocket, or MCP's optional server-to-client stream, which is not offered.
          return request.headers.get("upgrade")?.toLowerCase() === "websocket"
            ? this.#upgrade(request, true, principal, info)
            : json({ detail: "GET /mcp opens a WebSocket; send MCP requests with POST" }, 405, {
              allow: "POST, DELETE",
            });
      }
      const known = [
        "/health",
        "/metadata",
        "/schema",
        "/tasks",
        "/metrics",
        "/state",
        "/reset",
        "/step",
        "/ws",
        "/mcp",
      ];
      return known.includes(pathname)
        ? json({ detail: "Method Not Allowed" }, 405)
        : json({ detail: "Not Found" }, 404);
    } catch (error) {
      return result(failed("internal", error instanceof Error ? error.message : String(error)));
    }
  }

  /**
   * Close connections idle for the idle timeout, and drop request bodies that sent nothing for as
   * long (answered `too_slow`); returns how many. A timer calls it.
   */
  sweep(): number {
    if (this.limits.idleTimeoutMs <= 0) return 0;
    let closed = 0;
    for (const body of this.#bodies) {
      if (this.#now() - body.lastActive >= this.limits.idleTimeoutMs) {
        this.#bodies.delete(body);
        body.stalled = true;
        void body.reader.cancel().catch(() => {});
        closed++;
      }
    }
    for (const connection of this.#connections) {
      if (
        connection.busy === 0 && this.#now() - connection.lastActive >= this.limits.idleTimeoutMs
      ) {
        this.#connections.delete(connection);
        connection.socket.close(1000, "idle");
        closed++;
      }
    }
    return closed;
  }

  /** Close every connection. */
  closeAll(): void {
    for (const connection of this.#connections) connection.socket.close(1001, "server stopping");
    this.#connections.clear();
  }

  /** The core's caller: none without authentication (one anonymous caller owns nothing apart). */
  #caller(principal: Principal): Principal | undefined {
    return this.auth.required ? principal : undefined;
  }

  /** Counts for a dashboard: the server's, and each token's (all of them for an observer). */
  metrics(principal: Principal): Record<string, unknown> {
    const visible = principal.role === "observe" ? this.auth.principals : [principal];
    return {
      episodes_open: this.#server.open,
      max_episodes: this.#server.limits.maxEpisodes,
      websocket_connections: this.#connections.size,
      pending_bytes: this.#pending,
      tokens: visible.map((p) => ({
        name: p.name,
        role: p.role,
        episodes_open: this.#server.openBy(p.name),
        websocket_connections: p.connections,
        resets_last_minute: p.resets.length,
        limits: {
          sessions: p.limits.sessions,
          resets_per_minute: p.limits.resetsPerMinute,
          body_bytes: p.limits.bodyBytes,
        },
      })),
    };
  }

  /** The JSON body, bounded in size and nesting; an empty body is `{}`. */
  async #body(request: Request, held: Held, limit: number): Promise<unknown | OpenEnvFailure> {
    const text = await this.#text(request, held, limit);
    if (isFailure(text)) return text;
    if (text.trim() === "") return {};
    return this.#parse(text);
  }

  /** The body as text, bounded in size and held against the bytes in flight as it streams in. */
  async #text(request: Request, held: Held, limit: number): Promise<string | OpenEnvFailure> {
    const declared = Number(request.headers.get("content-length") ?? "0");
    if (declared > limit) {
      await request.body?.cancel();
      return tooLong(declared);
    }
    const parts: Uint8Array[] = [];
    let size = 0;
    if (request.body) {
      const body: BodyRead = {
        reader: request.body.getReader(),
        lastActive: this.#now(),
        stalled: false,
      };
      this.#bodies.add(body);
      try {
        for (let read = await body.reader.read(); !read.done; read = await body.reader.read()) {
          body.lastActive = this.#now();
          size += read.value.length;
          if (size > limit) return tooLong(size);
          const busy = this.#hold(held, read.value.length);
          if (busy) return busy;
          parts.push(read.value);
        }
      } finally {
        this.#bodies.delete(body);
        if (!body.stalled) void body.reader.cancel().catch(() => {});
      }
      if (body.stalled) {
        return failed(
          "too_slow",
          `Request body sent nothing for ${
            this.limits.idleTimeoutMs / 1000
          } s (--idle-timeout); send bodies whole`,
        );
      }
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
    return new TextDecoder().decode(bytes);
  }

  /**
   * Answer `POST /mcp`: one JSON-RPC request. MCP's HTTP transport keeps a session in the
   * `Mcp-Session-Id` header: an `initialize` without one opens an episode (the task the URL's
   * `task_id` or `seed` picks, else a random one) and answers its id there; a request with one
   * acts on that episode, and once it is gone answers 404, so the client starts a new session.
   * A notification is accepted with no body (202).
   */
  async #mcpPost(
    request: Request,
    query: URLSearchParams,
    held: Held,
    principal: Principal,
  ): Promise<Response> {
    const text = await this.#text(request, held, principal.limits.bodyBytes);
    if (isFailure(text)) return json(rpcFailure(null, text));
    const session = request.headers.get(SESSION_HEADER) ?? undefined;
    const binding: McpBinding = {
      episodeId: session,
      open: session ? undefined : resetQuery(query),
    };
    const answer = await this.#mcpText(this.#server.as(this.#caller(principal)), text, binding);
    if (answer === null) return new Response(null, { status: 202 });
    const opened = binding.episodeId !== session && binding.episodeId !== undefined;
    const gone = session !== undefined && "error" in answer &&
      GONE.includes(answer.error.data.error_code);
    const quota = "error" in answer && answer.error.data.error_code === "over_quota";
    return json(answer, gone ? 404 : quota ? 429 : 200, {
      ...(opened ? { [SESSION_HEADER]: binding.episodeId! } : {}),
      ...(quota ? { "retry-after": "1" } : {}),
    });
  }

  /** `DELETE /mcp`: MCP's end of a session, which closes its episode. */
  async #mcpDelete(request: Request, episodes: Episodes): Promise<Response> {
    const session = request.headers.get(SESSION_HEADER);
    if (session === null) {
      return json({ detail: `DELETE /mcp needs the ${SESSION_HEADER} header` }, 400);
    }
    const answer = await episodes.request({ op: "close", episode_id: session });
    if (!("error" in answer)) return new Response(null, { status: 204 });
    const { code, message } = (answer as unknown as ServeError).error;
    return json({ detail: message, error: { code, message } }, GONE.includes(code) ? 404 : 400);
  }

  /** Answer one JSON-RPC request's text; errors echo the id when it can be read. */
  async #mcpText(
    episodes: Episodes,
    text: string,
    binding: McpBinding,
  ): Promise<JsonRpcResponse | null> {
    const parsed = this.#parse(text);
    if (isFailure(parsed)) {
      return rpcFailure(scanLine(text, this.#server.limits.maxDepth).id ?? null, parsed);
    }
    return await mcpRequest(episodes, parsed, binding);
  }

  #parse(text: string): unknown | OpenEnvFailure {
    const maxDepth = this.#server.limits.maxDepth;
    if (scanLine(text, maxDepth).tooDeep) {
      return failed(
        "too_deep",
        `Request nests arrays and objects deeper than ${maxDepth} levels; flatten it`,
      );
    }
    try {
      return parseJson(text);
    } catch (error) {
      return failed("bad_json", `Body is not valid JSON: ${(error as Error).message}`);
    }
  }

  #upgrade(
    request: Request,
    mcp: boolean,
    principal: Principal,
    info: ConnInfo | undefined,
  ): Response {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return json({ detail: "Expected a WebSocket upgrade" }, 426);
    }
    let upgraded: { socket: Socket; response: Response };
    try {
      upgraded = info
        ? info.upgrade(request) as unknown as { socket: Socket; response: Response }
        : Deno.upgradeWebSocket(request) as unknown as { socket: Socket; response: Response };
    } catch (error) {
      // Headers a WebSocket client always sends are missing: the client's fault, not the server's.
      const message = `Not a valid WebSocket upgrade: ${(error as Error).message}`;
      return json({ detail: message, error: failure("bad_request", message).error }, 400);
    }
    const { socket, response } = upgraded;
    const mine = Math.max(1, principal.limits.sessions);
    if (this.#connections.size >= this.limits.maxConnections || principal.connections >= mine) {
      const total = this.#connections.size >= this.limits.maxConnections;
      socket.onopen = () => {
        const message = total
          ? `Cannot open another session: ${this.#connections.size} are open, the limit (--max-episodes)`
          : `Cannot open another session: this token has ${principal.connections} WebSocket connections open, its limit (sessions= in the token file)`;
        socket.send(JSON.stringify({
          type: "error",
          data: {
            message,
            code: "CAPACITY_REACHED",
            error_code: total ? "too_many_episodes" : "over_quota",
          },
        }));
        socket.close(1013, "capacity reached");
      };
      return response;
    }
    principal.connections++;
    const connection: Connection = {
      socket,
      principal,
      episodes: this.#server.as(this.#caller(principal)),
      mcp,
      episodeId: undefined,
      queue: Promise.resolve(),
      lastActive: this.#now(),
      busy: 0,
    };
    this.#connections.add(connection);
    let counted = true;
    socket.onclose = () => {
      this.#connections.delete(connection);
      if (counted) principal.connections--;
      counted = false;
    };
    socket.onmessage = (event) => {
      connection.lastActive = this.#now();
      // Held from now until answered: frames queued behind a busy episode count.
      const held: Held = { bytes: 0 };
      const size = typeof event.data === "string" ? event.data.length : 0;
      // A frame costs the server more than its text while it waits (its promise, closures and
      // answer): count at least FRAME_COST, or empty frames queue behind a busy call for free.
      const cost = Math.max(size, Math.min(FRAME_COST, this.limits.maxBodyBytes));
      const busy = size <= principal.limits.bodyBytes ? this.#hold(held, cost) : null;
      if (busy) {
        // A binary frame holds its cost too, and has no id to read.
        const { id } = typeof event.data === "string"
          ? scanLine(event.data.slice(0, 4096), this.#server.limits.maxDepth)
          : { id: undefined };
        socket.send(JSON.stringify(
          connection.mcp ? rpcFailure(id ?? null, busy) : wsError(busy, id),
        ));
        return;
      }
      connection.busy++;
      void this.#frame(connection, event.data).then((answer) => {
        this.#release(held);
        connection.busy--;
        connection.lastActive = this.#now();
        if (answer !== null && socket.readyState === WebSocket.OPEN) {
          socket.send(serializeAnswer(answer, connection.mcp));
        }
      });
    };
    return response;
  }

  /**
   * Answer one frame; null when there is nothing to send. Never throws: a rejection here would be
   * unhandled (the socket's message handler cannot await it) and end the whole process.
   */
  async #frame(connection: Connection, data: unknown): Promise<object | null> {
    try {
      return await this.#answerFrame(connection, data);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const answer = failure("internal", message);
      return connection.mcp ? rpcFailure(null, answer) : wsError(answer);
    }
  }

  async #answerFrame(connection: Connection, data: unknown): Promise<object | null> {
    if (typeof data !== "string") {
      const message = "Frames must be text holding one JSON object";
      return connection.mcp
        ? rpcError(null, "bad_request", message, JSON_RPC.INVALID_REQUEST)
        : wsError(failure("bad_request", message));
    }
    const bytes = new TextEncoder().encode(data).length;
    if (bytes > connection.principal.limits.bodyBytes) {
      const { id } = scanLine(data.slice(0, 4096), this.#server.limits.maxDepth);
      return connection.mcp ? rpcFailure(id ?? null, tooLong(bytes)) : wsError(tooLong(bytes), id);
    }
    if (connection.mcp) {
      // In order, like OpenEnv's: a call sent right after a session/create acts on its episode.
      const answer = connection.queue.then(() =>
        this.#mcpText(connection.episodes, data, connection)
      );
      connection.queue = answer.catch(() => {});
      return await answer;
    }
    const parsed = this.#parse(data);
    if (isFailure(parsed)) {
      return wsError(parsed, scanLine(data, this.#server.limits.maxDepth).id);
    }
    if (typeof parsed === "object" && parsed !== null && "op" in parsed) {
      return await connection.episodes.request(parsed);
    }
    // OpenEnv's client sends and then waits for the answer: keep its order.
    const answer = connection.queue.then(() => this.#openEnv(connection, parsed));
    connection.queue = answer.catch(() => {});
    return await answer;
  }

  async #openEnv(
    connection: Connection,
    message: unknown,
  ): Promise<Record<string, unknown> | null> {
    const { type, data } = (typeof message === "object" && message !== null ? message : {}) as {
      type?: unknown;
      data?: unknown;
    };
    switch (type) {
      case "reset": {
        const answer = await openEnvReset(
          connection.episodes,
          data ?? {},
          connection.episodeId,
        );
        if (isFailure(answer)) return wsError(answer);
        connection.episodeId = answer.observation.episode_id as string;
        return { type: "observation", data: answer };
      }
      case "step": {
        const answer = await openEnvStep(connection.episodes, data, {
          episodeId: connection.episodeId,
        });
        return isFailure(answer) ? wsError(answer) : { type: "observation", data: answer };
      }
      case "state": {
        const answer = await openEnvState(connection.episodes, connection.episodeId);
        return isFailure(answer) ? wsError(answer) : { type: "state", data: answer };
      }
      case "mcp": {
        const answer = await mcpRequest(connection.episodes, data, connection);
        return answer === null ? null : { type: "mcp", data: answer };
      }
      case "close": {
        if (connection.episodeId) {
          await connection.episodes.request({ op: "close", episode_id: connection.episodeId });
        }
        this.#connections.delete(connection);
        connection.socket.close(1000, "closed");
        return null;
      }
      default:
        return {
          type: "error",
          // JSON, not String(): a parsed object's own "toString" key makes String() throw.
          data: { message: `Unknown message type: ${JSON.stringify(type)}`, code: "UNKNOWN_TYPE" },
        };
    }
  }
}

/**
 * A WebSocket answer as text. Serialized in a callback nothing awaits, so a throw there would be
 * an unhandled rejection and end the process: an answer JSON.stringify refuses (a final record
 * past 2^29 characters, the token ids of many large steps) is answered as an internal error.
 */
function serializeAnswer(answer: object, mcp: boolean): string {
  try {
    return JSON.stringify(answer);
  } catch (error) {
    const id = (answer as { id?: unknown }).id;
    const failed = failure(
      "internal",
      `The answer could not be sent (${
        error instanceof Error ? error.message : String(error)
      }); with --out, the record is in the output folder`,
    );
    const readable = typeof id === "string" || typeof id === "number" ? id : undefined;
    return JSON.stringify(mcp ? rpcFailure(readable ?? null, failed) : wsError(failed, readable));
  }
}

function isFailure(value: unknown): value is OpenEnvFailure {
  return typeof value === "object" && value !== null && "error" in value && "status" in value;
}

function failed(code: ServeErrorCode, message: string): OpenEnvFailure {
  return withStatus(failure(code, message));
}

function tooLong(bytes: number): OpenEnvFailure {
  return failed(
    "line_too_long",
    `Request of ${bytes} bytes is over the limit (--max-line-bytes); send smaller requests`,
  );
}

/** Routes an observer's token may call. */
const OBSERVE_ROUTES = ["GET /tasks", "GET /state", "GET /metrics"];

/** An HTTP answer: the result, or the error with FastAPI's `detail` and patchgym's `error`. */
function result(value: OpenEnvResult | Record<string, unknown> | OpenEnvFailure): Response {
  if (!isFailure(value)) return json(value);
  const { status, detail, error } = value;
  const retry: Record<string, string> = error.retry_after_s === undefined
    ? {}
    : { "retry-after": String(error.retry_after_s) };
  return json({ detail: detail ?? error.message, error }, status, retry);
}

/** A WebSocket error in OpenEnv's shape, with patchgym's code (and the request's id, if read). */
function wsError(answer: ServeError, id?: string | number): Record<string, unknown> {
  const { code, message } = answer.error;
  return {
    type: "error",
    ...(id === undefined ? {} : { id }),
    error: answer.error,
    data: { message, code: WS_CODES[code] ?? "EXECUTION_ERROR", error_code: code },
  };
}

function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** Names of this machine a page of this server's own origin can have. */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** Whether a listening address (a name or an IP, IPv6 with or without brackets) is loopback. */
function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return name === "localhost" || name === "::1" || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/** Whether a Host header names this machine by a loopback name (none: an HTTP/1.0 client). */
function isLoopbackHost(host: string | null): boolean {
  if (host === null) return true;
  try {
    return isLoopbackName(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}

/**
 * Whether a browser sent the request from a page that is not this server's own on a loopback name.
 * A page of another origin is refused, and so is one of a DNS name that was rebound to this
 * machine (its origin then equals the Host it sends, but its name is not a loopback one).
 */
function crossOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  try {
    const url = new URL(origin);
    return !LOOPBACK_NAMES.includes(url.hostname) || url.host !== request.headers.get("host");
  } catch {
    return true;
  }
}

/** MCP's HTTP session header: the episode id. */
const SESSION_HEADER = "mcp-session-id";

/** Codes that mean an MCP session's episode is gone (HTTP 404, as MCP's transport says). */
const GONE: string[] = ["unknown_episode", "episode_expired"];

/** Reset options from `/mcp`'s query: `task_id`, `seed` (checked by the reset like any other). */
function resetQuery(query: URLSearchParams): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const taskId = query.get("task_id");
  const seed = query.get("seed");
  if (taskId !== null) options.task_id = taskId;
  if (seed !== null) options.seed = /^\d+$/.test(seed) ? Number(seed) : seed;
  return options;
}
