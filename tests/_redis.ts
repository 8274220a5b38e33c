/**
 * A private redis-server for a test: loopback only, a random port, a temp folder, no persistence;
 * stopped and removed by `stop()`. Tests that need one skip (with one note) when Debian's
 * `redis-server` is not installed.
 */

/** A running redis-server. */
export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Whether `redis-server` can be run here. */
export const HAS_REDIS: boolean = (() => {
  try {
    return new Deno.Command("redis-server", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

if (!HAS_REDIS) {
  console.error(
    "note: redis-server is not installed (apt-get install redis-server): the queue tests are skipped",
  );
}

/** Start a redis-server on 127.0.0.1 and wait until it accepts connections. */
export async function startRedis(): Promise<TestRedis> {
  // redis-server rewrites its process title over its environment, so .ci/run's mark (PGCI_RUN)
  // cannot be read there: the folder it runs in (its cwd) carries the mark instead.
  const mark = Deno.env.get("PGCI_RUN")?.replace(/[^\w-]/g, "");
  const dir = await Deno.makeTempDir({ prefix: `patchgym-redis-${mark ? `${mark}-` : ""}` });
  for (let attempt = 0; attempt < 10; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = new Deno.Command("redis-server", {
      args: [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dir,
        "--daemonize",
        "no",
        "--loglevel",
        "notice",
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // Ready only when this server says so: a port another process holds would also connect.
    const up = await readyLine(child.stdout);
    const output = new Response(child.stderr).text();
    if (up) {
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        stop: async () => {
          try {
            child.kill("SIGKILL");
          } catch {
            // Already gone.
          }
          await child.status;
          await output;
          await Deno.remove(dir, { recursive: true }).catch(() => {});
        },
      };
    }
    await child.status;
    await output; // The port was taken: try another.
  }
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  throw new Error("Could not start redis-server on a free loopback port");
}

async function readyLine(stdout: ReadableStream<Uint8Array>): Promise<boolean> {
  const reader = stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) return false;
    text += value;
    if (text.includes("Ready to accept connections")) {
      // Keep draining, so the server never blocks on a full pipe.
      (async () => {
        while (!(await reader.read()).done);
      })().catch(() => {});
      return true;
    }
  }
}
