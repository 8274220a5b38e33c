import assert from "node:assert/strict";
import { checkScheme, probeEndpoint } from "../../src/policy/probe.ts";
import { startFakeOpenAI } from "../_fake_openai.ts";

/** A port nothing listens on: bound, read, then released. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test("probeEndpoint() accepts a server that answers a chat completion", async () => {
  const server = startFakeOpenAI([{ content: "OK" }]);
  try {
    assert.deepEqual(await probeEndpoint({ baseUrl: server.baseUrl, model: "m" }), { ok: true });
    assert.equal(server.requests[0].body.max_tokens, 1);
    assert.equal(server.requests[0].body.model, "m");
  } finally {
    await server.close();
  }
});

Deno.test("probeEndpoint() says what to fix for each HTTP failure", async () => {
  const server = startFakeOpenAI([
    { status: 404, body: { error: { message: "The model `x` does not exist." } } },
    { status: 401, body: { error: "invalid key" } },
    { status: 200, body: "<html>hello</html>" },
  ]);
  try {
    const results = [];
    for (let i = 0; i < 3; i++) {
      results.push(await probeEndpoint({ baseUrl: server.baseUrl, model: "x" }));
    }
    const messages = results.map((r) => r.ok ? "" : r.message);
    assert.match(messages[0], /HTTP 404: The model `x` does not exist\.; check --model "x"/);
    assert.match(
      messages[1],
      /refused the request \(HTTP 401: invalid key\); set PATCHGYM_API_KEY/,
    );
    assert.match(
      messages[2],
      /is not a chat completion \(it was application\/json "<html>hello<\/html>"\); point --base-url at an OpenAI-compatible/,
    );
  } finally {
    await server.close();
  }
});

// Issue 14: with nothing listening, every sample ended as a silent reward-0 policy_error.
Deno.test("probeEndpoint() names a port where nothing listens", async () => {
  const port = closedPort();
  const result = await probeEndpoint({ baseUrl: `http://127.0.0.1:${port}/v1`, model: "m" });
  assert.ok(!result.ok);
  assert.equal(
    result.message,
    `Cannot use the model endpoint "http://127.0.0.1:${port}/v1": POST http://127.0.0.1:${port}/v1/chat/completions: nothing is listening at 127.0.0.1:${port}; start the model server or fix --base-url`,
  );
});

Deno.test("probeEndpoint() names a host the permission flags do not allow", async () => {
  const result = await probeEndpoint({
    baseUrl: "http://models.example:8000/v1",
    model: "m",
    fetch: () => Promise.reject(new Deno.errors.NotCapable("Requires net access")),
  });
  assert.ok(!result.ok);
  assert.match(
    result.message,
    /may not connect to "models\.example:8000" \(Deno permission flags\)/,
  );
});

// Issue 25: a server that never answered gave 30 s of silence and then "check that the server is
// up"; a server that is not OpenAI-compatible was reported as "check --model".
Deno.test("probeEndpoint() says what it tried when nothing answers in time", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })();
  try {
    const result = await probeEndpoint({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: "m",
      timeoutMs: 200,
    });
    assert.ok(!result.ok);
    assert.match(
      result.message,
      new RegExp(
        `POST http://127\\.0\\.0\\.1:${port}/v1/chat/completions: no answer within 0\\.2 s from 127\\.0\\.0\\.1:${port}`,
      ),
    );
  } finally {
    listener.close();
    await accepting.catch(() => {});
    for (const conn of held) conn.close();
  }
});

Deno.test("probeEndpoint() tells a server that is not OpenAI-compatible from an unknown model", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () =>
      new Response("<html><body>Not Found</body></html>", {
        status: 404,
        headers: { "content-type": "text/html" },
      }),
  );
  try {
    const result = await probeEndpoint({
      baseUrl: `http://127.0.0.1:${server.addr.port}`,
      model: "m",
    });
    assert.ok(!result.ok);
    assert.match(
      result.message,
      /this is not an OpenAI-compatible API: POST http:\/\/127\.0\.0\.1:\d+\/chat\/completions answered HTTP 404 with text\/html "<html><body>Not Found<\/body><\/html>"; point --base-url at the server's OpenAI-compatible prefix/,
    );
    assert.doesNotMatch(result.message, /--model/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("checkScheme() asks for http:// or https://", () => {
  assert.equal(checkScheme("http://127.0.0.1:8000/v1"), null);
  assert.equal(checkScheme("HTTPS://api.example/v1"), null);
  assert.equal(
    checkScheme("127.0.0.1:8000/v1"),
    '--base-url: "127.0.0.1:8000/v1" has no http:// or https:// scheme; add the scheme: http://127.0.0.1:8000/v1',
  );
  assert.match(checkScheme("ftp://host/v1")!, /use http:\/\/ or https:\/\/$/);
});
