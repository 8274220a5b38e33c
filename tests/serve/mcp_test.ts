/** MCP over `serve --http`: real HTTP (fetch) and WebSocket clients against a real server. */
import assert from "node:assert/strict";
import { TOOLS } from "../../src/tools/registry.ts";
import { call, type Json, post, socket, SOLUTION, withHttp } from "./_http.ts";

/** A JSON-RPC request. */
function rpc(id: string | number | null, method: string, params?: Record<string, unknown>) {
  return { jsonrpc: "2.0", id, method, ...(params ? { params } : {}) };
}

/** POST one JSON-RPC request (or raw text) to /mcp; every answer is 200 with a JSON-RPC body. */
async function mcp(url: string, body: unknown): Promise<Json> {
  const { status, json } = await post(`${url}/mcp`, body);
  assert.equal(status, 200);
  assert.equal(json.jsonrpc, "2.0");
  return json;
}

async function createSession(url: string, params: Record<string, unknown>): Promise<string> {
  const answer = await mcp(url, rpc("create", "openenv/session/create", params));
  assert.ok(answer.result, JSON.stringify(answer));
  return answer.result.session_id;
}

function assertError(answer: Json, id: unknown, code: number, errorCode: string): void {
  assert.equal(answer.id, id, JSON.stringify(answer));
  assert.equal(answer.result, undefined);
  assert.equal(answer.error.code, code, JSON.stringify(answer));
  assert.equal(answer.error.data.error_code, errorCode, JSON.stringify(answer));
  assert.equal(typeof answer.error.message, "string");
}

const FILE = "stats/summary.py";

Deno.test("mcpRequest() lists every agent tool over POST /mcp, with or without a session", async () => {
  await withHttp({}, async ({ url }) => {
    const answer = await mcp(url, rpc(1, "tools/list"));
    assert.deepEqual(Object.keys(answer).sort(), ["id", "jsonrpc", "result"]);
    assert.equal(answer.id, 1);
    const tools = answer.result.tools;
    assert.deepEqual(tools.map((t: Json) => t.name), TOOLS.map((t) => t.name));
    for (const tool of tools) {
      assert.deepEqual(Object.keys(tool).sort(), ["description", "inputSchema", "name"]);
      assert.equal(tool.inputSchema.type, "object");
      assert.ok(tool.description.length > 0);
    }
    const sessionId = await createSession(url, { task_id: "py-median-even" });
    const named = await mcp(url, rpc("l2", "tools/list", { session_id: sessionId }));
    assert.deepEqual(named.result.tools, tools);
  });
});

