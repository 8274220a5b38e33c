/**
 * `patchgym serve --http` attacked as a stranger on the network would, through the real entry
 * point (main.ts under the launcher's permission flags): each test below is an attack that worked
 * on e48e987, kept as a test.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { concat } from "../../src/bytes.ts";
import { launcherEnv, makeWorkRoot, patchgymArgv, removeWorkRoot, ROOT } from "./_run.ts";
import { programOnPath } from "../_fixtures.ts";
import { permissionFlags, planPermissions } from "../../src/cli/permissions.ts";

/** A running `serve --http` child. */
interface Served {
  url: string;
  port: number;
  child: Deno.ChildProcess;
  /** Everything it printed on stderr so far. */
  log: () => string;
  /** Whether it has exited. */
  exited: () => boolean;
}

const TOKEN_A = "a".repeat(20) + crypto.randomUUID().replaceAll("-", "");
const TOKEN_B = "b".repeat(20) + crypto.randomUUID().replaceAll("-", "");
const OBSERVER = "c".repeat(20) + crypto.randomUUID().replaceAll("-", "");

/** Start `serve --http 127.0.0.1:0 ARGS` (under `prefix`, e.g. prlimit) and run `fn`. */
async function withServe(
  args: string[],
  fn: (served: Served) => Promise<void>,
  options: { tokens?: string; prefix?: string[] } = {},
): Promise<void> {
  const work = makeWorkRoot("http");
  const secrets = Deno.makeTempDirSync({ prefix: "patchgym-tokens-" });
  const tokenFile = join(secrets, "tokens");
  Deno.writeTextFileSync(
    tokenFile,
    options.tokens ??
      `${TOKEN_A} name=a sessions=2 resets=3\n${TOKEN_B} name=b sessions=2\n${OBSERVER} name=dash role=observe\n`,
    { mode: 0o600 },
  );
  const argv = [
    ...(options.prefix ?? []),
    ...patchgymArgv([
      "serve",
      "--http",
      "127.0.0.1:0",
      "--work-dir",
      work,
      "--token-file",
      tokenFile,
      "--max-episodes",
      "4",
      ...args,
    ]),
  ];
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: ROOT,
    env: launcherEnv(),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  let done = false;
  const status = child.status.then((s) => {
    done = true;
    return s;
  });
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) text += decoder.decode(chunk, { stream: true });
  })();
  try {
    const listening = /listening on (https?):\/\/127\.0\.0\.1:(\d+)/;
    while (!listening.test(text)) {
      if (done) throw new Error(`serve exited before listening:\n${text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const [, scheme, portText] = listening.exec(text)!;
    const port = Number(portText);
    await fn({
      url: `${scheme}://127.0.0.1:${port}`,
      port,
      child,
      log: () => text,
      exited: () => done,
    });
  } finally {
    try {
      child.kill("SIGTERM");
    } catch {
      // Exited.
    }
    await status;
    await reading;
    removeWorkRoot(work);
    Deno.removeSync(secrets, { recursive: true });
  }
}

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: "POST", body: JSON.stringify(body), headers });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

const RUN = {
  role: "assistant",
  content: null,
  tool_calls: [{
    id: "c1",
    type: "function",
    function: { name: "run_command", arguments: { argv: ["echo", "pwned"] } },
  }],
};

