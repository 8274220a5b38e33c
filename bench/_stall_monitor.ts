/**
 * An event-loop stall monitor in a process of its own, the baseline of the episode batches' stall
 * rows: the same 1 ms timer as `StallMonitor` on a loop that does nothing else, at the same
 * priority and in the same scheduling group as the bench, so its lateness during a batch is what
 * the machine itself imposes then (a busy core, a kernel that does not preempt, a VM's vCPU).
 *
 * Protocol on stdio, one line each: `start` begins a window and is answered `started`; `stop` ends
 * it and is answered with `{max, p99, n}` (ms); end of stdin ends the process.
 */
import { StallMonitor } from "./_stalls.ts";

const encoder = new TextEncoder();
let monitor: StallMonitor | null = null;
let buffered = "";

function say(message: unknown): void {
  Deno.stdout.writeSync(encoder.encode(`${JSON.stringify(message)}\n`));
}

for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
  buffered += chunk;
  let end;
  while ((end = buffered.indexOf("\n")) >= 0) {
    const line = buffered.slice(0, end).trim();
    buffered = buffered.slice(end + 1);
    if (line === "start") {
      monitor?.stop();
      monitor = new StallMonitor();
      say("started");
    } else if (line === "stop") {
      say(monitor?.stop() ?? { max: 0, p99: 0, n: 0 });
      monitor = null;
    }
  }
}
monitor?.stop();
