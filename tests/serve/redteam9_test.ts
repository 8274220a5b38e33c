/**
 * Red team, round 9: the network front (`serve --http`) under peers that send little and cost the
 * server much. Each test counts work (bytes copied, buffers held, frames in flight), never time.
 */
import assert from "node:assert/strict";
import { Environment } from "../../src/agent/environment.ts";
import { RunSlots } from "../../src/sandbox/run_slots.ts";
import { HttpFront } from "../../src/serve/http.ts";
import { HttpServer } from "../../src/serve/http1.ts";
import { EpisodeServer } from "../../src/serve/server.ts";
import { ServerWebSocket } from "../../src/serve/websocket.ts";
import { socket, TASKS_DIR, withHttp } from "./_http.ts";

/**
 * Run `fn` while counting the bytes user-land code copies with `Uint8Array`'s `slice`, `set` and
 * `copyWithin`
 * (Deno's own streams use their captured primordials, so only patchgym's code is counted).
 */
async function countingCopies(fn: () => Promise<void>): Promise<number> {
  const slice = Uint8Array.prototype.slice;
  const set = Uint8Array.prototype.set;
  const copyWithin = Uint8Array.prototype.copyWithin;
  let copied = 0;
  Uint8Array.prototype.slice = function (this: Uint8Array, ...args: [number?, number?]) {
    const out = slice.apply(this, args) as Uint8Array;
    copied += out.length;
    return out;
  } as typeof slice;
  Uint8Array.prototype.set = function (this: Uint8Array, source: ArrayLike<number>, at?: number) {
    copied += source.length;
    return set.call(this, source, at);
  } as typeof set;
  Uint8Array.prototype.copyWithin = function (
    this: Uint8Array,
    to: number,
    from: number,
    end?: number,
  ) {
    copied += (end ?? this.length) - from;
    return copyWithin.call(this, to, from, end);
  } as typeof copyWithin;
  try {
    await fn();
  } finally {
    Uint8Array.prototype.slice = slice;
    Uint8Array.prototype.set = set;
    Uint8Array.prototype.copyWithin = copyWithin;
  }
  return copied;
}

/** A connection whose peer sent `incoming` (all of it ready at once) and reads everything. */
function eagerPeer(incoming: Uint8Array, hangAtEnd = false) {
  let at = 0;
  let release!: () => void;
  const hang = new Promise<null>((resolve) => release = () => resolve(null));
  const conn = {
    read(buf: Uint8Array): Promise<number | null> {
      if (at >= incoming.length) return hangAtEnd ? hang : Promise.resolve(null);
      const n = Math.min(buf.length, incoming.length - at);
      buf.set(incoming.subarray(at, at + n));
      at += n;
      return Promise.resolve(n);
    },
    write: (bytes: Uint8Array) => Promise.resolve(bytes.length),
    close() {
      release();
    },
  } as unknown as Deno.Conn;
  return { conn, read: () => at, end: release };
}

Deno.test("ServerWebSocket reads many small frames sent at once at linear cost", async () => {
  // Attack: 20,000 empty text frames (6 bytes each, 120 KB) in one write. Each frame's header,
  // mask and payload were cut off the buffer with slice(), which copied everything after them:
  // 1.8 GB copied for 120 KB sent (19 GB and 3 s of the event loop for 1.2 MB), all of it in
  // microtasks, so no other connection was served meanwhile.
  const frames = 20_000;
  const empty = new Uint8Array([0x81, 0x80, 0, 0, 0, 0]);
  const incoming = new Uint8Array(empty.length * frames);
  for (let i = 0; i < frames; i++) incoming.set(empty, i * empty.length);
  const peer = eagerPeer(incoming);
  let messages = 0;
  const copied = await countingCopies(async () => {
    const socket = new ServerWebSocket(1 << 20);
    socket.onmessage = () => messages++;
    await socket.run(peer.conn, new Uint8Array(0));
  });
  assert.equal(messages, frames);
  assert.ok(
    copied <= 16 * incoming.length,
    `${copied} bytes copied to read ${incoming.length} bytes of frames`,
  );
});