Deno.test("serveCommand() --http refuses an anonymous reset and step: no token, no command", async () => {
  // Attack: on e48e987 an anonymous POST /reset then /step ran a command of the caller's choosing.
  await withServe([], async ({ url }) => {
    const reset = await post(`${url}/reset`, { task_id: "py-median-even" });
    assert.equal(reset.status, 401);
    assert.match(reset.headers.get("www-authenticate") ?? "", /Bearer/);
    const wrong = await post(`${url}/reset`, { task_id: "py-median-even" }, bearer("x".repeat(40)));
    assert.equal(wrong.status, 401);
    const step = await post(`${url}/step`, { action: { message: RUN }, episode_id: "guess" });
    assert.equal(step.status, 401);
    for (const path of ["/tasks", "/state", "/metrics", "/ws", "/mcp"]) {
      const response = await fetch(`${url}${path}`);
      await response.body?.cancel();
      assert.equal(response.status, 401, path);
    }
    const mcp = await post(`${url}/mcp`, { jsonrpc: "2.0", id: 1, method: "initialize" });
    assert.equal(mcp.status, 401);
    // Health and metadata stay open.
    assert.equal((await fetch(`${url}/health`).then((r) => r.json())).status, "healthy");
    // The token, as Bearer and as the password of HTTP Basic (credentials written in the URL).
    const ok = await post(`${url}/reset`, { task_id: "py-median-even" }, bearer(TOKEN_A));
    assert.equal(ok.status, 200);
    const episode = ok.json.observation.episode_id;
    const basic = { authorization: `Basic ${btoa(`patchgym:${TOKEN_A}`)}` };
    const stepped = await post(
      `${url}/step`,
      { action: { message: RUN }, episode_id: episode },
      basic,
    );
    assert.equal(stepped.status, 200);
    assert.match(stepped.json.observation.info.tool.output, /pwned/);
    // An observer reads but cannot act.
    const observed = await post(`${url}/reset`, {}, bearer(OBSERVER));
    assert.equal(observed.status, 403);
    const metrics = await fetch(`${url}/metrics`, { headers: bearer(OBSERVER) }).then((r) =>
      r.json()
    );
    assert.equal(metrics.episodes_open, 1);
    assert.deepEqual(metrics.tokens.map((t: { name: string }) => t.name), ["a", "b", "dash"]);
  });
});

Deno.test("serveCommand() --http gives each token its own session slots and reset rate", async () => {
  // Attack: on e48e987 one client opened every session slot and held them; the trainer's next
  // reset got too_many_episodes.
  await withServe([], async ({ url }) => {
    const opened: string[] = [];
    for (let i = 0; i < 2; i++) {
      const answer = await post(`${url}/reset`, { task_id: "py-median-even" }, bearer(TOKEN_A));
      assert.equal(answer.status, 200);
      opened.push(answer.json.observation.episode_id);
    }
    const over = await post(`${url}/reset`, { task_id: "py-median-even" }, bearer(TOKEN_A));
    assert.equal(over.status, 429);
    assert.equal(over.json.error.code, "over_quota");
    assert.ok(Number(over.headers.get("retry-after")) >= 1);
    // B's slots are B's: A holding all of its own takes none of them.
    const b = await post(`${url}/reset`, { task_id: "py-median-even" }, bearer(TOKEN_B));
    assert.equal(b.status, 200);
    // And A cannot touch B's episode, not even to learn that it exists.
    const foreign = await post(
      `${url}/step`,
      { action: { message: RUN }, episode_id: b.json.observation.episode_id },
      bearer(TOKEN_A),
    );
    assert.equal(foreign.status, 404);
    // A's third reset of the minute (resets=3) still goes; its fourth waits.
    await post(`${url}/step`, { action: { finish: true }, episode_id: opened[0] }, bearer(TOKEN_A));
    const ws = new WebSocket(`${url.replace("http", "ws")}/ws`, {
      headers: bearer(TOKEN_A),
    } as unknown as string[]);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    const answers: Record<string, unknown>[] = [];
    ws.onmessage = (event) => answers.push(JSON.parse(event.data));
    ws.send(JSON.stringify({ op: "close", id: 1, episode_id: opened[0] }));
    ws.send(JSON.stringify({ op: "reset", id: 2, task_id: "py-median-even" }));
    ws.send(JSON.stringify({ op: "close", id: 3, episode_id: opened[1] }));
    ws.send(JSON.stringify({ op: "reset", id: 4, task_id: "py-median-even" }));
    while (answers.length < 4) await new Promise((r) => setTimeout(r, 20));
    const byId = Object.fromEntries(answers.map((a) => [a.id, a]));
    assert.equal(typeof byId[2].episode_id, "string");
    assert.equal((byId[4].error as { code: string }).code, "over_quota");
    assert.ok((byId[4].error as { retry_after_s: number }).retry_after_s >= 1);
    const closed = new Promise((resolve) => ws.onclose = resolve);
    ws.close();
    await closed;
  });
});

Deno.test("serveCommand() --http refuses --no-auth unless it listens on loopback", async () => {
  const argv = patchgymArgv(["serve", "--http", "0.0.0.0:0", "--no-auth"]);
  const out = await new Deno.Command(argv[0], { args: argv.slice(1), cwd: ROOT, stderr: "piped" })
    .output();
  assert.equal(out.code, 2);
  assert.match(new TextDecoder().decode(out.stderr), /not a loopback address/);
});

