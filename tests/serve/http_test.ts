import assert from "node:assert/strict";
import { call, post, socket, SOLUTION, withHttp } from "./_http.ts";

Deno.test("HttpFront answers OpenEnv's health, metadata, schema, state and tasks", async () => {
  await withHttp({}, async ({ url }) => {
    assert.deepEqual(await (await fetch(`${url}/health`)).json(), { status: "healthy" });
    const metadata = await (await fetch(`${url}/metadata`)).json();
    assert.deepEqual(Object.keys(metadata).sort(), [
      "author",
      "description",
      "documentation_url",
      "name",
      "readme_content",
      "version",
    ]);
    const schema = await (await fetch(`${url}/schema`)).json();
    assert.deepEqual(Object.keys(schema).sort(), ["action", "observation", "state"]);
    assert.ok(schema.action.properties.message && schema.action.properties.finish);
    assert.deepEqual(await (await fetch(`${url}/state`)).json(), {
      episode_id: null,
      step_count: 0,
    });
    const tasks = await (await fetch(`${url}/tasks`)).json();
    assert.ok(tasks.tasks.some((t: { id: string }) => t.id === "py-median-even"));
    const missing = await fetch(`${url}/nope`);
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    const wrong = await fetch(`${url}/reset`);
    assert.equal(wrong.status, 405);
    await wrong.body?.cancel();
  });
});

Deno.test("HttpFront runs an episode over POST /reset and /step with OpenEnv's shapes", async () => {
  await withHttp({}, async ({ url }) => {
    const reset = await post(`${url}/reset`, { task_id: "py-median-even", request_id: "r1" });
    assert.equal(reset.status, 200);
    assert.deepEqual(Object.keys(reset.json).sort(), ["done", "observation", "reward"]);
    assert.equal(reset.json.reward, null);
    assert.equal(reset.json.done, false);
    assert.equal(reset.json.observation.request_id, "r1");
    const episodeId = reset.json.observation.episode_id;
    const step = await post(`${url}/step`, {
      action: { message: call("apply_patch", { patch: SOLUTION }) },
      episode_id: episodeId,
      request_id: "s1",
    });
    assert.equal(step.status, 200);
    assert.deepEqual(Object.keys(step.json).sort(), ["done", "observation", "reward"]);
    assert.equal(step.json.reward, 0);
    assert.equal(step.json.observation.request_id, "s1");
    const state = await (await fetch(`${url}/state?episode_id=${episodeId}`)).json();
    assert.equal(state.step_count, 1);
    const last = await post(`${url}/step`, {
      action: {
        message: call("submit", { status: "solved", summary: "x" }),
        episode_id: episodeId,
      },
    });
    assert.equal(last.json.done, true);
    assert.equal(last.json.reward, 1);
    assert.equal(last.json.observation.terminated, true);
    assert.equal(last.json.observation.record.stop_reason, "submitted");
  });
});

Deno.test("HttpFront answers every HTTP error with a status, FastAPI's detail and a code", async () => {
  await withHttp({ maxBodyBytes: 2000 }, async ({ url, server }) => {
    const cases: [unknown, number, string][] = [
      ["{oops", 400, "bad_json"],
      ["[".repeat(100) + "]".repeat(100), 400, "too_deep"],
      [{ action: {} }, 422, "bad_request"],
      [{ action: { message: call("inspect_tree", {}) } }, 404, "unknown_episode"],
      [{ action: { finish: true }, episode_id: "gone" }, 404, "unknown_episode"],
      ["x".repeat(3000), 413, "line_too_long"],
    ];
    for (const [body, status, code] of cases) {
      const answer = await post(`${url}/step`, body);
      assert.equal(answer.status, status, code);
      assert.equal(answer.json.error.code, code);
      assert.ok(answer.json.detail !== undefined, code);
    }
    const validation = await post(`${url}/step`, { action: { finish: "yes" } });
    assert.deepEqual(validation.json.detail[0].loc, ["body", "action", "finish"]);
    const unknownTask = await post(`${url}/reset`, { task_id: "no-such-task" });
    assert.equal(unknownTask.status, 404);
    assert.equal(unknownTask.json.error.code, "unknown_task");
    const { json } = await post(`${url}/reset`, { task_id: "py-median-even" });
    const done = await post(`${url}/step`, {
      action: { finish: true },
      episode_id: json.observation.episode_id,
    });
    assert.equal(done.json.observation.stop_reason, "finished");
    const again = await post(`${url}/step`, {
      action: { message: call("inspect_tree", {}) },
      episode_id: json.observation.episode_id,
    });
    assert.equal(again.status, 409);
    assert.equal(again.json.error.code, "episode_done");
    assert.equal(server.open, 1);
  });
});