Deno.test("ServerWebSocket holds a message of many empty fragments in bounded memory", async () => {
  // Attack: a text frame without FIN, then empty continuation frames without end (6 bytes each).
  // Each was kept as one more (empty) part of the message, and the message cap counts bytes, so
  // it never tripped: about 240 bytes of heap per 6 bytes sent, for as long as the peer sends.
  const fragments = 1_000_000;
  const start = new Uint8Array([0x01, 0x81, 0, 0, 0, 0, 0x78]);
  const more = new Uint8Array([0x00, 0x80, 0, 0, 0, 0]);
  const incoming = new Uint8Array(start.length + more.length * fragments);
  incoming.set(start);
  for (let i = 0; i < fragments; i++) incoming.set(more, start.length + i * more.length);
  const peer = eagerPeer(incoming, true);
  const socket = new ServerWebSocket(1 << 20);
  const before = Deno.memoryUsage().heapUsed;
  const running = socket.run(peer.conn, new Uint8Array(0));
  while (peer.read() < incoming.length) await new Promise((resolve) => setTimeout(resolve, 0));
  const grown = Deno.memoryUsage().heapUsed - before;
  socket.close();
  peer.end();
  await running;
  // What is held for the message is its bytes (1), not one object per fragment (~240 MB).
  assert.ok(grown < 64 * 1024 * 1024, `heap grew by ${grown} bytes over ${fragments} fragments`);
});

Deno.test("HttpServer reads a chunked body of one-byte chunks at linear cost, in few parts", async () => {
  // Attack: a chunked body of 20,000 one-byte chunks (120 KB). Each chunk line, byte and CRLF was
  // cut off the connection's buffer with slice(), copying all that followed (476 MB copied; 4.8
  // GB and 2.4 s for 1.2 MB), and each byte reached the handler as a part of its own, which the
  // front keeps in an array until the body ends (8 million objects for an 8 MB body).
  const chunks = 20_000;
  let parts = 0;
  let size = 0;
  const http = HttpServer.listen(
    { hostname: "127.0.0.1", port: 0, log: () => {} },
    async (request) => {
      const reader = request.body!.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        parts++;
        size += read.value.length;
      }
      return new Response(String(size));
    },
  );
  try {
    const text = "POST /reset HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n" +
      `Connection: close\r\n\r\n${"1\r\nx\r\n".repeat(chunks)}0\r\n\r\n`;
    let answer = "";
    const copied = await countingCopies(async () => {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: http.addr.port });
      await conn.write(new TextEncoder().encode(text));
      answer = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
    });
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.equal(size, chunks);
    assert.ok(copied <= 16 * text.length, `${copied} bytes copied to read ${text.length} sent`);
    assert.ok(parts <= chunks / 16, `${parts} parts handed over for ${chunks} one-byte chunks`);
  } finally {
    await http.close();
  }
});

/** A front over the bundled tasks whose runs take `slots` (hold one to make every run wait). */
async function withBusyFront(
  limits: { maxBodyBytes: number; maxPendingBytes: number },
  slots: RunSlots,
  fn: (url: string, front: HttpFront) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "patchgym-rt9-" });
  const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot: root, runSlots: slots });
  const server = new EpisodeServer(env, { idleTimeoutMs: 0 });
  const front = new HttpFront(server, {
    ...limits,
    maxConnections: 8,
    idleTimeoutMs: 0,
    hostname: "127.0.0.1",
  });
  const http = HttpServer.listen({
    hostname: "127.0.0.1",
    port: 0,
    maxMessageBytes: 2 * limits.maxBodyBytes + 65536,
    log: () => {},
  }, front.handler);
  try {
    await fn(`http://127.0.0.1:${http.addr.port}`, front);
  } finally {
    front.closeAll();
    await http.close();
    await server.closeAll();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("HttpFront counts each WebSocket frame queued behind a busy call against the bytes in flight", async () => {
  // Attack: on /mcp every frame waits its turn behind the call before it, and a frame held its
  // length in bytes against --max-pending-bytes. An empty text frame (6 bytes sent) held none,
  // so behind one slow tools/call a peer queued frames without bound, each a promise, closures
  // and a later answer in the server's memory (hundreds of bytes each): none was turned away.
  const slots = new RunSlots(1, { holdMs: 3_600_000 });
  await withBusyFront(
    { maxBodyBytes: 16 * 1024, maxPendingBytes: 64 * 1024 },
    slots,
    async (url) => {
      const ws = new WebSocket(`${url.replace("http", "ws")}/mcp`);
      const answers: { id?: unknown; error?: { data?: { error_code?: string } } }[] = [];
      const closed = new Promise((resolve) => ws.onclose = resolve);
      ws.onmessage = (event) => answers.push(JSON.parse(event.data));
      await new Promise((resolve, reject) => {
        ws.onopen = resolve;
        ws.onerror = reject;
      });
      const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
      let release: (() => void) | undefined;
      try {
        ws.send(JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "openenv/session/create",
          params: { task_id: "py-median-even" },
        }));
        while (answers.length === 0) await tick();
        assert.ok(!answers[0].error, JSON.stringify(answers[0]));
        // Every run now waits for the one slot: the call below stays busy until it is given back.
        release = await slots.take();
        ws.send(JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "run_command", arguments: { argv: ["python3", "-c", "print(1)"] } },
        }));
        while (slots.waiting === 0) await tick();
        const frames = 2000;
        for (let i = 0; i < frames; i++) ws.send("");
        const refused = () =>
          answers.filter((a) => a.error?.data?.error_code === "too_busy").length;
        // 64 KiB in flight hold at most a few dozen frames; the rest must be turned away at once.
        for (let turn = 0; turn < 5000 && refused() < frames - 64; turn++) await tick();
        assert.ok(
          refused() >= frames - 64,
          `${refused()} of ${frames} empty frames turned away while the call was busy`,
        );
      } finally {
        release?.();
        ws.close();
        await closed;
      }
    },
  );
});

