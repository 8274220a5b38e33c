/**
 * The server side of a WebSocket (RFC 6455) on a connection of http1.ts, with the part of the
 * browser `WebSocket` interface the HTTP front uses: `send`, `close`, `readyState` and the `onopen`,
 * `onmessage` and `onclose` handlers. Client frames must be masked; a message is capped in size
 * (close 1009); text must be UTF-8 (close 1007); pings are answered. No extensions are offered, so
 * a client asking for compression (permessage-deflate) gets plain frames, as RFC 6455 allows.
 */

import { concat } from "../bytes.ts";

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

/**
 * Bytes queued to send past which the socket reads no more frames until they are written: a peer
 * that sends pings or requests but never reads the answers must not grow the server's memory.
 */
export const WRITE_HIGH_WATER = 1 << 20;

/** How long a failed connection may take to send its close frame before it is cut. */
const CLOSE_FLUSH_MS = 2000;

const utf8 = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/** A server-side WebSocket. */
export class ServerWebSocket {
  readonly #maxMessageBytes: number;
  #conn: Deno.Conn | undefined;
  #state = CONNECTING;
  /** Bytes read and not yet consumed: `#buf` from `#start` on (consumed by moving `#start`). */
  #buf: Uint8Array = new Uint8Array(0);
  #start = 0;
  readonly #scratch = new Uint8Array(64 * 1024);
  #writing: Promise<void> = Promise.resolve();
  /** Bytes passed to `#write` not yet written. */
  #queued = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: { data: string | Uint8Array }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  #closeEvent = { code: 1006, reason: "" };
  #ended = false;

  constructor(maxMessageBytes: number) {
    this.#maxMessageBytes = maxMessageBytes;
  }

  /** 0 connecting, 1 open, 2 closing, 3 closed (as `WebSocket`). */
  get readyState(): number {
    return this.#state;
  }