Deno.test("HttpFront speaks OpenEnv's WebSocket session: reset, step, state, errors, close", async () => {
  await withHttp({}, async ({ url, server }) => {
    const s = await socket(url);
    const reset = await s.ask({ type: "reset", data: { task_id: "py-median-even" } });
    assert.equal(reset.type, "observation");
    assert.deepEqual(Object.keys(reset.data).sort(), ["done", "observation", "reward"]);
    const step = await s.ask({
      type: "step",
      data: { message: call("apply_patch", { patch: SOLUTION }) },
    });
    assert.equal(step.type, "observation");
    assert.equal(step.data.done, false);
    const state = await s.ask({ type: "state" });
    assert.equal(state.type, "state");
    assert.equal(state.data.step_count, 1);
    assert.equal((await s.ask("{nope")).data.code, "INVALID_JSON");
    assert.equal((await s.ask({ type: "dance" })).data.code, "UNKNOWN_TYPE");
    const invalid = await s.ask({ type: "step", data: { finish: 3 } });
    assert.equal(invalid.data.code, "VALIDATION_ERROR");
    assert.equal(invalid.data.error_code, "bad_request");
    const last = await s.ask({ type: "step", data: { finish: true } });
    assert.equal(last.data.done, true);
    assert.equal(last.data.reward, 1);
    const after = await s.ask({ type: "step", data: { message: call("inspect_tree", {}) } });
    assert.equal(after.data.code, "EXECUTION_ERROR");
    assert.equal(after.data.error_code, "episode_done");
    // A new reset replaces the session's episode.
    await s.ask({ type: "reset", data: { seed: 1 } });
    assert.equal(server.open, 1);
    s.ws.send(JSON.stringify({ type: "close" }));
    assert.equal((await s.closed).code, 1000);
    assert.equal(server.open, 0);
  });
});

Deno.test("HttpFront answers native requests on /ws by id, many episodes per connection", async () => {
  await withHttp({}, async ({ url }) => {
    const s = await socket(url);
    s.ws.send(JSON.stringify({ op: "reset", id: "a", task_id: "py-median-even" }));
    s.ws.send(JSON.stringify({ op: "reset", id: "b", task_id: "py-median-even" }));
    const resets = [await s.next(), await s.next()];
    const ids = Object.fromEntries(resets.map((r) => [r.id, r.episode_id]));
    assert.notEqual(ids.a, ids.b);
    s.ws.send(JSON.stringify({ op: "finish", id: "fa", episode_id: ids.a }));
    s.ws.send(
      JSON.stringify({
        op: "step",
        id: "sb",
        episode_id: ids.b,
        message: call("inspect_tree", {}),
      }),
    );
    const answers = [await s.next(), await s.next()];
    const byId = Object.fromEntries(answers.map((a) => [a.id, a]));
    assert.equal(byId.fa.stop_reason, "finished");
    assert.equal(byId.sb.done, false);
    const bad = await s.ask('{"id": 5, "op": "state", oops');
    assert.equal(bad.id, 5);
    assert.equal(bad.error.code, "bad_json");
    s.ws.close();
    await s.closed;
    // A dropped connection leaves its episodes open: a new one goes on by id.
    const again = await socket(url);
    const step = await again.ask({
      op: "step",
      id: 1,
      episode_id: ids.b,
      message: call("submit", { status: "blocked", summary: "stop" }),
    });
    assert.equal(step.done, true);
    assert.equal(step.stop_reason, "submitted");
    again.ws.close();
    await again.closed;
  });
});