/** Open `n` connections that send half a request line and never finish it. */
async function halfOpen(port: number, n: number): Promise<Deno.Conn[]> {
  const conns: Deno.Conn[] = [];
  for (let i = 0; i < n; i++) {
    try {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      await conn.write(new TextEncoder().encode("GET /health HTTP/1.1\r\nHost: 127"));
      conns.push(conn);
    } catch {
      // Refused or reset by the server: one fewer held.
    }
  }
  return conns;
}

/** Resolves when the server has closed `conn` (end of stream or reset). */
async function closedByServer(conn: Deno.Conn): Promise<void> {
  const buf = new Uint8Array(1024);
  try {
    while ((await conn.read(buf)) !== null);
  } catch {
    // Reset.
  }
}

Deno.test("serveCommand() --http closes 1,500 half-open connections at the header deadline", async () => {
  // Attack: on e48e987, 1,500 connections whose headers never finished were all still held 20 s
  // later. The deadline here is 1 s, so the test waits for the closes, not for a clock.
  await withServe([
    "--header-timeout",
    "1",
    "--max-connections",
    "5000",
    "--max-connections-per-peer",
    "5000",
  ], async ({ url, port, exited }) => {
    const conns = await halfOpen(port, 1500);
    try {
      await Promise.all(conns.map(closedByServer));
    } finally {
      for (const conn of conns) {
        try {
          conn.close();
        } catch {
          // Closed.
        }
      }
    }
    assert.equal(exited(), false);
    const health = await fetch(`${url}/health`).then((r) => r.json());
    assert.equal(health.status, "healthy");
  });
});

Deno.test("serveCommand() --http caps connections per peer and answers the rest 503", async () => {
  await withServe(["--max-connections-per-peer", "5"], async ({ url, port }) => {
    const held = await halfOpen(port, 5);
    try {
      const refused = await fetch(`${url}/health`);
      assert.equal(refused.status, 503);
      await refused.body?.cancel();
    } finally {
      for (const conn of held) conn.close();
    }
    // Its slots free again once its connections close.
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      const response = await fetch(`${url}/health`);
      status = response.status;
      await response.body?.cancel();
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(status, 200);
  });
});