  /** Send a text message (dropped unless open). */
  send(text: string): void {
    if (this.#state !== OPEN) return;
    this.#write(frame(1, encoder.encode(text)));
  }

  /** Start the closing handshake; the connection ends when the peer answers (or at once on error). */
  close(code = 1000, reason = ""): void {
    if (this.#state >= CLOSING) return;
    if (this.#state === CONNECTING) {
      this.#state = CLOSED;
      return;
    }
    this.#state = CLOSING;
    this.#closeEvent = { code, reason };
    const reasonBytes = encoder.encode(reason).subarray(0, 123);
    const payload = new Uint8Array(2 + reasonBytes.length);
    payload[0] = code >> 8;
    payload[1] = code & 0xff;
    payload.set(reasonBytes, 2);
    this.#write(frame(8, payload));
    // A peer that never answers the close: end the connection shortly after.
    const timer = setTimeout(() => this.#end(), 2000);
    Deno.unrefTimer(timer);
  }

  #write(bytes: Uint8Array): void {
    const conn = this.#conn;
    if (!conn) return;
    this.#queued += bytes.length;
    this.#writing = this.#writing
      // Once ended, what is still queued is dropped unwritten.
      .then(() => this.#state === CLOSED ? undefined : writeAll(conn, bytes))
      .catch(() => this.#end())
      .finally(() => this.#queued -= bytes.length);
  }

  /**
   * End the socket that will never run (its 101 answer could not be written): closed, and
   * `onclose` told, as for any socket that ends, so that whoever counted it open counts it no more.
   */
  abandon(): void {
    this.#end();
  }

  /** Closed for good; `onclose` is told once, whether or not the socket ever ran. */
  #end(): void {
    this.#state = CLOSED;
    if (this.#ended) return;
    this.#ended = true;
    try {
      this.#conn?.close();
    } catch {
      // Closed.
    }
    this.onclose?.(this.#closeEvent);
  }

  /** Own `conn` (after the 101 answer; `leftover` are bytes already read) until it closes. */
  async run(conn: Deno.Conn, leftover: Uint8Array): Promise<void> {
    this.#conn = conn;
    this.#buf = leftover;
    this.#start = 0;
    if (this.#state === CLOSED) {
      this.#end();
      return;
    }
    this.#state = OPEN;
    this.onopen?.(new Event("open"));
    // The message being assembled, in one buffer: a fragment costs its bytes, never an object of
    // its own (a flood of empty fragments held one part each, under a cap that counts bytes).
    const message = new Assembly();
    let messageOpcode = 0;
    try {
      while (this.#state !== CLOSED) {
        // Backpressure: the peer reads its answers before it may send more.
        while (this.#queued > WRITE_HIGH_WATER && this.#state !== CLOSED) await this.#writing;
        if (this.#state === CLOSED) break;
        const f = await this.#readFrame();
        if (f === null) break;
        if ("error" in f) {
          this.#fail(f.code, f.error);
          break;
        }
        const { fin, opcode, payload } = f;
        if (opcode >= 8) {
          if (opcode === 9) this.#write(frame(10, payload));
          else if (opcode === 8) {
            const code = payload.length >= 2 ? (payload[0] << 8) | payload[1] : 1005;
            if (this.#state === OPEN) {
              this.#closeEvent = { code, reason: "" };
              this.#state = CLOSING;
              this.#write(frame(8, payload.subarray(0, 2)));
            }
            await this.#writing;
            break;
          }
          continue;
        }
        if (opcode !== 0) {
          if (message.open) {
            this.#fail(1002, "new message before the end of the last");
            break;
          }
          messageOpcode = opcode;
        } else if (!message.open) {
          this.#fail(1002, "continuation without a message");
          break;
        }
        if (message.length + payload.length > this.#maxMessageBytes) {
          this.#fail(1009, "message too big");
          break;
        }
        let whole: Uint8Array;
        if (fin && !message.open) whole = payload;
        else {
          message.append(payload);
          if (!fin) continue;
          whole = message.take();
        }
        if (messageOpcode === 1) {
          let text: string;
          try {
            text = utf8.decode(whole);
          } catch {
            this.#fail(1007, "text is not UTF-8");
            break;
          }
          this.onmessage?.({ data: text });
        } else {
          this.onmessage?.({ data: whole });
        }
      }
    } finally {
      // Send the close frame (and answers before it) when the peer reads, for at most a moment.
      if (this.#state === CLOSING) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          this.#writing,
          new Promise((resolve) => timer = setTimeout(resolve, CLOSE_FLUSH_MS)),
        ]);
        clearTimeout(timer);
      }
      this.#end();
    }
  }

  #fail(code: number, reason: string): void {
    if (this.#state === OPEN) {
      this.#closeEvent = { code, reason };
      this.#state = CLOSING;
      const reasonBytes = encoder.encode(reason);
      const payload = new Uint8Array(2 + reasonBytes.length);
      payload[0] = code >> 8;
      payload[1] = code & 0xff;
      payload.set(reasonBytes, 2);
      this.#write(frame(8, payload));
    }
  }

  /**
   * Buffer at least `n` bytes. Reads go into one reused scratch buffer and are joined once `n`
   * are in: a frame trickled in byte by byte costs its length, not its length squared (nor a large
   * allocation per read).
   */
  async #need(n: number): Promise<boolean> {
    if (this.#buf.length - this.#start >= n) return true;
    const parts: Uint8Array[] = [this.#buf.subarray(this.#start)];
    let total = this.#buf.length - this.#start;
    let ok = true;
    while (total < n) {
      let read: number | null;
      try {
        read = await this.#conn!.read(this.#scratch);
      } catch {
        read = null;
      }
      if (read === null) {
        ok = false;
        break;
      }
      parts.push(this.#scratch.slice(0, read));
      total += read;
    }
    this.#buf = concat(parts, total);
    this.#start = 0;
    return ok;
  }

  /**
   * Remove and answer the next `n` buffered bytes (a copy of those only: what follows stays where
   * it is, so many small frames read at once cost their length, not their number times it).
   */
  #consume(n: number): Uint8Array {
    const out = this.#buf.slice(this.#start, this.#start + n);
    this.#start += n;
    return out;
  }

  async #readFrame(): Promise<
    { fin: boolean; opcode: number; payload: Uint8Array } | { code: number; error: string } | null
  > {
    if (!await this.#need(2)) return null;
    const b0 = this.#buf[this.#start];
    const b1 = this.#buf[this.#start + 1];
    const fin = (b0 & 0x80) !== 0;
    const opcode = b0 & 0x0f;
    if ((b0 & 0x70) !== 0) return { code: 1002, error: "reserved bits set" };
    if (![0, 1, 2, 8, 9, 10].includes(opcode)) return { code: 1002, error: "unknown opcode" };
    if ((b1 & 0x80) === 0) return { code: 1002, error: "client frames must be masked" };
    let length = b1 & 0x7f;
    let at = 2;
    if (length === 126) {
      if (!await this.#need(4)) return null;
      length = (this.#buf[this.#start + 2] << 8) | this.#buf[this.#start + 3];
      at = 4;
    } else if (length === 127) {
      if (!await this.#need(10)) return null;
      const view = new DataView(this.#buf.buffer, this.#buf.byteOffset + this.#start + 2, 8);
      const big = view.getBigUint64(0);
      if (big > BigInt(this.#maxMessageBytes)) return { code: 1009, error: "message too big" };
      length = Number(big);
      at = 10;
    }
    if (opcode >= 8 && (length > 125 || !fin)) return { code: 1002, error: "bad control frame" };
    if (length > this.#maxMessageBytes) return { code: 1009, error: "message too big" };
    if (!await this.#need(at + 4 + length)) return null;
    const mask = this.#buf.subarray(this.#start + at, this.#start + at + 4);
    this.#start += at + 4;
    const payload = this.#consume(length);
    for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i & 3];
    return { fin, opcode, payload };
  }
}

/** An unmasked server frame. */
function frame(opcode: number, payload: Uint8Array): Uint8Array {
  const n = payload.length;
  const headLength = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const out = new Uint8Array(headLength + n);
  out[0] = 0x80 | opcode;
  if (n < 126) out[1] = n;
  else if (n < 65536) {
    out[1] = 126;
    out[2] = n >> 8;
    out[3] = n & 0xff;
  } else {
    out[1] = 127;
    new DataView(out.buffer).setBigUint64(2, BigInt(n));
  }
  out.set(payload, headLength);
  return out;
}

/** A message's fragments joined as they come, in one buffer that grows by doubling. */
class Assembly {
  #bytes = new Uint8Array(0);
  length = 0;
  /** A message has begun (its first frame came) and has not ended. */
  open = false;

  append(payload: Uint8Array): void {
    this.open = true;
    if (this.length + payload.length > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(1024, 2 * (this.length + payload.length)));
      grown.set(this.#bytes.subarray(0, this.length));
      this.#bytes = grown;
    }
    this.#bytes.set(payload, this.length);
    this.length += payload.length;
  }

  /** The whole message; the assembly is empty again. */
  take(): Uint8Array {
    const whole = this.#bytes.slice(0, this.length);
    this.#bytes = new Uint8Array(0);
    this.length = 0;
    this.open = false;
    return whole;
  }
}

/** Write all of `bytes` to `conn`. */
export async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let n = 0;
  while (n < bytes.length) n += await conn.write(bytes.subarray(n));
}