Deno.test("HttpFront caps connections and closes idle ones", async () => {
  await withHttp({ maxConnections: 1, idleTimeoutMs: 1000 }, async ({ url, front, clock }) => {
    const first = await socket(url);
    const second = await socket(url);
    const refused = await second.next();
    assert.equal(refused.data.code, "CAPACITY_REACHED");
    assert.equal((await second.closed).code, 1013);
    assert.equal(front.connections, 1);
    clock.ms = 999;
    assert.equal(front.sweep(), 0);
    clock.ms = 1000;
    assert.equal(front.sweep(), 1);
    await first.closed;
    assert.equal(front.connections, 0);
  });
});

Deno.test("HttpFront refuses an over-size WebSocket frame with its id and goes on", async () => {
  await withHttp({ maxBodyBytes: 1000 }, async ({ url }) => {
    const s = await socket(url);
    const big = await s.ask(`{"id": "big", "op": "tasks", "pad": "${"x".repeat(2000)}"}`);
    assert.equal(big.id, "big");
    assert.equal(big.error.code, "line_too_long");
    assert.equal((await s.ask({ op: "tasks", id: 2 })).id, 2);
    s.ws.close();
    await s.closed;
  });
});

Deno.test("HttpFront takes OpenEnv's MCP actions on step, as its MCPToolClient sends them", async () => {
  await withHttp({}, async ({ url }) => {
    const s = await socket(url);
    try {
      // MCPToolClient.list_tools(): step({"type": "list_tools"}), no reset needed.
      const list = await s.ask({ type: "step", data: { type: "list_tools" } });
      assert.equal(list.type, "observation");
      assert.equal(list.data.done, false);
      assert.ok(
        list.data.observation.tools.some((t: { name: string; inputSchema: unknown }) =>
          t.name === "apply_patch" && t.inputSchema
        ),
      );
      await s.ask({ type: "reset", data: { task_id: "py-median-even" } });
      // MCPToolClient.call_tool(name, **kwargs): the result's "data" is what it returns.
      const patched = await s.ask({
        type: "step",
        data: { type: "call_tool", tool_name: "apply_patch", arguments: { patch: SOLUTION } },
      });
      const observation = patched.data.observation;
      assert.equal(observation.tool_name, "apply_patch");
      assert.equal(observation.error, null);
      assert.equal(observation.result.isError, false);
      assert.match(observation.result.data, /summary\.py/);
      assert.equal(observation.messages[0].role, "tool");
      assert.equal(patched.data.done, false);
      const unknown = await s.ask({
        type: "step",
        data: { type: "call_tool", tool_name: "nope", arguments: {} },
      });
      assert.equal(unknown.data.observation.error.error_type, "tool_not_found");
      assert.equal(unknown.data.observation.result, null);
      assert.equal((await s.ask({ type: "state" })).data.step_count, 1);
      const invalid = await s.ask({ type: "step", data: { type: "call_tool" } });
      assert.equal(invalid.data.error_code, "bad_request");
      const submitted = await s.ask({
        type: "step",
        data: {
          type: "call_tool",
          tool_name: "submit",
          arguments: { status: "solved", summary: "fixed" },
        },
      });
      assert.equal(submitted.data.done, true);
      assert.equal(submitted.data.reward, 1);
      assert.equal(submitted.data.observation.record.turns.length, 2);
    } finally {
      s.ws.close();
      await s.closed;
    }
    // Over HTTP the action names its episode, as any step does.
    const reset = await post(`${url}/reset`, { task_id: "py-median-even" });
    const step = await post(`${url}/step`, {
      action: { type: "call_tool", tool_name: "inspect_tree", arguments: {} },
      episode_id: reset.json.observation.episode_id,
    });
    assert.equal(step.status, 200);
    assert.match(step.json.observation.result.data, /stats\//);
    const nowhere = await post(`${url}/step`, { action: { type: "call_tool", tool_name: "x" } });
    assert.equal(nowhere.status, 404);
    assert.equal(nowhere.json.error.code, "unknown_episode");
  });
});

Deno.test("HttpFront refuses requests a web page of another origin sends", async () => {
  await withHttp({}, async ({ url }) => {
    const reset = JSON.stringify({ task_id: "py-median-even" });
    for (
      const [path, init] of [
        ["/reset", { method: "POST", body: reset }],
        ["/mcp", {
          method: "POST",
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
        }],
        ["/ws", { headers: { upgrade: "websocket" } }],
      ] as const
    ) {
      for (const origin of ["http://attacker.example", "null"]) {
        const response = await fetch(`${url}${path}`, {
          ...init,
          headers: { ...("headers" in init ? init.headers : {}), origin },
        });
        assert.equal(response.status, 403, `${path} from ${origin}`);
        assert.match((await response.json()).detail, /Cross-origin requests are refused/);
      }
    }
    // DNS rebinding: a page of a name the attacker points at this machine sends its own origin
    // as Host too; that name is not a loopback one.
    // (fetch sets Host itself, so the request is written by hand.)
    const port = Number(new URL(url).port);
    const host = `rebound.attacker.example:${port}`;
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(new TextEncoder().encode(
      `POST /reset HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${reset.length}\r\n` +
        `Connection: close\r\n\r\n${reset}`,
    ));
    const answer = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
    assert.match(answer, /^HTTP\/1\.1 403 /);
    // Its own origin (a page the server itself would serve) and no origin (any trainer) are fine.
    const own = await fetch(`${url}/health`, { headers: { origin: url } });
    assert.equal(own.status, 200);
    await own.body?.cancel();
  });
});

Deno.test("HttpFront answers a frame whose type cannot be turned into text, and keeps serving", async () => {
  // Attack: {"type":{"toString":1}} made `String(type)` throw inside the frame's promise, an
  // unhandled rejection that ended the whole server process.
  await withHttp({}, async ({ url, front }) => {
    const s = await socket(url);
    try {
      const odd = await s.ask({ type: { toString: 1, valueOf: 2 }, id: 7 });
      assert.equal(odd.type, "error");
      assert.equal(odd.data.code, "UNKNOWN_TYPE");
      assert.match(odd.data.message, /toString/);
      assert.equal((await s.ask({ type: "state" })).type, "state");
      assert.equal(front.connections, 1);
    } finally {
      s.ws.close();
      await s.closed;
    }
  });
});

Deno.test("HttpFront answers a malformed WebSocket upgrade with 400, not 500", async () => {
  await withHttp({}, async ({ url }) => {
    for (const path of ["/ws", "/mcp"]) {
      const response = await fetch(`${url}${path}`, { headers: { upgrade: "websocket" } });
      assert.equal(response.status, 400, path);
      const body = await response.json();
      assert.equal(body.error.code, "bad_request", path);
      assert.match(body.detail, /WebSocket upgrade/);
    }
  });
});

Deno.test("HttpFront bounds the bytes of requests in flight: a held body turns the next ones away", async () => {
  // Attack: bodies and frames each under the size cap, but many at once (slow bodies, frames
  // queued behind a busy episode) held the orchestrator's memory without bound.
  await withHttp({ maxBodyBytes: 1000, maxPendingBytes: 1500 }, async ({ url, front }) => {
    const encoder = new TextEncoder();
    let feed!: ReadableStreamDefaultController<Uint8Array>;
    const slow = fetch(`${url}/reset`, {
      method: "POST",
      body: new ReadableStream({ start: (controller) => void (feed = controller) }),
    });
    const head = `{"task_id": "py-median-even", "pad": "${"x".repeat(860)}`;
    feed.enqueue(encoder.encode(head));
    while (front.pendingBytes < head.length) await new Promise((r) => setTimeout(r, 10));
    const refused = await post(`${url}/step`, { action: { finish: true }, pad: "y".repeat(800) });
    assert.equal(refused.status, 503);
    assert.equal(refused.json.error.code, "too_busy");
    const mcp = await post(`${url}/mcp`, {
      jsonrpc: "2.0",
      id: 9,
      method: "ping",
      pad: "z".repeat(800),
    });
    assert.equal(mcp.json.error.data.error_code, "too_busy");
    const s = await socket(url);
    try {
      const frame = await s.ask({ op: "tasks", id: "f", pad: "w".repeat(800) });
      assert.equal(frame.id, "f");
      assert.equal(frame.error.code, "too_busy");
      feed.enqueue(encoder.encode(`"}`));
      feed.close();
      const reset = await slow;
      assert.equal(reset.status, 200);
      await reset.body?.cancel();
      assert.equal(front.pendingBytes, 0);
      // Answered: the room is free again, for bodies and frames alike.
      assert.equal((await s.ask({ op: "tasks", id: "g", pad: "w".repeat(800) })).id, "g");
      const step = await post(`${url}/step`, { action: { finish: true }, pad: "y".repeat(800) });
      assert.equal(step.json.error.code, "unknown_episode");
      assert.equal(front.pendingBytes, 0);
    } finally {
      s.ws.close();
      await s.closed;
    }
  });
});

Deno.test("HttpFront on a loopback address refuses a Host that is not a loopback name", async () => {
  // Attack: after DNS rebinding, a page's same-origin GET carries no Origin, so it read /tasks
  // (and any GET route) through a name the attacker points at 127.0.0.1.
  await withHttp({}, async ({ url }) => {
    const port = Number(new URL(url).port);
    const get = async (host: string) => {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      await conn.write(new TextEncoder().encode(
        `GET /tasks HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ));
      return new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
    };
    for (const host of [`rebound.attacker.example:${port}`, `localhost.:${port}`, "10.0.0.1"]) {
      const answer = await get(host);
      assert.match(answer, /^HTTP\/1\.1 403 /, host);
      assert.match(answer, /loopback/, host);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "LOCALHOST", `[::1]:${port}`]) {
      assert.match(await get(host), /^HTTP\/1\.1 200 /, host);
    }
  });
});

Deno.test("HttpFront drops a request body that stalls for the idle timeout and frees its bytes", async () => {
  // Attack: slowloris bodies that never finish held their connection and their bytes in flight
  // forever, so a few of them kept every other request out (too_busy).
  await withHttp({ idleTimeoutMs: 1000 }, async ({ url, front, clock }) => {
    let feed!: ReadableStreamDefaultController<Uint8Array>;
    const slow = fetch(`${url}/reset`, {
      method: "POST",
      body: new ReadableStream({ start: (controller) => void (feed = controller) }),
    });
    feed.enqueue(new TextEncoder().encode('{"task_id": "py-median-even"'));
    while (front.pendingBytes === 0) await new Promise((r) => setTimeout(r, 10));
    clock.ms = 999;
    assert.equal(front.sweep(), 0);
    clock.ms = 1000;
    assert.equal(front.sweep(), 1);
    const answer = await slow;
    assert.equal(answer.status, 408);
    assert.equal((await answer.json()).error.code, "too_slow");
    assert.equal(front.pendingBytes, 0);
    // The server closed the connection of the unfinished body, which ends the upload's stream.
    try {
      feed.close();
    } catch {
      // Already cancelled.
    }
  });
});
