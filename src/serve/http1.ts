/**
 * The HTTP/1.1 server under `serve --http`, on `Deno.listen` (or `Deno.listenTls`) with its own
 * accept loop, because `Deno.serve` owns accept and has no read deadlines: there, an error of
 * `accept()` (EMFILE) ends the process and a connection that never finishes its headers is held
 * forever. Here:
 *
 * - every connection has a deadline: its headers within `headerTimeoutMs` of the first byte (or of
 *   the accept), its body within `bodyTimeoutMs`, and at most `keepAliveMs` idle between requests;
 *   a connection past its deadline is closed;
 * - open connections are capped in total and per peer address (HTTP and WebSocket alike); one over
 *   the cap is answered 503 once its request's head came (a quarter of a second at most) and
 *   closed;
 * - `accept()` errors are logged (once a second at most) and answered by backing off; when the
 *   process is out of file descriptors (EMFILE, ENFILE) the oldest connections still waiting for
 *   their headers are closed first, so a flood of idle connections cannot keep the trainer out.
 *
 * Requests reach the handler as `Request`s; a WebSocket upgrade is answered through
 * `info.upgrade`, whose socket (see websocket.ts) then owns the connection.
 */
import { concat } from "../bytes.ts";
import { ServerWebSocket, writeAll } from "./websocket.ts";

/** Bounds and deadlines of the server. */
export interface ConnectionLimits {
  /** From a connection's accept (or its first byte after an idle gap) to the end of its headers. */
  headerTimeoutMs: number;
  /** From the end of a request's headers to the end of its body. */
  bodyTimeoutMs: number;
  /** Longest idle gap between two requests of one connection. */
  keepAliveMs: number;
  /** Connections open at once, HTTP and WebSocket together. */
  maxConnections: number;
  /** Connections open at once from one peer address. */
  maxPerPeer: number;
  /** Largest request line plus headers. */
  maxHeaderBytes: number;
  /** Largest WebSocket message, assembled. */
  maxMessageBytes: number;
}

/** Defaults of {@linkcode ConnectionLimits}. */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headerTimeoutMs: 10_000,
  bodyTimeoutMs: 60_000,
  keepAliveMs: 30_000,
  maxConnections: 1024,
  maxPerPeer: 256,
  maxHeaderBytes: 32 * 1024,
  maxMessageBytes: 8 * 1024 * 1024,
};

/** What the handler knows of a request's connection. */
export interface ConnInfo {
  /** The peer's IP address. */
  peer: string;
  /** Answer a WebSocket upgrade: the socket, and the response to return from the handler. */
  upgrade(request: Request): { socket: ServerWebSocket; response: Response };
}

/** Answers one request. Should not throw (a throw is answered 500). */
export type Handler = (request: Request, info: ConnInfo) => Promise<Response> | Response;

/** Options of {@linkcode HttpServer.listen}. */
export interface ListenOptions extends Partial<ConnectionLimits> {
  hostname: string;
  port: number;
  /** PEM certificate chain and key: HTTPS and WSS. */
  tls?: { cert: string; key: string };
  /** Where problems are told (default stderr). */
  log?: (line: string) => void;
}

type Phase = "idle" | "head" | "body" | "handler" | "write" | "websocket";

interface Conn {
  conn: Deno.Conn;
  peer: string;
  phase: Phase;
  /** When it was accepted (ms), to shed the oldest first. */
  since: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  closed: boolean;
}

const STATUS_TEXT: Record<number, string> = {
  101: "Switching Protocols",
  200: "OK",
  202: "Accepted",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  413: "Content Too Large",
  422: "Unprocessable Content",
  426: "Upgrade Required",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
};

