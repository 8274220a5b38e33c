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
    assert.match(messages[2], /is not a chat completion; point --base-url at an OpenAI-compatible/);
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
    `Cannot use the model endpoint "http://127.0.0.1:${port}/v1": nothing is listening at 127.0.0.1:${port}; start the model server or fix --base-url`,
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

Deno.test("checkScheme() asks for http:// or https://", () => {
  assert.equal(checkScheme("http://127.0.0.1:8000/v1"), null);
  assert.equal(checkScheme("HTTPS://api.example/v1"), null);
  assert.equal(
    checkScheme("127.0.0.1:8000/v1"),
    '--base-url: "127.0.0.1:8000/v1" has no http:// or https:// scheme; add the scheme: http://127.0.0.1:8000/v1',
  );
  assert.match(checkScheme("ftp://host/v1")!, /use http:\/\/ or https:\/\/$/);
});