Deno.test("mcpRequest() runs each kind of tool as a step of its session and grades a submit", async () => {
  await withHttp({}, async ({ url, server }) => {
    const create = await mcp(
      url,
      rpc(0, "openenv/session/create", { task_id: "py-median-even", limits: { max_turns: 20 } }),
    );
    const sessionId = create.result.session_id;
    assert.equal(create.result.episode_id, sessionId);
    assert.equal(create.result.task.id, "py-median-even");
    assert.equal(create.result.limits.max_turns, 20);
    assert.ok(Array.isArray(create.result.messages));
    const calls: [string, Record<string, unknown>, RegExp][] = [
      ["inspect_tree", {}, /stats\//],
      ["list_files", { glob: "*.py" }, /summary\.py/],
      ["read_file", { path: FILE }, /def median/],
      ["search", { pattern: "def median" }, /summary\.py/],
      ["write_file", { path: "notes.txt", content: "plan: fix median\n" }, /notes\.txt/],
      ["replace_text", { path: "notes.txt", old: "plan", new: "done" }, /notes\.txt/],
      ["run_command", { argv: ["python3", "-c", "print(6 * 7)"] }, /42/],
      ["apply_patch", { patch: SOLUTION }, /summary\.py/],
      ["run_tests", {}, /passed/],
    ];
    let id = 1;
    for (const [name, args, output] of calls) {
      const answer = await mcp(
        url,
        rpc(id, "tools/call", { session_id: sessionId, name, arguments: args }),
      );
      assert.equal(answer.id, id++);
      const result = answer.result;
      assert.deepEqual(
        Object.keys(result).sort(),
        ["content", "data", "isError", "structuredContent"],
        name,
      );
      assert.equal(result.isError, false, `${name}: ${result.data}`);
      assert.equal(result.content.length, 1);
      assert.equal(result.content[0].type, "text");
      assert.match(result.content[0].text, output, name);
      assert.equal(result.data, result.content[0].text);
      const facts = result.structuredContent;
      assert.equal(facts.episode_id, sessionId);
      assert.equal(facts.done, false);
      assert.equal(facts.reward, 0);
      assert.equal(facts.info.tool.name, name);
      assert.equal(facts.info.turns, id - 1);
    }
    // A tool's own failure is an observation for the model: a step, isError, the code in the text.
    const missing = await mcp(
      url,
      rpc("m", "tools/call", {
        session_id: sessionId,
        name: "read_file",
        arguments: { path: "nope.py" },
      }),
    );
    assert.equal(missing.result.isError, true);
    assert.match(missing.result.content[0].text, /^Error \[not_found\]/);
    assert.equal(missing.result.structuredContent.info.tool.code, "not_found");
    // So are arguments that do not fit the tool's schema, as when a model sends them.
    const invalid = await mcp(
      url,
      rpc("i", "tools/call", { session_id: sessionId, name: "read_file", arguments: { p: 1 } }),
    );
    assert.equal(invalid.result.isError, true);
    assert.equal(invalid.result.structuredContent.info.tool.code, "invalid_input");
    // The workspace guard applies as on any step.
    const escape = await mcp(
      url,
      rpc("e", "tools/call", {
        session_id: sessionId,
        name: "read_file",
        arguments: { path: "../../../etc/passwd" },
      }),
    );
    assert.equal(escape.result.isError, true);
    assert.equal(escape.result.structuredContent.info.tool.code, "path_outside_workspace");

    const submit = await mcp(
      url,
      rpc("s", "tools/call", {
        session_id: sessionId,
        name: "submit",
        arguments: { status: "solved", summary: "median averages the two middle values" },
      }),
    );
    const facts = submit.result.structuredContent;
    assert.equal(submit.result.isError, false);
    assert.equal(facts.done, true);
    assert.equal(facts.terminated, true);
    assert.equal(facts.truncated, false);
    assert.equal(facts.stop_reason, "submitted");
    assert.equal(facts.reward, 1);
    assert.equal(facts.record.reward.resolved, true);
    assert.equal(facts.record.episode_id, sessionId);
    assert.deepEqual(
      facts.record.turns.map((t: Json) => t.tool.name),
      [...calls.map(([name]) => name), "read_file", "read_file", "read_file", "submit"],
    );
    assert.equal(facts.record.reward.components.invalid_tool_calls, 1);
    // The native protocol sees the same episode, ended.
    const state = await server.request({ op: "state", episode_id: sessionId });
    assert.equal(state.done, true);
    assert.equal(state.step_count, calls.length + 4);
  });
});

Deno.test("mcpRequest() answers every error with JSON-RPC's code, patchgym's and the id", async () => {
  await withHttp(
    { maxBodyBytes: 4000, maxEpisodes: 2, episodeIdleMs: 1000 },
    async ({ url, server, clock }) => {
      // Not JSON: -32700; the id is echoed when it can be read before the fault, else null.
      assertError(await mcp(url, "{oops"), null, -32700, "bad_json");
      assertError(await mcp(url, '{"jsonrpc":"2.0","id":5,"method":'), 5, -32700, "bad_json");
      // Not a JSON-RPC request: -32600.
      assertError(await mcp(url, { id: 1, method: "tools/list" }), 1, -32600, "bad_request");
      assertError(
        await mcp(url, { jsonrpc: "2.0", id: "p", method: "tools/list", params: [1] }),
        "p",
        -32600,
        "bad_request",
      );
      assertError(await mcp(url, [rpc(1, "tools/list")]), null, -32600, "bad_request");
      assertError(
        await mcp(url, { ...rpc(2, "tools/list"), extra: true }),
        2,
        -32600,
        "bad_request",
      );
      // Bounded: nesting and size, both before parsing.
      assertError(
        await mcp(url, `{"jsonrpc":"2.0","id":3,"params":${"[".repeat(100)}${"]".repeat(100)}}`),
        3,
        -32600,
        "too_deep",
      );
      assertError(
        await mcp(url, `{"jsonrpc":"2.0","id":4,"pad":"${"x".repeat(5000)}"}`),
        null,
        -32600,
        "line_too_long",
      );
      assertError(await mcp(url, rpc(6, "resources/list")), 6, -32601, "unknown_method");

      const sessionId = await createSession(url, { task_id: "py-median-even" });
      const missingName = await mcp(url, rpc(7, "tools/call", { session_id: sessionId }));
      assertError(missingName, 7, -32602, "bad_request");
      assert.match(missingName.error.message, /name/);
      assertError(
        await mcp(
          url,
          rpc(8, "tools/call", { session_id: sessionId, name: "read_file", arguments: "x" }),
        ),
        8,
        -32602,
        "bad_request",
      );
      const unknownTool = await mcp(
        url,
        rpc(9, "tools/call", { session_id: sessionId, name: "rm_rf", arguments: {} }),
      );
      assertError(unknownTool, 9, -32602, "unknown_tool");
      assert.match(unknownTool.error.message, /read_file/);
      // Refused before any step: nothing in the episode.
      assert.equal((await server.request({ op: "state", episode_id: sessionId })).step_count, 0);
      assertError(
        await mcp(url, rpc(10, "tools/call", { name: "inspect_tree" })),
        10,
        -32602,
        "unknown_episode",
      );
      assertError(
        await mcp(url, rpc(11, "tools/call", { session_id: "nobody", name: "inspect_tree" })),
        11,
        -32602,
        "unknown_episode",
      );
      assertError(
        await mcp(url, rpc(12, "tools/list", { session_id: "nobody" })),
        12,
        -32602,
        "unknown_episode",
      );
      assertError(
        await mcp(url, rpc(13, "openenv/session/create", { limits: { max_turns: "many" } })),
        13,
        -32602,
        "bad_request",
      );
      // No options at all (OpenEnv's client in production mode): a task picked by a random seed.
      const open = await mcp(url, rpc(13.5, "openenv/session/create", {}));
      assert.equal(typeof open.result.seed, "number");
      assert.equal(open.result.session_id, open.result.episode_id);
      const closing = { session_id: open.result.session_id };
      assert.equal(
        (await mcp(url, rpc(13.6, "openenv/session/close", closing))).result.closed,
        true,
      );
      assertError(
        await mcp(url, rpc(14, "openenv/session/create", { task_id: "no-such-task" })),
        14,
        -32602,
        "unknown_task",
      );
      assertError(
        await mcp(url, rpc(15, "openenv/session/create", { task_id: "py-median-even", seed: -1 })),
        15,
        -32602,
        "bad_request",
      );
      assertError(
        await mcp(url, rpc(16, "openenv/session/create", { episode_id: sessionId, seed: 0 })),
        16,
        -32602,
        "episode_exists",
      );
      const other = await createSession(url, { seed: 1 });
      assertError(
        await mcp(url, rpc(17, "openenv/session/create", { seed: 2 })),
        17,
        -32000,
        "too_many_episodes",
      );
      // Ended: a further call is refused.
      await mcp(
        url,
        rpc(18, "tools/call", {
          session_id: other,
          name: "submit",
          arguments: {
            status: "blocked",
            summary: "stop",
          },
        }),
      );
      assertError(
        await mcp(url, rpc(19, "tools/call", { session_id: other, name: "inspect_tree" })),
        19,
        -32000,
        "episode_done",
      );
      // Closing: needs an id, is idempotent, then the session is gone.
      assertError(
        await mcp(url, rpc(20, "openenv/session/close", {})),
        20,
        -32602,
        "bad_request",
      );
      const closed = await mcp(url, rpc(21, "openenv/session/close", { session_id: other }));
      assert.deepEqual(closed.result, { session_id: other, closed: true });
      assert.deepEqual(
        (await mcp(url, rpc(22, "openenv/session/close", { session_id: other }))).result,
        { session_id: other, closed: true },
      );
      assertError(
        await mcp(url, rpc(23, "openenv/session/close", { session_id: "nobody" })),
        23,
        -32602,
        "unknown_episode",
      );
      // Idle past the core's timeout: expired, with its own code.
      clock.ms = 1000;
      assertError(
        await mcp(url, rpc(24, "tools/call", { session_id: sessionId, name: "inspect_tree" })),
        24,
        -32602,
        "episode_expired",
      );
      assert.equal(server.open, 0);
    },
  );
});

Deno.test("HttpFront binds a WebSocket /mcp connection to the episode it creates", async () => {
  await withHttp({ maxBodyBytes: 4000 }, async ({ url, server }) => {
    const a = await socket(url, "/mcp");
    const b = await socket(url, "/mcp");
    try {
      const none = await a.ask(rpc(1, "tools/call", { name: "inspect_tree" }));
      assertError(none, 1, -32602, "unknown_episode");
      assert.equal((await a.ask(rpc(2, "tools/list"))).result.tools.length, TOOLS.length);
      const first = (await a.ask(rpc(3, "openenv/session/create", { task_id: "py-median-even" })))
        .result.session_id;
      const episodeB = (await b.ask(rpc(1, "openenv/session/create", { seed: 0 }))).result
        .session_id;
      // A second session on a connection replaces its episode.
      const episodeA =
        (await a.ask(rpc(4, "openenv/session/create", { task_id: "py-median-even" })))
          .result.session_id;
      assert.notEqual(episodeA, first);
      assert.equal(server.open, 2);
      // Sent without waiting: answered in order, each on its connection's own episode.
      a.ws.send(JSON.stringify(rpc(5, "tools/call", {
        name: "write_file",
        arguments: { path: "a.txt", content: "a\n" },
      })));
      a.ws.send(
        JSON.stringify(rpc(6, "tools/call", { name: "read_file", arguments: { path: "a.txt" } })),
      );
      const [wrote, read] = [await a.next(), await a.next()];
      assert.equal(wrote.id, 5);
      assert.equal(read.id, 6);
      assert.equal(read.result.structuredContent.episode_id, episodeA);
      assert.match(read.result.content[0].text, /a$/m);
      const elsewhere = await b.ask(rpc(2, "tools/call", {
        name: "read_file",
        arguments: { path: "a.txt" },
      }));
      assert.equal(elsewhere.result.isError, true);
      assert.equal(elsewhere.result.structuredContent.episode_id, episodeB);
      assert.equal((await server.request({ op: "state", episode_id: episodeB })).step_count, 1);
      // Bad frames: JSON-RPC errors with the id when it can be read; the connection goes on.
      assertError(await a.ask('{"jsonrpc":"2.0","id":"x",oops'), "x", -32700, "bad_json");
      assertError(
        await a.ask(`{"jsonrpc":"2.0","id":"big","pad":"${"x".repeat(5000)}"}`),
        "big",
        -32600,
        "line_too_long",
      );
      assertError(await a.ask(rpc(7, "nope")), 7, -32601, "unknown_method");
      // Closing the connection's session leaves it without one.
      const closed = await a.ask(rpc(8, "openenv/session/close"));
      assert.deepEqual(closed.result, { session_id: episodeA, closed: true });
      assertError(
        await a.ask(rpc(9, "tools/call", { name: "inspect_tree" })),
        9,
        -32602,
        "unknown_episode",
      );
    } finally {
      a.ws.close();
      b.ws.close();
      await a.closed;
      await b.closed;
    }
  });
});

Deno.test("HttpFront answers OpenEnv's MCP messages on /ws on the session's episode", async () => {
  await withHttp({}, async ({ url }) => {
    const s = await socket(url);
    try {
      const list = await s.ask({ type: "mcp", data: rpc(1, "tools/list") });
      assert.equal(list.type, "mcp");
      assert.equal(list.data.id, 1);
      assert.equal(list.data.result.tools.length, TOOLS.length);
      assertError(
        (await s.ask({ type: "mcp", data: rpc(2, "tools/call", { name: "inspect_tree" }) })).data,
        2,
        -32602,
        "unknown_episode",
      );
      const reset = await s.ask({ type: "reset", data: { task_id: "py-median-even" } });
      const episodeId = reset.data.observation.episode_id;
      const patched = await s.ask({
        type: "mcp",
        data: rpc(3, "tools/call", { name: "apply_patch", arguments: { patch: SOLUTION } }),
      });
      assert.equal(patched.data.result.isError, false);
      assert.equal(patched.data.result.structuredContent.episode_id, episodeId);
      // OpenEnv's own WebSocket tests: an unknown method and a call without a name.
      const unknown = await s.ask({ type: "mcp", data: rpc(4, "unknown/method") });
      assert.equal(unknown.data.error.code, -32601);
      assert.match(unknown.data.error.message.toLowerCase(), /not found/);
      const noName = await s.ask({
        type: "mcp",
        data: rpc(5, "tools/call", { arguments: { message: "test" } }),
      });
      assert.equal(noName.data.error.code, -32602);
      assert.match(noName.data.error.message.toLowerCase(), /name/);
      assertError((await s.ask({ type: "mcp", data: "x" })).data, null, -32600, "bad_request");
      // The MCP call was a step of the session's episode: a step after it sees it, and grades.
      const state = await s.ask({ type: "state" });
      assert.equal(state.data.step_count, 1);
      const last = await s.ask({
        type: "step",
        data: { message: call("submit", { status: "solved", summary: "fixed" }) },
      });
      assert.equal(last.data.done, true);
      assert.equal(last.data.reward, 1);
    } finally {
      s.ws.close();
      await s.closed;
    }
  });
});

/**
 * A record without what differs between two runs of the same actions: ids, times, durations, and
 * the test runner's own timing in tool output ("Ran 3 tests in 0.002s").
 */
function comparable(record: Json): Json {
  const varying = ["episode_id", "timings", "duration_ms", "latency_ms", "sample", "group_id"];
  return JSON.parse(
    JSON.stringify(record),
    (key, value) =>
      varying.includes(key)
        ? undefined
        : typeof value === "string"
        ? value.replace(/\b\d+\.\d+s\b/g, "<time>")
        : value,
  );
}

Deno.test("mcpRequest() drives an episode to the same graded record as the same steps on /step", async () => {
  await withHttp({}, async ({ url }) => {
    const actions: [string, Record<string, unknown>][] = [
      ["read_file", { path: FILE }],
      ["read_file", { path: "missing.py" }],
      ["apply_patch", { patch: SOLUTION }],
      ["run_tests", {}],
      ["submit", { status: "solved", summary: "median of an even count" }],
    ];
    const sessionId = await createSession(url, { task_id: "py-median-even" });
    let overMcp: Json;
    for (const [i, [name, args]] of actions.entries()) {
      const answer = await mcp(
        url,
        rpc(i, "tools/call", { session_id: sessionId, name, arguments: args }),
      );
      overMcp = answer.result.structuredContent;
    }
    const reset = await post(`${url}/reset`, { task_id: "py-median-even" });
    const episodeId = reset.json.observation.episode_id;
    let overStep: Json;
    for (const [i, [name, args]] of actions.entries()) {
      const step = await post(`${url}/step`, {
        action: { message: call(name, args, `call_${i}`) },
        episode_id: episodeId,
      });
      overStep = step.json;
    }
    assert.equal(overMcp.reward, 1);
    assert.equal(overStep.reward, overMcp.reward);
    assert.equal(overStep.observation.stop_reason, overMcp.stop_reason);
    assert.deepEqual(comparable(overMcp.record), comparable(overStep.observation.record));
    assert.deepEqual(comparable(overMcp.info), comparable(overStep.observation.info));
  });
});

Deno.test("mcpRequest() answers an MCP client's handshake: initialize, initialized, ping", async () => {
  await withHttp({}, async ({ url }) => {
    const init = await mcp(
      url,
      rpc(1, "initialize", {
        protocolVersion: "2025-03-26",
        capabilities: {},
        clientInfo: { name: "test-client", version: "1" },
      }),
    );
    assert.equal(init.result.protocolVersion, "2025-03-26");
    assert.deepEqual(init.result.capabilities, { tools: { listChanged: false } });
    assert.equal(init.result.serverInfo.name, "patchgym");
    // A version it does not know: it offers its newest.
    const newer = await mcp(url, rpc(2, "initialize", { protocolVersion: "2099-01-01" }));
    assert.equal(newer.result.protocolVersion, "2025-06-18");
    // The notification after initialize is accepted with no body.
    const response = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    assert.equal(response.status, 202);
    assert.equal(await response.text(), "");
    assert.deepEqual((await mcp(url, rpc(3, "ping"))).result, {});
  });
});

Deno.test("mcpRequest() sends nothing for a notification on a WebSocket", async () => {
  await withHttp({}, async ({ url }) => {
    const ws = await socket(url, "/mcp");
    try {
      ws.ws.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
      // The next frame answers the ping: the notification got no answer of its own.
      assert.deepEqual(await ws.ask(rpc(7, "ping")), { jsonrpc: "2.0", id: 7, result: {} });
    } finally {
      ws.ws.close();
      await ws.closed;
    }
  });
});

/** POST a JSON-RPC request to `/mcp` the way MCP's HTTP transport does, with its session header. */
async function mcpHttp(
  url: string,
  body: unknown,
  session?: string,
): Promise<{ status: number; session: string | null; json: Json }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(session ? { "mcp-session-id": session } : {}),
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    session: response.headers.get("mcp-session-id"),
    json: await response.json(),
  };
}