/** Responses that stand for a WebSocket upgrade, with their socket. */
const UPGRADES = new WeakMap<Response, { socket: ServerWebSocket; accept: string }>();

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A listening HTTP/1.1 server. */
export class HttpServer {
  readonly limits: ConnectionLimits;
  readonly #listener: Deno.Listener;
  readonly #handler: Handler;
  readonly #log: (line: string) => void;
  readonly #conns = new Set<Conn>();
  readonly #perPeer = new Map<string, number>();
  /** Refused connections whose request is read before their 503 (see `refuse`), with their peer. */
  readonly #refusals = new Map<Deno.Conn, string>();
  /** The wait after a failed `accept()`, ms; 0 once one succeeds (refusals then wait again). */
  #backoff = 0;
  readonly #secure: boolean;
  #closing = false;
  #lastLog = -Infinity;
  #suppressed = 0;
  /** Resolves when the accept loop has ended (after {@linkcode close}). */
  readonly finished: Promise<void>;
  /** Errors of `accept()` seen, by code (EMFILE, ...): for tests and `/metrics`. */
  readonly acceptErrors = new Map<string, number>();
  /** Connections refused or closed at the caps or deadlines, by reason. */
  readonly dropped = new Map<string, number>();

  private constructor(listener: Deno.Listener, handler: Handler, options: ListenOptions) {
    const { hostname: _h, port: _p, tls, log, ...limits } = options;
    this.limits = {
      ...DEFAULT_CONNECTION_LIMITS,
      ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
    };
    this.#listener = listener;
    this.#handler = handler;
    this.#secure = tls !== undefined;
    this.#log = log ?? ((line) => console.error(line));
    this.finished = this.#acceptLoop();
  }

  /** Listen on `hostname:port` (port 0: any free one) and serve with `handler`. */
  static listen(options: ListenOptions, handler: Handler): HttpServer {
    const { hostname, port, tls } = options;
    const listener = tls
      ? Deno.listenTls({ hostname, port, cert: tls.cert, key: tls.key })
      : Deno.listen({ hostname, port });
    return new HttpServer(listener, handler, options);
  }

  /** The address listened on. */
  get addr(): Deno.NetAddr {
    return this.#listener.addr as Deno.NetAddr;
  }

  /** Open connections, HTTP and WebSocket. */
  get connections(): number {
    return this.#conns.size;
  }

  /** Stop accepting and close every connection. */
  async close(): Promise<void> {
    this.#closing = true;
    try {
      this.#listener.close();
    } catch {
      // Already closed.
    }
    for (const c of this.#conns) this.#drop(c);
    this.#closeRefusals();
    await this.finished;
  }

  /** Close the refusals still reading their request (they are answered no more). */
  #closeRefusals(): number {
    const n = this.#refusals.size;
    for (const conn of this.#refusals.keys()) closeQuietly(conn);
    this.#refusals.clear();
    return n;
  }

  #note(reason: string): void {
    this.dropped.set(reason, (this.dropped.get(reason) ?? 0) + 1);
  }