// A refusal written at the accept reached some clients before their request (hyper took it for a
// broken connection: "received unexpected message from connection", seen in CI), and a close with
// the request's body unread was a reset: the client's upload failed and its answer could be lost.
Deno.test("serveCommand() --http answers a refused upload 503 after reading it, and closes cleanly", async () => {
  await withServe(["--max-connections-per-peer", "1"], async ({ port }) => {
    const [held] = await halfOpen(port, 1);
    assert.ok(held, "the first connection was not held");
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    try {
      // Larger than the socket buffers take (on the old code an upload of this size mostly failed:
      // "Broken pipe"), within what a refusal reads.
      const body = new Uint8Array(1536 * 1024).fill(120);
      const head = `POST /reset HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
        `content-length: ${body.length}\r\n\r\n`;
      const parts: Uint8Array[] = [];
      const reading = (async () => {
        const buf = new Uint8Array(4096);
        for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
          parts.push(buf.slice(0, n));
        }
      })().then(() => "closed", (error) => `read failed: ${error}`);
      const sent = await (async () => {
        await conn.write(new TextEncoder().encode(head));
        for (let at = 0; at < body.length;) at += await conn.write(body.subarray(at));
      })().then(() => "sent", (error) => `write failed: ${error}`);
      const ended = await reading;
      const answer = new TextDecoder().decode(concat(parts));
      assert.deepEqual([sent, ended], ["sent", "closed"], answer);
      assert.match(answer, /^HTTP\/1\.1 503 /);
      assert.match(answer, /Too many connections/);
    } finally {
      conn.close();
      held.close();
    }
  });
});

Deno.test({
  name: "serveCommand() --http survives EMFILE under a low open-file limit and keeps its episodes",
  ignore: !programOnPath("prlimit"),
  async fn() {
    // Attack: on e48e987, with the open-file limit at 1,024, ~1,000 half-open connections made
    // accept() fail with EMFILE; the error escaped and the server exited 1, losing its episodes.
    await withServe(
      [
        "--header-timeout",
        "600",
        "--max-connections",
        "5000",
        "--max-connections-per-peer",
        "5000",
      ],
      async ({ url, port, log, exited }) => {
        const reset = await post(`${url}/reset`, { task_id: "py-median-even" }, bearer(TOKEN_A));
        assert.equal(reset.status, 200);
        const episode = reset.json.observation.episode_id;
        const conns = await halfOpen(port, 600);
        try {
          while (!/accept\(\) failed \(EMFILE/.test(log())) {
            assert.equal(exited(), false, log());
            await new Promise((r) => setTimeout(r, 50));
          }
          // The trainer gets in again: the oldest idle connections were shed for it.
          let answer: { status: number; json: Record<string, unknown> } | null = null;
          for (let attempt = 0; attempt < 200 && answer?.status !== 200; attempt++) {
            try {
              answer = await post(
                `${url}/step`,
                { action: { message: RUN }, episode_id: episode },
                bearer(TOKEN_A),
              );
            } catch {
              await new Promise((r) => setTimeout(r, 100));
            }
          }
          assert.equal(answer?.status, 200, log());
          assert.equal(exited(), false);
        } finally {
          for (const conn of conns) {
            try {
              conn.close();
            } catch {
              // Closed.
            }
          }
        }
      },
      { prefix: ["prlimit", "--nofile=256:256"] },
    );
  },
});

Deno.test({
  name:
    "serveCommand() --http --cert --key serves HTTPS with the same tokens, and nothing in clear",
  ignore: !programOnPath("openssl"),
  async fn() {
    const dir = Deno.makeTempDirSync({ prefix: "patchgym-tls-" });
    try {
      const made = new Deno.Command("openssl", {
        args: [
          ...[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
          ],
          ...["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
          ...["-addext", "basicConstraints=critical,CA:FALSE"],
          ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
        ],
        stdout: "null",
        stderr: "null",
      }).outputSync();
      assert.ok(made.success);
      const cert = Deno.readTextFileSync(join(dir, "cert.pem"));
      await withServe(
        ["--cert", join(dir, "cert.pem"), "--key", join(dir, "key.pem")],
        async ({ url }) => {
          assert.match(url, /^https:/);
          const client = Deno.createHttpClient({ caCerts: [cert] });
          try {
            const anonymous = await fetch(`${url}/tasks`, { client });
            await anonymous.body?.cancel();
            assert.equal(anonymous.status, 401);
            const tasks = await fetch(`${url}/tasks`, { client, headers: bearer(TOKEN_A) });
            assert.equal(tasks.status, 200);
            assert.ok((await tasks.json()).tasks.length > 0);
          } finally {
            client.close();
          }
          // Plain HTTP to the TLS port gets nothing: no token crosses the network in clear.
          await assert.rejects(fetch(url.replace("https:", "http:") + "/health"));
        },
      );
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test("serveCommand() --http keeps each token's episode ids its own: no probing, no squatting", async () => {
  // Attack (red team): episode ids were one namespace for all tokens. Token B could reset with
  // A's chosen episode_id to learn it was open ("episode_exists"), and open ids A would choose
  // next so that A's resets failed.
  await withServe([], async ({ url }) => {
    const reset = (token: string, id: string) =>
      post(`${url}/reset`, { task_id: "py-median-even", episode_id: id }, bearer(token));
    const a = await reset(TOKEN_A, "trainer-ep-1");
    assert.equal(a.status, 200);
    // B probing A's id learns nothing: it gets an episode of its own.
    const probe = await reset(TOKEN_B, "trainer-ep-1");
    assert.equal(probe.status, 200, JSON.stringify(probe.json));
    // B squatting A's next id takes nothing from A.
    assert.equal((await reset(TOKEN_B, "trainer-ep-2")).status, 200);
    const next = await reset(TOKEN_A, "trainer-ep-2");
    assert.equal(next.status, 200, JSON.stringify(next.json));
    // B's step on the shared id reaches B's episode, never A's; A's own stays A's.
    const state = await fetch(`${url}/state?episode_id=trainer-ep-1`, { headers: bearer(TOKEN_A) });
    assert.equal(state.status, 200);
    assert.equal((await state.json()).step_count, 0);
    await post(
      `${url}/step`,
      { action: { message: RUN }, episode_id: "trainer-ep-1" },
      bearer(TOKEN_B),
    );
    const after = await fetch(`${url}/state?episode_id=trainer-ep-1`, { headers: bearer(TOKEN_A) })
      .then((r) => r.json());
    assert.equal(after.step_count, 0);
  });
});

Deno.test("serveCommand() --http refuses a token file where two tokens share a name", async () => {
  // Attack (red team): episodes belong to a token's name; two tokens named alike (or a name=
  // equal to another line's default "token-N") shared each other's episodes.
  for (
    const tokens of [
      `${TOKEN_A} name=x\n${TOKEN_B} name=x\n`,
      `${TOKEN_A}\n${TOKEN_B} name=token-1\n`,
    ]
  ) {
    await assert.rejects(
      withServe([], () => Promise.resolve(), { tokens }),
      /Two tokens are named/,
    );
  }
});

/** Send `raw` on a fresh connection; everything the server answers until it closes. */
async function rawExchange(port: number, raw: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(raw));
  let text = "";
  const buf = new Uint8Array(16 * 1024);
  try {
    for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
  } catch {
    // Reset.
  }
  try {
    conn.close();
  } catch {
    // Closed.
  }
  return text;
}

/** Status codes of the responses in `text`, in order. */
function statuses(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
}

Deno.test("serveCommand() --http: no route, method or spelling reaches an episode without the token", async () => {
  // Red team: every spelling of a route that starts an episode, by every method, answers 401
  // (or a refusal before any handler), never 200.
  await withServe(["--keep-alive-timeout", "1"], async ({ port }) => {
    const targets = [
      "/reset",
      "//reset",
      "/reset/",
      "/RESET",
      "/%2Freset",
      "/reset?x=/health",
      "/reset#/health",
      `http://127.0.0.1:${port}/reset`,
      "/./reset",
      "/health/../reset",
      "/ws",
      "/mcp",
      "/step",
    ];
    for (const method of ["GET", "POST", "HEAD", "OPTIONS", "DELETE", "PUT"]) {
      for (const target of targets) {
        const body = method === "GET" || method === "HEAD" ? "" : '{"task_id":"py-median-even"}';
        const answer = await rawExchange(
          port,
          `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
            `Upgrade: WebSocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n` +
            `Sec-WebSocket-Version: 13\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
        const [status] = statuses(answer);
        assert.ok(status >= 400 && status !== 426, `${method} ${target}: ${answer.slice(0, 200)}`);
      }
    }
    // Authorization tricks: two headers (one good after one bad), Basic without a colon of a
    // wrong token, an empty Bearer, a huge one, non-ASCII.
    for (
      const auth of [
        ["Bearer wrongwrongwrongwrong", `Bearer ${"x".repeat(40)}`],
        [`Basic ${btoa("wrongwrongwrongwrong")}`],
        ["Bearer"],
        ["Bearer "],
        [`Bearer ${"a".repeat(30_000)}`],
        ["Bearer \u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"],
        ["Basic !!!notbase64!!!"],
      ]
    ) {
      const answer = await rawExchange(
        port,
        `POST /reset HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
          auth.map((a) => `Authorization: ${a}\r\n`).join("") +
          `Content-Length: 2\r\n\r\n{}`,
      );
      const [status] = statuses(answer);
      assert.ok(status === 401 || status === 400 || status === 431, `${auth}: ${answer}`);
    }
  });
});

Deno.test("serveCommand() --http refuses ambiguous request framing (smuggling)", async () => {
  // Red team: a body the server does not frame as chunked or by Content-Length, but a proxy in
  // front might, was read as a second request on the same connection.
  await withServe(["--keep-alive-timeout", "1"], async ({ port }) => {
    const smuggled =
      `GET /tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN_A}\r\n\r\n`;
    const heads = [
      "Transfer-Encoding: gzip",
      "Transfer-Encoding: xchunked",
      "Transfer-Encoding: chunked, identity",
      "Transfer-Encoding: identity",
      "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked",
      "Transfer-Encoding: chunked\r\nContent-Length: 5",
      "Content-Length: 5\r\nContent-Length: 6",
      "Content-Length: +5",
      "Content-Length: 0x5",
      "Transfer-Encoding : chunked",
      "Transfer-Encoding:\u000bchunked",
    ];
    for (const head of heads) {
      const answer = await rawExchange(
        port,
        `POST /health HTTP/1.1\r\nHost: 127.0.0.1\r\n${head}\r\n\r\n${smuggled}`,
      );
      const seen = statuses(answer);
      assert.equal(seen.length, 1, `${JSON.stringify(head)}: ${answer}`);
      assert.ok(seen[0] >= 400, `${JSON.stringify(head)}: ${answer}`);
    }
    // Transfer-Encoding on HTTP/1.0, which has none.
    const old = await rawExchange(
      port,
      `POST /health HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`,
    );
    assert.equal(statuses(old).length, 1, old);
    assert.ok(statuses(old)[0] >= 400, old);
  });
});

Deno.test("serveCommand() --http: idle keep-alive connections cannot hold every slot against the trainer", async () => {
  // Red team: with no token, a client kept full, valid keep-alive connections (GET /health, then
  // idle under the keep-alive timeout) on every slot of --max-connections; the trainer's next
  // connection was answered 503 for as long as the client went on.
  await withServe(
    ["--max-connections", "4", "--max-connections-per-peer", "16"],
    async ({ port }) => {
      const held: Deno.Conn[] = [];
      for (let i = 0; i < 4; i++) {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        await conn.write(
          new TextEncoder().encode("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
        );
        const buf = new Uint8Array(4096);
        const n = await conn.read(buf);
        assert.match(new TextDecoder().decode(buf.subarray(0, n ?? 0)), /^HTTP\/1\.1 200/);
        held.push(conn);
      }
      try {
        const response = await fetch(`http://127.0.0.1:${port}/tasks`, {
          headers: bearer(TOKEN_A),
        });
        await response.body?.cancel();
        assert.equal(response.status, 200);
      } finally {
        for (const conn of held) {
          try {
            conn.close();
          } catch {
            // Closed by the server.
          }
        }
      }
    },
  );
});

