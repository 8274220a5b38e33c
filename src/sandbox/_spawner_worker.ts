/**
 * The spawner thread (see `_spawner.ts`): runs children and helper requests for the thread that
 * started it, with the launcher's `serve` process as its helper. It says when it has been idle for
 * a while, so its owner can end it and let the process exit. Private to `src/sandbox/`.
 */
/// <reference lib="deno.worker" />
import { type AheadGate, runChild } from "./_child.ts";
import { type HelperCall, helperFor } from "./_helper.ts";
import type { SpawnerReply, SpawnerRequest } from "./_spawner.ts";

let helper: HelperCall | null = null;
/** How long without work before the thread offers to end (set by `init`). */
let idleMs = 0;
let busy = 0;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
/** Jails made ahead waiting for their run, by request id. */
const waitingRuns = new Map<number, (run: Uint8Array | null) => void>();

self.onmessage = async (event: MessageEvent<SpawnerRequest>) => {
  const request = event.data;
  if (request.kind === "init") {
    helper = helperFor(request.launcher);
    idleMs = request.idleMs;
    return;
  }
  if (request.kind === "go") {
    waitingRuns.get(request.id)?.(request.run);
    waitingRuns.delete(request.id);
    return;
  }
  busy++;
  clearTimeout(idleTimer);
  let reply: SpawnerReply;
  try {
    reply = request.kind === "run"
      ? { id: request.id, ok: true, result: await runChild(request.spec, helper!, gate(request)) }
      : { id: request.id, ok: true, output: await helper!(request.mode, request.args) };
  } catch (error) {
    reply = { id: request.id, ok: false, message: String(error) };
  } finally {
    waitingRuns.delete(request.id);
  }
  self.postMessage(reply);
  if (--busy === 0) idleTimer = setTimeout(() => self.postMessage({ kind: "idle" }), idleMs);
};

/** How a jail made ahead (`spec.ahead`) of request `id` learns its run: a `go` request. */
function gate(request: { id: number; spec: { ahead?: boolean } }): AheadGate | null {
  if (!request.spec.ahead) return null;
  const { id } = request;
  const { promise: run, resolve } = Promise.withResolvers<Uint8Array | null>();
  waitingRuns.set(id, resolve);
  return { run, ready: () => self.postMessage({ kind: "ready", id } satisfies SpawnerReply) };
}
