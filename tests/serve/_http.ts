/** A real `serve --http` front on a free port, and HTTP and WebSocket clients for its tests. */
import { fileURLToPath } from "node:url";
import { Environment } from "../../src/agent/environment.ts";
import type { Auth } from "../../src/serve/auth.ts";
import { HttpFront } from "../../src/serve/http.ts";
import { type ConnectionLimits, HttpServer } from "../../src/serve/http1.ts";
import { EpisodeServer } from "../../src/serve/server.ts";

/** The bundled tasks. */
export const TASKS_DIR = fileURLToPath(new URL("../../tasks", import.meta.url));
/** Parsed JSON answers, read loosely: the tests check the fields they name. */
// deno-lint-ignore no-explicit-any
export type Json = any;

/** The reference patch of py-median-even. */
export const SOLUTION = Deno.readTextFileSync(`${TASKS_DIR}/py-median-even/solution.patch`);

/** A running front and what tests reach into: its server and its clock. */
export interface Served {
  url: string;
  front: HttpFront;
  server: EpisodeServer;
  http: HttpServer;
  clock: { ms: number };
}

/** A real HTTP server on a free port over the bundled tasks; everything is gone afterwards. */
export async function withHttp(
  limits: {
    maxBodyBytes?: number;
    maxConnections?: number;
    idleTimeoutMs?: number;
    maxPendingBytes?: number;
    /** The core's: episodes open at once and their idle timeout (default: never idle). */
    maxEpisodes?: number;
    episodeIdleMs?: number;
    /** Tokens (default: none needed). */
    auth?: Auth;
    /** The connection layer's (http1.ts). */
    connections?: Partial<ConnectionLimits>;
  },
  fn: (served: Served) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "patchgym-http-" });
  const clock = { ms: 0 };
  const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot: root });
  const server = new EpisodeServer(env, {
    now: () => clock.ms,
    idleTimeoutMs: limits.episodeIdleMs ?? 0,
    maxEpisodes: limits.maxEpisodes,
  });
  const front = new HttpFront(server, {
    maxBodyBytes: limits.maxBodyBytes ?? 1024 * 1024,
    maxConnections: limits.maxConnections ?? 8,
    idleTimeoutMs: limits.idleTimeoutMs ?? 0,
    maxPendingBytes: limits.maxPendingBytes,
    hostname: "127.0.0.1",
    now: () => clock.ms,
    auth: limits.auth,
  });
  const http = HttpServer.listen({
    hostname: "127.0.0.1",
    port: 0,
    maxMessageBytes: 2 * (limits.maxBodyBytes ?? 1024 * 1024) + 65536,
    ...limits.connections,
  }, front.handler);
  try {
    await fn({ url: `http://127.0.0.1:${http.addr.port}`, front, server, clock, http });
  } finally {
    front.closeAll();
    await http.close();
    await server.closeAll();
    await Deno.remove(root, { recursive: true });
  }
}

/** An assistant message with one tool call. */
export function call(name: string, args: Record<string, unknown>, id = `c_${name}`) {
  return {
    role: "assistant",
    content: null,
    tool_calls: [{ id, type: "function", function: { name, arguments: args } }],
  };
}

/** POST `body` (JSON, or a string as is) and read the JSON answer. */
export async function post(url: string, body: unknown): Promise<{ status: number; json: Json }> {
  const response = await fetch(url, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/** A WebSocket whose answers are read in order. */
export async function socket(url: string, path = "/ws") {
  const ws = new WebSocket(`${url.replace("http", "ws")}${path}`);
  const inbox: string[] = [];
  const waiting: ((text: string) => void)[] = [];
  const closed = new Promise<CloseEvent>((resolve) => ws.onclose = resolve);
  ws.onmessage = (event) => {
    const wake = waiting.shift();
    if (wake) wake(event.data);
    else inbox.push(event.data);
  };
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const next = () =>
    new Promise<Json>((resolve) => {
      const text = inbox.shift();
      if (text !== undefined) resolve(JSON.parse(text));
      else waiting.push((t) => resolve(JSON.parse(t)));
    });
  return {
    ws,
    closed,
    next,
    async ask(message: unknown) {
      ws.send(typeof message === "string" ? message : JSON.stringify(message));
      return await next();
    },
  };
}
