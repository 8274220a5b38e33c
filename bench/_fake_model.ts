/** Starting and stopping the fake model server (see `_fake_model_server.ts`). */
import { RUN_FORMAT, type RunConfig } from "../src/rollout/run_config.ts";
import { LineChild } from "./_lines.ts";

/** A running fake model server. */
export interface FakeModel {
  /** Base URL up to `/v1`. */
  baseUrl: string;
  /** The `fetch` to give the policy: a private HTTP client, so its pooled sockets close with it. */
  fetch: typeof fetch;
  /** How late the server's timers fired at start (its delays are shortened by this). */
  timerLateMs: number;
  /** How long the server held each reply since the last call, ms (from arrival to answer). */
  holds(): Promise<number[]>;
  /** Shut the server down, wait for its process to end and close the client. */
  close(): Promise<void>;
}

/** One tool call the fake model answers with. */
export interface FakeCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * The four calls that solve `py-median-even` (read the file, apply its reference patch `patch`,
 * run the visible tests, submit): the benches' episode.
 */
export function solvingCalls(patch: string): FakeCall[] {
  return [
    { name: "read_file", arguments: { path: "stats/summary.py" } },
    { name: "apply_patch", arguments: { patch } },
    { name: "run_tests", arguments: {} },
    { name: "submit", arguments: { status: "solved", summary: "Even-sized median fixed" } },
  ];
}

/**
 * A run's configuration whose samples talk to the fake model at `baseUrl`, following `plan` with
 * `delayMs` per answer (what a pool's threads build their policies from).
 */
export function fakeRunConfig(options: {
  runId: string;
  tasks: string[];
  samples: number;
  baseUrl: string;
  plan: string;
  delayMs: number;
}): RunConfig {
  return {
    format: RUN_FORMAT,
    run_id: options.runId,
    env_version: "bench",
    tasks: options.tasks,
    samples: options.samples,
    policy: {
      kind: "openai",
      base_url: options.baseUrl,
      model: fakeModelName(options.plan, options.delayMs),
      script: null,
      text_tool_calls: false,
      sampling: {},
      seed: null,
    },
    limits: { max_tokens_per_turn: 4096, max_total_tokens: 32768, max_wall_s: 900 },
    training: { trainable: "all", onDrift: "split" },
  };
}

/** The model name that makes the fake follow `plan` and answer each request after `delayMs`. */
export function fakeModelName(plan: string, delayMs: number): string {
  return `fake-${plan}-delay-${delayMs}`;
}

/**
 * Start the fake server as a child process on 127.0.0.1 (port chosen by the system), with its
 * plans by name (the last call of a plan repeats).
 */
export async function startFakeModel(plans: Record<string, FakeCall[]>): Promise<FakeModel> {
  const script = new URL("./_fake_model_server.ts", import.meta.url).pathname;
  const server = new LineChild(Deno.execPath(), [
    "run",
    "--quiet",
    "--no-prompt",
    "--no-config",
    "--allow-net=127.0.0.1",
    script,
    JSON.stringify(plans),
  ]);
  const hello = JSON.parse(await server.read());
  const client = Deno.createHttpClient({});
  const clientFetch =
    ((input: string | URL | Request, init?: RequestInit) =>
      fetch(input, { ...init, client })) as typeof fetch;
  return {
    baseUrl: `http://127.0.0.1:${hello.port}/v1`,
    fetch: clientFetch,
    timerLateMs: Number(hello.timerLateMs),
    async holds() {
      await server.send("holds");
      return JSON.parse(await server.read()).holds;
    },
    async close() {
      client.close();
      await server.close();
    },
  };
}