Deno.test("mcpRequest() keeps an MCP HTTP session: initialize opens an episode, its id in Mcp-Session-Id", async () => {
  await withHttp({}, async ({ url }) => {
    const init = await mcpHttp(
      `${url}/mcp?task_id=py-median-even`,
      rpc(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {} }),
    );
    assert.equal(init.status, 200);
    const session = init.session!;
    assert.match(session, /^py-median-even-/);
    // The task statement comes with the handshake: an MCP client has nothing else to show its agent.
    assert.match(init.json.result.instructions, /median/);
    // Calls with the header act on that episode, naming nothing.
    const read = await mcpHttp(
      `${url}/mcp`,
      rpc(2, "tools/call", { name: "read_file", arguments: { path: FILE } }),
      session,
    );
    assert.equal(read.session, null);
    assert.equal(read.json.result.isError, false);
    assert.match(read.json.result.data, /def median/);
    await mcpHttp(
      `${url}/mcp`,
      rpc(3, "tools/call", { name: "apply_patch", arguments: { patch: SOLUTION } }),
      session,
    );
    const submit = await mcpHttp(
      `${url}/mcp`,
      rpc(4, "tools/call", { name: "submit", arguments: { status: "solved", summary: "sorted" } }),
      session,
    );
    assert.equal(submit.json.result.structuredContent.reward, 1);
    // MCP ends a session with DELETE; then the session is gone: 404, so a client starts anew.
    const end = await fetch(`${url}/mcp`, {
      method: "DELETE",
      headers: { "mcp-session-id": session },
    });
    assert.equal(end.status, 204);
    await end.body?.cancel();
    const after = await mcpHttp(`${url}/mcp`, rpc(5, "tools/list", {}), session);
    assert.equal(after.status, 200); // Listing needs no episode.
    const gone = await mcpHttp(
      `${url}/mcp`,
      rpc(6, "tools/call", { name: "inspect_tree", arguments: {} }),
      session,
    );
    assert.equal(gone.status, 404);
    assertError(gone.json, 6, -32602, "unknown_episode");
  });
});

Deno.test("mcpRequest() HTTP session edges: a random task, a bad task, DELETE and GET without a session", async () => {
  await withHttp({}, async ({ url }) => {
    const random = await mcpHttp(`${url}/mcp`, rpc(1, "initialize", {}));
    assert.ok(random.session, "an episode of a random task");
    const bad = await mcpHttp(`${url}/mcp?task_id=no-such-task`, rpc(2, "initialize", {}));
    assert.equal(bad.session, null);
    assertError(bad.json, 2, -32602, "unknown_task");
    const badSeed = await mcpHttp(`${url}/mcp?seed=x`, rpc(3, "initialize", {}));
    assertError(badSeed.json, 3, -32602, "bad_request");
    const noHeader = await fetch(`${url}/mcp`, { method: "DELETE" });
    assert.equal(noHeader.status, 400);
    await noHeader.body?.cancel();
    const unknown = await fetch(`${url}/mcp`, {
      method: "DELETE",
      headers: { "mcp-session-id": "nobody" },
    });
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
    const stream = await fetch(`${url}/mcp`, { headers: { accept: "text/event-stream" } });
    assert.equal(stream.status, 405);
    assert.equal(stream.headers.get("allow"), "POST, DELETE");
    await stream.body?.cancel();
  });
});
