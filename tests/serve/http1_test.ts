/** The HTTP/1.1 layer of `serve --http` on raw sockets: framing, keep-alive, deadlines, caps. */
import assert from "node:assert/strict";
import { type ConnectionLimits, HttpServer, peerKey } from "../../src/serve/http1.ts";

/** A server answering `method path body-length` for every request. */
async function withEcho(
  limits: Partial<ConnectionLimits>,
  fn: (port: number, http: HttpServer) => Promise<void>,
): Promise<void> {
  const http = HttpServer.listen(
    { hostname: "127.0.0.1", port: 0, log: () => {}, ...limits },
    async (request) => {
      const body = request.body ? (await request.arrayBuffer()).byteLength : 0;
      return new Response(`${request.method} ${new URL(request.url).pathname} ${body}`);
    },
  );
  try {
    await fn(http.addr.port, http);
  } finally {
    await http.close();
  }
}

/** Send `text` on a fresh connection and read until the server closes it. */
async function exchange(port: number, text: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(text));
  let out = "";
  const buf = new Uint8Array(4096);
  try {
    for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
      out += new TextDecoder().decode(buf.subarray(0, n));
    }
  } catch {
    // Reset.
  } finally {
    conn.close();
  }
  return out;
}

Deno.test("HttpServer reads chunked and sized bodies and answers pipelined requests in order", async () => {
  await withEcho({}, async (port) => {
    const out = await exchange(
      port,
      "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n" +
        "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nwxyz" +
        "GET /c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    const bodies = out.split("\r\n\r\n").slice(1).map((part) => part.split("HTTP/1.1")[0]);
    assert.deepEqual(bodies, ["POST /a 5", "POST /b 4", "GET /c 0"]);
  });
});

Deno.test("HttpServer refuses malformed and oversized heads, and ambiguous lengths", async () => {
  await withEcho({ maxHeaderBytes: 1024 }, async (port) => {
    assert.match(await exchange(port, "NOT A REQUEST\r\n\r\n"), /^HTTP\/1\.1 400/);
    assert.match(
      await exchange(port, `GET / HTTP/1.1\r\nX: ${"a".repeat(2000)}\r\n\r\n`),
      /^HTTP\/1\.1 431/,
    );
    assert.match(
      await exchange(
        port,
        "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc",
      ),
      /^HTTP\/1\.1 400/,
    );
    assert.match(
      await exchange(port, "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"),
      /^HTTP\/1\.1 400/,
    );
  });
});

Deno.test("HttpServer closes a connection idle past the keep-alive timeout, and counts it", async () => {
  await withEcho({ keepAliveMs: 100 }, async (port, http) => {
    // Answered, then nothing more: the server ends the connection by itself.
    const out = await exchange(port, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
    assert.match(out, /GET \/a 0$/);
    assert.equal(http.dropped.get("keep_alive_timeout"), 1);
  });
});

Deno.test("HttpServer closes a body that does not arrive by the body deadline", async () => {
  await withEcho({ bodyTimeoutMs: 100 }, async (port, http) => {
    const out = await exchange(
      port,
      "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc",
    );
    assert.equal(out, "");
    assert.equal(http.dropped.get("body_timeout"), 1);
  });
});

Deno.test("peerKey() counts an IPv6 /64 as one peer, and an IPv4-mapped address as its IPv4", () => {
  // Red team: the per-peer cap counted exact addresses, so a host with an IPv6 /64 (2^64
  // addresses) had a fresh allowance per address, and ::ffff:a.b.c.d was another peer than a.b.c.d.
  assert.equal(peerKey("2001:db8:1:2::1"), peerKey("2001:db8:1:2:ffff:ffff:ffff:fffe"));
  assert.equal(peerKey("2001:DB8:1:2::1"), "2001:db8:1:2::/64");
  assert.notEqual(peerKey("2001:db8:1:2::1"), peerKey("2001:db8:1:3::1"));
  assert.equal(peerKey("::ffff:10.0.0.7"), "10.0.0.7");
  assert.equal(peerKey("[::ffff:10.0.0.7]"), "10.0.0.7");
  assert.equal(peerKey("10.0.0.7"), "10.0.0.7");
  assert.equal(peerKey("::1"), "0:0:0:0::/64");
  assert.equal(peerKey("fe80::1%eth0"), peerKey("fe80::2"));
});