  /** Log at most once a second; say how many lines were held back. */
  #warn(line: string): void {
    const now = performance.now();
    if (now - this.#lastLog < 1000) {
      this.#suppressed++;
      return;
    }
    const more = this.#suppressed > 0 ? ` (${this.#suppressed} similar lines held back)` : "";
    this.#suppressed = 0;
    this.#lastLog = now;
    this.#log(`patchgym serve: ${line}${more}`);
  }

  async #acceptLoop(): Promise<void> {
    while (!this.#closing) {
      let conn: Deno.Conn;
      try {
        conn = await this.#listener.accept();
        this.#backoff = 0;
      } catch (error) {
        if (this.#closing || error instanceof Deno.errors.BadResource) break;
        const code = errorCode(error);
        this.acceptErrors.set(code, (this.acceptErrors.get(code) ?? 0) + 1);
        if (code === "EMFILE" || code === "ENFILE") {
          // Out of file descriptors: free some, refusals still reading first, then the oldest
          // connections idle before their headers.
          const shed = this.#closeRefusals() +
            this.#shed(Math.max(8, Math.ceil(this.#conns.size / 16)));
          this.#warn(
            `accept() failed (${code}: ${
              (error as Error).message
            }); closed ${shed} connection(s) that had not sent their headers, backing off`,
          );
        } else {
          this.#warn(`accept() failed (${code}: ${(error as Error).message}); backing off`);
        }
        this.#backoff = Math.min(this.#backoff === 0 ? 10 : this.#backoff * 2, 1000);
        await new Promise((resolve) => setTimeout(resolve, this.#backoff));
        continue;
      }
      this.#admit(conn);
    }
  }

  /** Close up to `n` of the oldest connections still waiting for a request's headers. */
  #shed(n: number, idleFirst = false): number {
    const rank = (c: Conn) => idleFirst && c.phase === "idle" ? 0 : 1;
    const waiting = [...this.#conns].filter((c) => c.phase === "head" || c.phase === "idle")
      .sort((a, b) => rank(a) - rank(b) || a.since - b.since);
    for (const c of waiting.slice(0, n)) {
      this.#note("shed");
      this.#drop(c);
    }
    return Math.min(n, waiting.length);
  }

  #admit(conn: Deno.Conn): void {
    const peer = peerKey((conn.remoteAddr as Deno.NetAddr).hostname ?? "unknown");
    const fromPeer = this.#perPeer.get(peer) ?? 0;
    if (this.#conns.size >= this.limits.maxConnections && fromPeer < this.limits.maxPerPeer) {
      // Full: make room by closing the connection longest idle between requests (or waiting for
      // its headers), which costs its client a reconnect; so clients that only hold connections
      // (keep-alive, never sending) cannot keep out one that has a request to make.
      this.#shed(1, true);
    }
    if (this.#conns.size >= this.limits.maxConnections || fromPeer >= this.limits.maxPerPeer) {
      const total = this.#conns.size >= this.limits.maxConnections;
      this.#note(total ? "max_connections" : "max_per_peer");
      this.#warn(
        total
          ? `refused a connection from ${peer}: ${this.#conns.size} are open, the limit (--max-connections)`
          : `refused a connection from ${peer}: it has ${fromPeer} open, the limit (--max-connections-per-peer)`,
      );
      // A flood past the cap is answered at once: only so many refusals, and so many a peer,
      // wait for their request, and none while file descriptors run out.
      let fromPeerRefused = 0;
      for (const p of this.#refusals.values()) if (p === peer) fromPeerRefused++;
      const patient = this.#backoff === 0 && this.#refusals.size < PATIENT_REFUSALS &&
        fromPeerRefused < PATIENT_REFUSALS_PER_PEER;
      if (patient) this.#refusals.set(conn, peer);
      void refuse(conn, patient ? this.limits.maxHeaderBytes : null).finally(() => {
        this.#refusals.delete(conn);
      });
      return;
    }
    const c: Conn = {
      conn,
      peer,
      phase: "head",
      since: performance.now(),
      timer: undefined,
      closed: false,
    };
    this.#conns.add(c);
    this.#perPeer.set(peer, fromPeer + 1);
    void this.#serve(c).catch(() => {}).finally(() => this.#drop(c));
  }

  #drop(c: Conn): void {
    clearTimeout(c.timer);
    if (c.closed) return;
    c.closed = true;
    closeQuietly(c.conn);
    if (this.#conns.delete(c)) {
      const n = (this.#perPeer.get(c.peer) ?? 1) - 1;
      if (n <= 0) this.#perPeer.delete(c.peer);
      else this.#perPeer.set(c.peer, n);
    }
  }

  /** Close `c` unless `clear` is called within `ms`. */
  #deadline(c: Conn, ms: number, reason: string): void {
    clearTimeout(c.timer);
    c.timer = setTimeout(() => {
      this.#note(reason);
      this.#drop(c);
    }, ms);
  }

  async #serve(c: Conn): Promise<void> {
    const reader = new ConnReader(c.conn);
    let first = true;
    while (!c.closed) {
      // Idle between requests (keep-alive), then the headers' own deadline from the first byte.
      if (!first) {
        c.phase = "idle";
        this.#deadline(c, this.limits.keepAliveMs, "keep_alive_timeout");
        if (reader.buffered === 0 && !await reader.fill()) return;
      }
      first = false;
      c.phase = "head";
      this.#deadline(c, this.limits.headerTimeoutMs, "header_timeout");
      const head = await readHead(reader, this.limits.maxHeaderBytes);
      if (head === null) return;
      if ("error" in head) {
        clearTimeout(c.timer);
        await writeAll(c.conn, simpleResponse(head.status, head.error));
        return;
      }
      c.phase = "body";
      const body = new BodyReader(reader, head, () => {
        if (body.started) return;
        body.started = true;
        if (head.expectContinue) {
          // Not awaited, so caught here: a peer gone already (a broken pipe) must not become an
          // unhandled rejection, which would end the process.
          writeAll(c.conn, encoder.encode("HTTP/1.1 100 Continue\r\n\r\n"))
            .catch(() => this.#drop(c));
        }
        this.#deadline(c, this.limits.bodyTimeoutMs, "body_timeout");
      }, () => {
        // The body is in: the deadline was the body's, never the handler's (a step may run long).
        if (c.phase === "body" || c.phase === "handler") clearTimeout(c.timer);
      });
      let request: Request;
      try {
        request = toRequest(head, body, this.#secure, this.addr);
      } catch (error) {
        clearTimeout(c.timer);
        await writeAll(c.conn, simpleResponse(400, `Bad request: ${(error as Error).message}`));
        return;
      }
      clearTimeout(c.timer);
      const info: ConnInfo = {
        peer: c.peer,
        upgrade: (req) => {
          const key = req.headers.get("sec-websocket-key");
          if (req.headers.get("upgrade")?.toLowerCase() !== "websocket" || !key) {
            throw new TypeError("Invalid WebSocket upgrade: missing Upgrade or Sec-WebSocket-Key");
          }
          if (req.headers.get("sec-websocket-version") !== "13") {
            throw new TypeError("Invalid WebSocket upgrade: Sec-WebSocket-Version must be 13");
          }
          const socket = new ServerWebSocket(this.limits.maxMessageBytes);
          const response = new Response(null, { status: 200 });
          UPGRADES.set(response, { socket, accept: key });
          return { socket, response };
        },
      };
      c.phase = "handler";
      let response: Response;
      try {
        response = await this.#handler(request, info);
      } catch (error) {
        response = new Response(
          JSON.stringify({ detail: `Internal error: ${(error as Error).message}` }),
          { status: 500, headers: { "content-type": "application/json" } },
        );
      }
      clearTimeout(c.timer);
      const upgraded = UPGRADES.get(response);
      if (c.closed) {
        upgraded?.socket.abandon();
        return;
      }
      if (upgraded) {
        c.phase = "websocket";
        try {
          const accept = await acceptKey(upgraded.accept);
          await writeAll(
            c.conn,
            encoder.encode(
              "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
                `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
            ),
          );
        } catch (error) {
          // The peer is gone: the socket never runs, and whoever counted it open must hear so.
          upgraded.socket.abandon();
          throw error;
        }
        await upgraded.socket.run(c.conn, reader.take());
        return;
      }
      c.phase = "write";
      const keepAlive = head.keepAlive && body.done && !c.closed &&
        response.headers.get("connection")?.toLowerCase() !== "close";
      const bytes = await serialize(response, head.method === "HEAD", keepAlive);
      // A client that never reads its answer must not hold the connection either.
      this.#deadline(c, this.limits.bodyTimeoutMs, "write_timeout");
      await writeAll(c.conn, bytes);
      clearTimeout(c.timer);
      if (!keepAlive) return;
    }
  }
}

/**
 * The address a connection counts against for the per-peer cap: an IPv4 address as is (an
 * IPv4-mapped IPv6 one as its IPv4 address), an IPv6 one by its /64, the smallest block one
 * subscriber is given, so one host cannot take a new per-peer allowance with each of its 2^64
 * addresses.
 */
export function peerKey(address: string): string {
  const name = address.toLowerCase().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!name.includes(":")) return name;
  const mapped = /^(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(name) ??
    /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(name);
  if (mapped) return mapped[1];
  const [head, tail] = name.split("::", 2);
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const groups = tail === undefined
    ? left
    : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  if (groups.length !== 8) return name;
  return `${groups.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16)).join(":")}::/64`;
}

/** The code of an I/O error (`EMFILE`, ...), from its message when Deno gives no code. */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  const message = error instanceof Error ? error.message : String(error);
  if (/too many open files/i.test(message)) return /system/i.test(message) ? "ENFILE" : "EMFILE";
  if (/os error 24\b/.test(message)) return "EMFILE";
  if (/os error 23\b/.test(message)) return "ENFILE";
  if (/aborted/i.test(message)) return "ECONNABORTED";
  return error instanceof Error ? error.name : "unknown";
}

/** How long a refused connection has to send its request's head before its 503 goes anyway. */
const REFUSE_HEAD_MS = 250;
/** How long a refused connection is kept at most, its answer and what follows its request read. */
const REFUSE_MS = 1_250;
/** Refusals at once that wait for their request; past them a 503 is written at the accept. */
const PATIENT_REFUSALS = 64;
/** Of them, from one peer. */
const PATIENT_REFUSALS_PER_PEER = 8;
/** Bytes of a refused connection read at most (its request's head and body), then it is closed. */
const REFUSE_READ_BYTES = 4 * 1024 * 1024;

/**
 * Answer 503 and close. Unless `maxHeaderBytes` is null (a flood), the request's head is read first
 * (what of it comes within {@linkcode REFUSE_HEAD_MS}): a 503 written at the accept can reach a
 * client before it sent its request, which HTTP clients take for a broken connection, not a 503
 * (hyper: "received unexpected message from connection"). After the answer, the sending side is
 * shut and what the client still sends (a body, {@linkcode REFUSE_READ_BYTES} in all at most) is
 * read and dropped until it closes: a close with unread data is a reset, which can drop the answer
 * before the client reads it.
 */
async function refuse(conn: Deno.Conn, maxHeaderBytes: number | null): Promise<void> {
  const timer = setTimeout(() => closeQuietly(conn), REFUSE_MS);
  try {
    const reader = new ConnReader(conn);
    let head: Promise<unknown> = Promise.resolve();
    if (maxHeaderBytes !== null) {
      let wait: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => wait = setTimeout(resolve, REFUSE_HEAD_MS));
      head = (async () => {
        let from = 0;
        while (reader.buffered <= maxHeaderBytes && indexOfCrlfCrlf(reader.bytes, from) < 0) {
          from = Math.max(0, reader.buffered - 3);
          if (!await reader.fill()) return;
        }
      })();
      await Promise.race([head, late]);
      clearTimeout(wait);
    }
    await writeAll(
      conn,
      simpleResponse(503, "Too many connections; retry later", { "retry-after": "1" }),
    );
    if (maxHeaderBytes !== null) {
      await conn.closeWrite();
      // One read at a time: the head's, then the rest, dropped, until the client closes, the
      // timer closes this end, or REFUSE_READ_BYTES came.
      await head;
      let read = reader.buffered;
      const sink = new Uint8Array(64 * 1024);
      while (read < REFUSE_READ_BYTES) {
        const n = await conn.read(sink);
        if (n === null) break;
        read += n;
      }
    }
  } catch {
    // The peer is gone, or the timer closed the connection.
  } finally {
    clearTimeout(timer);
    closeQuietly(conn);
  }
}

/** Close `conn`; closing one already closed is fine. */
function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}

async function acceptKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-1",
    encoder.encode(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`),
  );
  let binary = "";
  for (const b of new Uint8Array(digest)) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * Bytes of a connection, read as needed. Buffered bytes live in one buffer that grows by doubling
 * and is consumed by moving a start offset: consuming copies only the bytes taken, and a read
 * appends in place, so many small requests, chunks or reads cost their length, not its square.
 */
export class ConnReader {
  readonly #conn: Deno.Conn;
  #buf = new Uint8Array(16 * 1024);
  #start = 0;
  #end = 0;
  #eof = false;

  constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }

  get buffered(): number {
    return this.#end - this.#start;
  }

  /** The buffered bytes (a view: valid until the next fill or consume). */
  get bytes(): Uint8Array {
    return this.#buf.subarray(this.#start, this.#end);
  }

  /** Read more; false at the end of the stream (or when the connection was closed). */
  async fill(): Promise<boolean> {
    if (this.#eof) return false;
    const want = 16 * 1024;
    if (this.#buf.length - this.#end < want) {
      // Room for a read: move what is left to the front when that copies no more than it frees
      // (so each byte is moved a bounded number of times), else into a buffer twice as large.
      const left = this.#end - this.#start;
      if (this.#start >= left && left + want <= this.#buf.length) {
        this.#buf.copyWithin(0, this.#start, this.#end);
      } else {
        const next = new Uint8Array(Math.max(2 * this.#buf.length, left + want));
        next.set(this.#buf.subarray(this.#start, this.#end));
        this.#buf = next;
      }
      this.#start = 0;
      this.#end = left;
    }
    let n: number | null;
    try {
      n = await this.#conn.read(this.#buf.subarray(this.#end));
    } catch {
      n = null;
    }
    if (n === null) {
      this.#eof = true;
      return false;
    }
    this.#end += n;
    return true;
  }

  /** Remove and answer the first `n` buffered bytes. */
  consume(n: number): Uint8Array {
    const out = this.#buf.slice(this.#start, this.#start + n);
    this.skip(n);
    return out;
  }

  /** Remove the first `n` buffered bytes. */
  skip(n: number): void {
    this.#start += n;
    if (this.#start === this.#end) this.#start = this.#end = 0;
  }

  /** Everything buffered, removed. */
  take(): Uint8Array {
    return this.consume(this.buffered);
  }
}

interface Head {
  method: string;
  target: string;
  version: string;
  headers: [string, string][];
  keepAlive: boolean;
  contentLength: number | null;
  chunked: boolean;
  expectContinue: boolean;
}

/** The request line and headers; null when the peer went away; an error to answer. */
async function readHead(
  reader: ConnReader,
  maxBytes: number,
): Promise<Head | { status: number; error: string } | null> {
  let end = -1;
  let from = 0;
  while (true) {
    // Clients may send blank lines before a request (RFC 9112 2.2).
    while (reader.buffered >= 2 && reader.bytes[0] === 13 && reader.bytes[1] === 10) {
      reader.consume(2);
    }
    end = indexOfCrlfCrlf(reader.bytes, from);
    if (end >= 0) break;
    from = Math.max(0, reader.buffered - 3);
    if (reader.buffered > maxBytes) {
      return { status: 431, error: `Request headers over ${maxBytes} bytes` };
    }
    if (!await reader.fill()) return null;
  }
  if (end > maxBytes) return { status: 431, error: `Request headers over ${maxBytes} bytes` };
  const text = decoder.decode(reader.consume(end + 4)).slice(0, end);
  const [line, ...fields] = text.split("\r\n");
  const match = /^([A-Z]+) (\S+) HTTP\/(1\.[01])$/.exec(line);
  if (!match) return { status: 400, error: "Malformed request line" };
  const headers: [string, string][] = [];
  for (const field of fields) {
    const colon = field.indexOf(":");
    // RFC 9110 5.1, 5.5: a name is a token; a value is visible characters, spaces and tabs, with
    // only spaces and tabs trimmed. Anything else (a vertical tab, a bare CR) is read differently
    // by different parsers, so a proxy in front might frame the request otherwise: refused.
    const value = field.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, "");
    if (colon <= 0 || !TOKEN.test(field.slice(0, colon)) || FIELD_VALUE_BAD.test(value)) {
      return { status: 400, error: "Malformed header line" };
    }
    headers.push([field.slice(0, colon).toLowerCase(), value]);
  }
  const get = (name: string) => headers.filter(([k]) => k === name).map(([, v]) => v);
  const connection = get("connection").join(",").toLowerCase();
  const version = match[3];
  const lengths = get("content-length");
  // Transfer codings: only "chunked", once, and only on HTTP/1.1 (RFC 9112 6.1). Any other
  // coding, or chunked not last, leaves the body's end to guesswork: a proxy in front and this
  // server could then disagree on where the next request starts (request smuggling).
  const codings = get("transfer-encoding");
  if (codings.length > 0) {
    const list = codings.join(",").split(",").map((c) => c.replace(/^[ \t]+|[ \t]+$/g, ""))
      .filter((c) => c !== "");
    if (version !== "1.1" || list.length !== 1 || list[0].toLowerCase() !== "chunked") {
      return {
        status: 501,
        error: "Unsupported Transfer-Encoding: send chunked or Content-Length",
      };
    }
  }
  const chunked = codings.length > 0;
  let contentLength: number | null = null;
  if (lengths.length > 0) {
    if (chunked) return { status: 400, error: "Both Content-Length and chunked encoding" };
    const values = new Set(lengths.flatMap((v) => v.split(",").map((s) => s.trim())));
    const [only] = values;
    if (values.size !== 1 || !/^\d{1,15}$/.test(only)) {
      return { status: 400, error: "Invalid Content-Length" };
    }
    contentLength = Number(only);
  }
  return {
    method: match[1],
    target: match[2],
    version,
    headers,
    keepAlive: version === "1.1"
      ? !/\bclose\b/.test(connection)
      : /\bkeep-alive\b/.test(connection),
    contentLength,
    chunked,
    expectContinue: get("expect").join(",").toLowerCase().includes("100-continue"),
  };
}

/** A header name (RFC 9110 5.6.2). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** What a header value may not hold: control characters but tab, and DEL. */
// deno-lint-ignore no-control-regex
const FIELD_VALUE_BAD = /[\x00-\x08\x0a-\x1f\x7f]/;

function indexOfCrlfCrlf(bytes: Uint8Array, from: number): number {
  for (let i = from; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) {
      return i;
    }
  }
  return -1;
}

/** Longest chunk-size or trailer line, without its CRLF. */
const MAX_CHUNK_LINE = 4096;

/** Most bytes of a chunked body handed over as one part. */
const CHUNKED_PART_BYTES = 64 * 1024;

/** A request body read from the connection as the handler pulls it (length or chunked). */
class BodyReader {
  readonly #reader: ConnReader;
  readonly #head: Head;
  readonly #onStart: () => void;
  readonly #onEnd: () => void;
  started = false;
  done: boolean;
  #left: number;
  #chunkLeft = 0;

  constructor(reader: ConnReader, head: Head, onStart: () => void, onEnd: () => void) {
    this.#reader = reader;
    this.#head = head;
    this.#onStart = onStart;
    this.#onEnd = onEnd;
    this.#left = head.contentLength ?? 0;
    this.done = !head.chunked && this.#left === 0;
  }

  /** The next bytes of the body; null at its end. Throws on a malformed or cut body. */
  async next(): Promise<Uint8Array | null> {
    if (this.done) return null;
    this.#onStart();
    if (!this.#head.chunked) {
      if (this.#reader.buffered === 0 && !await this.#reader.fill()) {
        throw new Error("Connection closed before the end of the body");
      }
      const part = this.#reader.consume(Math.min(this.#left, this.#reader.buffered));
      this.#left -= part.length;
      if (this.#left === 0) this.#end();
      return part;
    }
    // As many chunks as are buffered (up to 64 KiB) in one part: a body of one-byte chunks must
    // not reach the handler as one part (one object it holds) per byte.
    const parts: Uint8Array[] = [];
    let total = 0;
    do {
      if (this.#chunkLeft === 0) {
        const line = this.#bufferedLine() ?? await this.#line();
        const size = parseInt(line.split(";")[0].trim(), 16);
        if (!/^[0-9a-fA-F]+$/.test(line.split(";")[0].trim()) || !Number.isSafeInteger(size)) {
          throw new Error("Malformed chunk size");
        }
        if (size === 0) {
          // Trailers, up to the blank line.
          while ((await this.#line()) !== "");
          this.#end();
          break;
        }
        this.#chunkLeft = size;
      }
      if (this.#reader.buffered === 0 && !await this.#reader.fill()) {
        throw new Error("Connection closed before the end of the body");
      }
      const part = this.#reader.consume(Math.min(this.#chunkLeft, this.#reader.buffered));
      this.#chunkLeft -= part.length;
      parts.push(part);
      total += part.length;
      if (this.#chunkLeft === 0) {
        const crlf = this.#bufferedLine() ?? await this.#line();
        if (crlf !== "") throw new Error("Malformed chunk end");
      }
    } while (this.#reader.buffered > 0 && total < CHUNKED_PART_BYTES);
    if (total === 0 && this.done) return null;
    return concat(parts, total);
  }

  #end(): void {
    this.done = true;
    this.#onEnd();
  }

  /** The next line (without its CRLF), reading more as needed. */
  async #line(): Promise<string> {
    while (true) {
      const line = this.#bufferedLine();
      if (line !== null) return line;
      if (!await this.#reader.fill()) throw new Error("Connection closed in a chunked body");
    }
  }

  /** The next line when it is buffered whole, else null (without a turn of the event loop). */
  #bufferedLine(): string | null {
    const bytes = this.#reader.bytes;
    const scan = Math.min(bytes.length, MAX_CHUNK_LINE + 2);
    for (let i = 0; i + 1 < scan; i++) {
      if (bytes[i] === 13 && bytes[i + 1] === 10) {
        // Chunk sizes and trailers: only their ASCII matters (a size, an empty line).
        const line = String.fromCharCode(...bytes.subarray(0, i));
        this.#reader.skip(i + 2);
        return line;
      }
    }
    if (bytes.length >= MAX_CHUNK_LINE + 2) throw new Error("Chunk line too long");
    return null;
  }
}

/**
 * A Host header's value: a name or address (IPv6 in brackets), not empty (an empty one made the
 * target's first segment the host), and an optional port.
 */
const HOST_RE = /^(?:\[[0-9A-Fa-f:.]+(?:%25[\w.~-]+)?\]|[\w.~%!$&'()*+,;=-]+)(?::\d*)?$/;

function toRequest(head: Head, body: BodyReader, secure: boolean, addr: Deno.NetAddr): Request {
  const headers = new Headers();
  for (const [k, v] of head.headers) headers.append(k, v);
  const host = headers.get("host") ?? `${addr.hostname}:${addr.port}`;
  // The URL is the Host and the target glued together: a Host holding "/", "?", "#", "@" or "\\"
  // would change the path the request is routed by ("127.0.0.1/metrics?" made GET /health one of
  // /metrics). Only host[:port] is taken.
  if (!HOST_RE.test(host)) throw new Error("Malformed Host header");
  const target = head.target.startsWith("/") ? head.target : new URL(head.target).pathname;
  const url = new URL(`${secure ? "https" : "http"}://${host}${target}`);
  const hasBody = head.method !== "GET" && head.method !== "HEAD";
  let cancelled = false;
  const stream = hasBody
    ? new ReadableStream<Uint8Array>({
      async pull(controller) {
        let part: Uint8Array | null;
        try {
          part = await body.next();
        } catch (error) {
          if (!cancelled) controller.error(error);
          return;
        }
        // The handler may have cancelled the body while this read waited.
        if (cancelled) return;
        if (part === null) controller.close();
        else controller.enqueue(part);
      },
      cancel() {
        cancelled = true;
      },
    }, { highWaterMark: 0 })
    : null;
  return new Request(
    url,
    { method: head.method, headers, body: stream, duplex: "half" } as RequestInit,
  );
}

async function serialize(response: Response, headOnly: boolean, keepAlive: boolean) {
  const body = new Uint8Array(await response.arrayBuffer());
  const status = response.status;
  let head = `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Status"}\r\n`;
  for (const [k, v] of response.headers) {
    if (k === "content-length" || k === "connection" || k === "transfer-encoding") continue;
    head += `${k}: ${v}\r\n`;
  }
  if (status !== 204) head += `content-length: ${body.length}\r\n`;
  head += `connection: ${keepAlive ? "keep-alive" : "close"}\r\n\r\n`;
  const headBytes = encoder.encode(head);
  if (headOnly || status === 204) return headBytes;
  const out = new Uint8Array(headBytes.length + body.length);
  out.set(headBytes);
  out.set(body, headBytes.length);
  return out;
}

function simpleResponse(
  status: number,
  detail: string,
  headers: Record<string, string> = {},
): Uint8Array {
  const body = JSON.stringify({ detail });
  let head = `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Status"}\r\n` +
    `content-type: application/json\r\ncontent-length: ${encoder.encode(body).length}\r\n`;
  for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
  return encoder.encode(`${head}connection: close\r\n\r\n${body}`);
}
