/** Starting and stopping the fake model server (see `_fake_model_server.ts`). */
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