Deno.test("HttpServer's body deadline ends with the body: a long answer is not cut off", async () => {
  // Attack: --body-timeout (60 s) started with a request's body and was still running while the
  // handler worked, so a POST /step whose tool call (or grading, or wait for a run slot behind
  // other tokens' runs) took longer lost its connection and its answer: the trainer never saw the
  // step or the graded record. Here the deadline is 1 ms and the handler answers after a 50 ms
  // timer, set later and due later, so the deadline's timer fires first if it is still set.
  const http = HttpServer.listen(
    { hostname: "127.0.0.1", port: 0, log: () => {}, bodyTimeoutMs: 1 },
    async (request) => {
      const text = await request.text();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return new Response(`answered ${text}`);
    },
  );
  try {
    // Head and body in one write: the body is read at once, well within its deadline.
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: http.addr.port });
    await conn.write(new TextEncoder().encode(
      "POST /step HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    ));
    const reply = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
    const answer = reply === "" ? "connection closed unanswered" : reply.split("\r\n\r\n")[1];
    assert.equal(answer, "answered {}");
    assert.equal(http.dropped.get("body_timeout"), undefined);
  } finally {
    await http.close();
  }
});

Deno.test("HttpServer survives a peer that hangs up before its 100 Continue is written", async () => {
  // Attack: two pipelined requests in one write, the second with "Expect: 100-continue" and a
  // body never sent, then the connection closed. The answer to the first draws the peer's reset,
  // and the 100 Continue for the second was written with nothing to catch its failure: an
  // unhandled rejection (Broken pipe), which ends the whole server, every token's episodes with
  // it. Any driving token reaches it: /reset, /step and /mcp read their bodies.
  let unhandled = 0;
  const onUnhandled = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    unhandled++;
  };
  globalThis.addEventListener("unhandledrejection", onUnhandled);
  let handled = 0;
  const http = HttpServer.listen(
    { hostname: "127.0.0.1", port: 0, log: () => {} },
    async (request) => {
      handled++;
      const size = request.body ? (await request.arrayBuffer().catch(() => null))?.byteLength : 0;
      return new Response(`${"x".repeat(100)} ${size}`);
    },
  );
  try {
    const attack = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" +
      "POST /reset HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n";
    for (let i = 0; i < 20; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: http.addr.port });
      await conn.write(new TextEncoder().encode(attack));
      conn.close();
      // Until the server has handed both requests to the handler and dropped the connection.
      while (handled < 2 * (i + 1) || http.connections > 0) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
    // Rejections surface after a turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(unhandled, 0, `${unhandled} unhandled rejection(s): each one ends the process`);
  } finally {
    await http.close();
    globalThis.removeEventListener("unhandledrejection", onUnhandled);
  }
});