Deno.test("serveCommand() --http: a task id that is a path opens nothing and names no folder", async () => {
  // Red team: reset's task_id "../../etc/passwd" answered with the resolved absolute path on the
  // server's disk (where its task folder is); a task id is a name in the task store, not a path.
  await withServe([], async ({ url }) => {
    for (const taskId of ["../../etc/passwd", "/etc", "py-median-even/../py-median-even", ".."]) {
      const answer = await post(`${url}/reset`, { task_id: taskId }, bearer(TOKEN_A));
      assert.equal(answer.status, 404, taskId);
      assert.equal(answer.json.error.code, "unknown_task");
      assert.doesNotMatch(JSON.stringify(answer.json), new RegExp(ROOT.replaceAll("/", "\\/")));
      assert.doesNotMatch(JSON.stringify(answer.json), /\/work\/|\/tmp\//);
    }
  });
});

Deno.test("serveCommand() --http writes a new token to a fresh private file, never through an old one", async () => {
  // Red team: the token made at start was written into ~/.patchgym/token as it was: through a
  // hard link another path held, and readable with the old file's mode until the chmod after.
  const home = Deno.makeTempDirSync({ prefix: "patchgym-home-" });
  try {
    Deno.mkdirSync(join(home, ".patchgym"));
    const elsewhere = join(home, "elsewhere");
    Deno.writeTextFileSync(elsewhere, "old\n", { mode: 0o644 });
    Deno.linkSync(elsewhere, join(home, ".patchgym", "token"));
    const args = ["serve", "--http", "127.0.0.1:0", "--work-dir", join(home, "work")];
    const plan = planPermissions(args, {
      cwd: ROOT,
      env: { HOME: home },
      bundledTasks: join(ROOT, "tasks"),
    });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...permissionFlags(plan), join(ROOT, "main.ts"), ...args],
      cwd: ROOT,
      // HOME moves Deno's cache unless DENO_DIR pins it.
      env: {
        HOME: home,
        DENO_DIR: Deno.env.get("DENO_DIR") ??
          join(
            Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache"),
            "deno",
          ),
      },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    let text = "";
    const reader = child.stderr.getReader();
    while (!/listening on|error/i.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    child.kill("SIGTERM");
    await reader.cancel();
    await child.status;
    assert.match(text, /listening on/, text);
    assert.equal(Deno.readTextFileSync(elsewhere), "old\n");
    const token = Deno.readTextFileSync(join(home, ".patchgym", "token")).trim();
    assert.match(token, /^[0-9a-f]{64}$/);
    assert.equal(Deno.statSync(join(home, ".patchgym", "token")).mode! & 0o777, 0o600);
    assert.deepEqual([...Deno.readDirSync(join(home, ".patchgym"))].map((e) => e.name), ["token"]);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
