/** The server side of a WebSocket (websocket.ts) under abuse, on an in-memory connection. */
import assert from "node:assert/strict";
import { ServerWebSocket } from "../../src/serve/websocket.ts";

/** A masked client frame. */
function clientFrame(opcode: number, payload: Uint8Array, fin = true): Uint8Array {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const out = new Uint8Array(head + 4 + n);
  out[0] = (fin ? 0x80 : 0) | opcode;
  if (n < 126) out[1] = 0x80 | n;
  else if (n < 65536) {
    out[1] = 0x80 | 126;
    out[2] = n >> 8;
    out[3] = n & 0xff;
  } else {
    out[1] = 0x80 | 127;
    new DataView(out.buffer).setBigUint64(2, BigInt(n));
  }
  // Mask of zeros: the payload as is.
  out.set(payload, head + 4);
  return out;
}

/** A connection whose peer sent `incoming` and never reads what it is sent. */
function stuckPeer(incoming: Uint8Array) {
  let at = 0;
  const conn = {
    read(buf: Uint8Array): Promise<number | null> {
      if (at >= incoming.length) return Promise.resolve(null);
      const n = Math.min(buf.length, incoming.length - at);
      buf.set(incoming.subarray(at, at + n));
      at += n;
      return Promise.resolve(n);
    },
    // The peer's window is full: no write ever completes, until the connection is closed.
    write(_bytes: Uint8Array): Promise<number> {
      if (closed) return Promise.reject(new Error("closed"));
      return new Promise((_, reject) => closers.push(() => reject(new Error("closed"))));
    },
    close() {
      closed = true;
      for (const c of closers.splice(0)) c();
    },
  };
  const closers: (() => void)[] = [];
  let closed = false;
  return { conn: conn as unknown as Deno.Conn, read: () => at };
}

Deno.test("ServerWebSocket stops reading a peer that never reads its answers (ping flood)", async () => {
  // Red team: a client that floods pings (or requests) and never reads made the server queue a
  // pong (an answer) per frame without bound: memory grew as fast as the client could send.
  const ping = clientFrame(9, new Uint8Array(125));
  const frames = 100_000; // 13 MB of pings, 13 MB of pongs to queue
  const incoming = new Uint8Array(ping.length * frames);
  for (let i = 0; i < frames; i++) incoming.set(ping, i * ping.length);
  const peer = stuckPeer(incoming);
  const socket = new ServerWebSocket(1 << 20);
  const running = socket.run(peer.conn, new Uint8Array(0));
  // Everything in memory resolves in microtasks: a few macrotask turns are plenty.
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
  assert.ok(
    peer.read() < 4 * 1024 * 1024,
    `read ${peer.read()} bytes of pings while no pong could be written`,
  );
  socket.close();
  peer.conn.close();
  await running;
});

/** Run a socket on a peer that sent `incoming` and reads everything: the close code sent. */
async function closeCodeFor(incoming: Uint8Array, maxMessageBytes = 1024): Promise<number | null> {
  let at = 0;
  const written: Uint8Array[] = [];
  const conn = {
    read(buf: Uint8Array): Promise<number | null> {
      if (at >= incoming.length) return Promise.resolve(null);
      const n = Math.min(buf.length, incoming.length - at);
      buf.set(incoming.subarray(at, at + n));
      at += n;
      return Promise.resolve(n);
    },
    write(bytes: Uint8Array): Promise<number> {
      written.push(bytes.slice());
      return Promise.resolve(bytes.length);
    },
    close() {},
  } as unknown as Deno.Conn;
  const socket = new ServerWebSocket(maxMessageBytes);
  await socket.run(conn, new Uint8Array(0));
  const close = written.find((f) => (f[0] & 0x0f) === 8);
  return close ? (close[2] << 8) | close[3] : null;
}

function join(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

Deno.test("ServerWebSocket refuses malformed and oversized frames with a close code", async () => {
  const text = new TextEncoder().encode("x".repeat(100));
  // Unmasked client frame.
  const unmasked = clientFrame(1, text);
  unmasked[1] &= 0x7f;
  assert.equal(await closeCodeFor(unmasked.subarray(0, 2 + 100)), 1002);
  // A fragmented control frame, and one over 125 bytes.
  assert.equal(await closeCodeFor(clientFrame(9, new Uint8Array(4), false)), 1002);
  assert.equal(await closeCodeFor(clientFrame(9, new Uint8Array(126))), 1002);
  // A compressed frame (RSV1) though no extension was agreed.
  const compressed = clientFrame(1, text);
  compressed[0] |= 0x40;
  assert.equal(await closeCodeFor(compressed), 1002);
  // A 64-bit length of 2^63: refused from the header, nothing allocated.
  const huge = new Uint8Array(14);
  huge[0] = 0x82;
  huge[1] = 0xff;
  new DataView(huge.buffer).setBigUint64(2, 1n << 63n);
  assert.equal(await closeCodeFor(huge), 1009);
  // Fragments that never end: refused at the message cap.
  const fragments = [clientFrame(1, text, false)];
  for (let i = 0; i < 20; i++) fragments.push(clientFrame(0, text, false));
  assert.equal(await closeCodeFor(join(...fragments)), 1009);
  // Text that is not UTF-8.
  assert.equal(await closeCodeFor(clientFrame(1, new Uint8Array([0xc3, 0x28]))), 1007);
  // A continuation with no message, and a new message inside a fragmented one.
  assert.equal(await closeCodeFor(clientFrame(0, text)), 1002);
  assert.equal(await closeCodeFor(join(clientFrame(1, text, false), clientFrame(1, text))), 1002);
});

Deno.test("ServerWebSocket reads a frame trickled byte by byte at linear cost", async () => {
  // Red team: each read of a frame being assembled allocated a fresh buffer (up to 1 MiB) and
  // copied everything buffered so far: a frame sent one byte per packet cost its length squared.
  const text = "y".repeat(8 * 1024);
  const incoming = clientFrame(1, new TextEncoder().encode(text));
  let at = 0;
  const buffers = new Set<Uint8Array>();
  const conn = {
    read(buf: Uint8Array): Promise<number | null> {
      buffers.add(buf);
      if (at >= incoming.length) return Promise.resolve(null);
      buf[0] = incoming[at++];
      return Promise.resolve(1);
    },
    write: (bytes: Uint8Array) => Promise.resolve(bytes.length),
    close() {},
  } as unknown as Deno.Conn;
  const socket = new ServerWebSocket(1 << 20);
  const got: unknown[] = [];
  socket.onmessage = (event) => got.push(event.data);
  await socket.run(conn, new Uint8Array(0));
  assert.deepEqual(got, [text]);
  assert.ok(buffers.size <= 2, `${buffers.size} read buffers allocated for one frame`);
});