Deno.test("HttpFront frees a WebSocket session whose 101 answer could not be written", async () => {
  // Attack: a request answered first (which draws the closed peer's reset), then an upgrade to
  // /ws in the same write, then a hang-up. The session was counted when the upgrade was answered,
  // and only the socket's close gave it back; the 101 answer failed (broken pipe), the socket never
  // ran and never closed: each try took one of the --max-episodes WebSocket sessions, of every
  // token, until the idle sweep (15 min), and one of its token's sessions= for good.
  await withHttp({ maxConnections: 4 }, async ({ url, front, http }) => {
    const port = Number(new URL(url).port);
    const attack = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" +
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    for (let i = 0; i < 8; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      await conn.write(new TextEncoder().encode(attack));
      conn.close();
      while (http.connections > 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    assert.equal(front.connections, 0, `${front.connections} sessions held by hung-up peers`);
    const s = await socket(url);
    try {
      const answer = await s.ask({ op: "tasks", id: 1 });
      assert.equal(answer.id, 1);
      assert.ok(answer.tasks, JSON.stringify(answer).slice(0, 300));
    } finally {
      s.ws.close();
      await s.closed;
    }
  });
});

Deno.test("HttpFront answers a binary frame turned away as too busy, and keeps the connection", async () => {
  // Found while fixing the frame cost above: a binary frame now holds its cost too, and when that
  // was refused the answer read its id as if it were text (charCodeAt of a Uint8Array), a
  // TypeError that dropped the peer's connection instead of answering too_busy.
  await withHttp({ maxBodyBytes: 1000, maxPendingBytes: 1500 }, async ({ url, front }) => {
    let feed!: ReadableStreamDefaultController<Uint8Array>;
    const slow = fetch(`${url}/reset`, {
      method: "POST",
      body: new ReadableStream({ start: (controller) => void (feed = controller) }),
    });
    const head = `{"task_id": "py-median-even", "pad": "${"x".repeat(860)}`;
    feed.enqueue(new TextEncoder().encode(head));
    while (front.pendingBytes < head.length) await new Promise((r) => setTimeout(r, 1));
    const s = await socket(url);
    try {
      s.ws.send(new Uint8Array([1, 2, 3]));
      const answer = await Promise.race([s.next(), s.closed.then(() => ({ closed: true }))]);
      assert.equal(answer.error?.code, "too_busy", JSON.stringify(answer));
      feed.enqueue(new TextEncoder().encode(`"}`));
      feed.close();
      await (await slow).body?.cancel();
      assert.equal((await s.ask({ op: "tasks", id: "after" })).id, "after");
    } finally {
      s.ws.close();
      await s.closed;
    }
  });
});

Deno.test("EpisodeServer answers a message of thousands of tool calls with a bounded answer", async () => {
  // Attack: one step whose message holds 10,000 tool calls (native, or as <tool_call> blocks in
  // the text). The first ran; each other one got a tool message of its own ("only one call per
  // turn"), kept in the episode's conversation and sent back: 3.7 MB sent with 100,000 calls drew
  // a 57 MB answer and kept 100 MB in the server, every step (a reset's limits and the step's
  // usage are the client's, so no token limit ends it). A token could fill the server's memory
  // with a few dozen requests.
  const root = await Deno.makeTempDir({ prefix: "patchgym-rt9-" });
  const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot: root });
  const server = new EpisodeServer(env, { idleTimeoutMs: 0 });
  try {
    const calls = 10_000;
    const usage = { prompt_tokens: 0, completion_tokens: 0 };
    const limits = { max_total_tokens: 1e12 };
    const native = await server.handle(
      JSON.stringify({ op: "reset", task_id: "py-median-even", limits }),
    );
    const text = await server.handle(
      JSON.stringify({ op: "reset", task_id: "py-median-even", limits, tool_calls: "text" }),
    );
    const answers = [
      await server.handle(JSON.stringify({
        op: "step",
        episode_id: native.episode_id,
        usage,
        message: {
          role: "assistant",
          content: null,
          tool_calls: Array.from({ length: calls }, (_, i) => ({
            id: `c${i}`,
            function: { name: "inspect_tree", arguments: {} },
          })),
        },
      })),
      await server.handle(JSON.stringify({
        op: "step",
        episode_id: text.episode_id,
        usage,
        message: {
          role: "assistant",
          content: '<tool_call>{"name": "inspect_tree", "arguments": {}}</tool_call>\n'
            .repeat(calls),
        },
      })),
    ];
    for (const [i, answer] of answers.entries()) {
      const messages = "error" in answer ? 0 : (answer.observation as unknown[]).length;
      assert.ok(messages <= 65, `${["native", "text"][i]}: ${messages} messages answered`);
      const size = JSON.stringify(answer).length;
      assert.ok(size < 256 * 1024, `${["native", "text"][i]}: an answer of ${size} bytes`);
    }
  } finally {
    await server.closeAll();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("HttpFront answers an answer it cannot serialize with an error frame, not a crash", async () => {
  // Attack: a WebSocket answer was serialized with JSON.stringify in a callback nothing awaited,
  // so a throw there was an unhandled rejection, which ends the process. A driving token reaches
  // it by size: the final answer carries the record, every step's token ids and logprobs in it
  // (2 steps of 27 MB made a 112 MB answer), and past 2^29 characters JSON.stringify throws
  // (RangeError: Invalid string length): some 34 steps of 8 MB (--max-line-bytes), then a finish
  // on /ws. Here an answer JSON.stringify refuses at once stands in for that one.
  let unhandled = 0;
  const onUnhandled = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    unhandled++;
  };
  globalThis.addEventListener("unhandledrejection", onUnhandled);
  try {
    await withHttp({}, async ({ url, server }) => {
      const request = server.request.bind(server);
      server.request = (data: unknown, caller?: Parameters<typeof server.request>[1]) =>
        (data as { op?: string }).op === "finish"
          ? Promise.resolve({ id: (data as { id?: number }).id, unserializable: 1n })
          : request(data, caller);
      const ws = new WebSocket(`${url.replace("http", "ws")}/ws`);
      const answers = new Map<unknown, { error?: { code?: string } }>();
      const closed = new Promise((resolve) => ws.onclose = resolve);
      ws.onmessage = (event) => {
        const answer = JSON.parse(event.data);
        answers.set(answer.id, answer);
      };
      await new Promise((resolve, reject) => {
        ws.onopen = resolve;
        ws.onerror = reject;
      });
      try {
        ws.send(JSON.stringify({ op: "finish", episode_id: "e", id: 7 }));
        ws.send(JSON.stringify({ op: "tasks", id: 8 }));
        // The stand-in answers at once: both answers come within a few turns once it is caught.
        for (let turn = 0; turn < 1000 && !(answers.has(7) && answers.has(8)); turn++) {
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        assert.ok(answers.has(8), "the connection answers on");
        assert.equal(answers.get(7)?.error?.code, "internal", JSON.stringify(answers.get(7)));
      } finally {
        ws.close();
        await closed;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(unhandled, 0, `${unhandled} unhandled rejection(s): each one ends the process`);
  } finally {
    globalThis.removeEventListener("unhandledrejection", onUnhandled);
  }
});

Deno.test("HttpServer routes a request by its target, never by a path written into its Host", async () => {
  // Attack: the request's URL was the Host header and the target glued together, so a Host of
  // "127.0.0.1/metrics?" turned "GET /health" into GET /metrics: a proxy in front that lets only
  // /health through without its own checks (or logs, or rules by path) saw one route and the
  // server answered another.
  const paths: string[] = [];
  const http = HttpServer.listen(
    { hostname: "127.0.0.1", port: 0, log: () => {} },
    (request) => {
      paths.push(new URL(request.url).pathname);
      return new Response("ok");
    },
  );
  try {
    // An empty Host (the second reading): "http://" + "" + "/x/metrics" made "x" the host.
    for (
      const [host, target] of [
        ["127.0.0.1/metrics?", "/health"],
        ["127.0.0.1/metrics#", "/health"],
        ["a@127.0.0.1/metrics?x=", "/health"],
        ["", "/health/metrics"],
      ]
    ) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: http.addr.port });
      await conn.write(new TextEncoder().encode(
        `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ));
      await new Response(conn.readable).arrayBuffer();
    }
    assert.ok(
      paths.every((path) => path === "/health" || path === "/health/metrics"),
      `routed as ${paths.join(", ")}`,
    );
  } finally {
    await http.close();
  }
});
