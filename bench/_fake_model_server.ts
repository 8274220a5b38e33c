/**
 * The fake OpenAI-compatible server, run as its own process (as a real model server is), so that
 * neither its CPU time, memory nor file descriptors count as the environment's. Every chat
 * completion answers after the delay named in the model (`fake-<plan>-delay-<ms>`) with the next
 * call of that plan, chosen by the number of assistant messages in the request. The plans arrive
 * as one JSON argument: `{"<plan>": [{"name": tool, "arguments": {...}}, ...]}`. Asked for them,
 * it answers with token ids and log-probabilities shaped as vLLM's (`return_token_ids`: the
 * prompt's ids at the top, the completion's in the choice; `logprobs`: one entry per completion
 * token), a token per 4 bytes of the request's messages and of the call, as a trainer's server
 * sends them and the environment has to read them.
 *
 * Protocol on stdio, one JSON line each: it prints `{port, timerLateMs}` once listening; a
 * `holds` line on stdin is answered with `{holds}` (ms each reply was held since the last ask);
 * end of stdin shuts it down.
 */

/** One tool call of a plan. */
type Call = { name: string; arguments: Record<string, unknown> };

/** The plans by name; the last call of a plan repeats. */
const PLANS: Record<string, Call[]> = JSON.parse(Deno.args[0] ?? "{}");

/** How late a timer fires here, measured at start; delays are shortened by it (see `hold`). */
const timerLateMs = await measureTimerLateness();
/** How long each reply was actually held, ms, for the report. */
const holds: number[] = [];
const encoder = new TextEncoder();

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handle);
say({ port: server.addr.port, timerLateMs });
for await (const line of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
  if (line.includes("holds")) say({ holds: holds.splice(0) });
}
await server.shutdown();

function say(message: unknown): void {
  Deno.stdout.writeSync(encoder.encode(`${JSON.stringify(message)}\n`));
}

/**
 * Wait until `delayMs` after `since`. Timers fire a few ms late here, which would show up as
 * environment overhead, so the wait is shortened by the lateness measured at start.
 */
async function hold(since: number, delayMs: number): Promise<void> {
  const wait = delayMs - (performance.now() - since) - timerLateMs;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

async function measureTimerLateness(): Promise<number> {
  const late: number[] = [];
  for (let i = 0; i < 15; i++) {
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    late.push(performance.now() - started - 20);
  }
  return late.sort((a, b) => a - b)[Math.floor(late.length / 2)];
}

async function handle(request: Request): Promise<Response> {
  if (request.method !== "POST" || !new URL(request.url).pathname.endsWith("/chat/completions")) {
    return new Response("not found", { status: 404 });
  }
  const arrived = performance.now();
  const text = await request.text();
  const body = JSON.parse(text) as {
    model?: string;
    messages?: { role: string }[];
    return_token_ids?: boolean;
    logprobs?: boolean;
  };
  const [, planName = "", delayText = "0"] = /^fake-(.+)-delay-(\d+)$/.exec(body.model ?? "") ?? [];
  const plan = PLANS[planName];
  if (!plan) return new Response(`unknown plan "${planName}"`, { status: 400 });
  const delay = Number(delayText);
  const turn = (body.messages ?? []).filter((m) => m.role === "assistant").length;
  const call = plan[Math.min(turn, plan.length - 1)];
  if (delay > 0) {
    await hold(arrived, delay);
    holds.push(performance.now() - arrived);
  }
  const args = JSON.stringify(call.arguments);
  const completion = Math.max(1, Math.ceil((call.name.length + args.length) / 4));
  const prompt = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
  const ids = (n: number, from: number) =>
    Array.from({ length: n }, (_, i) => (from + i * 7919) % 151_000);
  return Response.json({
    id: `chatcmpl-${turn}`,
    ...(body.return_token_ids ? { prompt_token_ids: ids(prompt, 11) } : {}),
    object: "chat.completion",
    created: 0,
    model: body.model,
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{
          id: `call_${turn}`,
          type: "function",
          function: { name: call.name, arguments: args },
        }],
      },
      ...(body.logprobs
        ? {
          logprobs: {
            content: Array.from({ length: completion }, (_, i) => ({
              token: "tok",
              logprob: -0.01 * (i % 50),
              bytes: [116, 111, 107],
              top_logprobs: [],
            })),
          },
        }
        : {}),
      ...(body.return_token_ids ? { token_ids: ids(completion, 13) } : {}),
      finish_reason: "tool_calls",
    }],
    usage: { prompt_tokens: prompt, completion_tokens: completion },
  });
}
