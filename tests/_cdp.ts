/**
 * Headless Chromium driven over the Chrome DevTools protocol, for tests of pages patchgym writes.
 * The browser gets a fresh profile folder and is killed with its whole process group afterwards.
 */
import { existsSync } from "node:fs";

/** Where Debian's chromium lives, or null when it is not installed. */
export function chromiumPath(): string | null {
  for (const path of ["/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    if (existsSync(path)) return path;
  }
  return null;
}

/** A page in a running headless browser. */
export interface Page {
  /** Send a CDP command to the page; resolves with its result. */
  send(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Evaluate an expression in the page and return its value (JSON-serializable). */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Wait until `expression` is truthy, polling up to `attempts` times. */
  waitFor(expression: string, attempts?: number): Promise<void>;
  /** Click the centre of the first element matching `selector` with real mouse events. */
  click(selector: string): Promise<void>;
  /** A PNG screenshot of the viewport. */
  screenshot(): Promise<Uint8Array>;
  /** URLs the page requested, other than the page itself. */
  requests: string[];
}

/** Open `url` in a fresh headless Chromium, run `fn`, then close everything. */
export async function withPage(url: string, fn: (page: Page) => Promise<void>): Promise<void> {
  const browser = chromiumPath();
  if (!browser) throw new Error("chromium is not installed");
  const profile = await Deno.makeTempDir({ prefix: "patchgym-chromium-" });
  const child = new Deno.Command(browser, {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
      "--remote-debugging-port=0",
      "--window-size=1280,900",
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    detached: true,
  }).spawn();
  let socket: WebSocket | null = null;
  try {
    const wsUrl = await devtoolsUrl(child.stderr);
    socket = new WebSocket(wsUrl);
    const ws = socket;
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    let nextId = 1;
    const pending = new Map<
      number,
      { resolve: (v: unknown) => void; reject: (e: Error) => void }
    >();
    const requests: string[] = [];
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.id !== undefined) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(JSON.stringify(message.error)));
        else waiter?.resolve(message.result);
      } else if (message.method === "Network.requestWillBeSent") {
        const requested = message.params.request.url as string;
        if (requested !== url) requests.push(requested);
      }
    };
    const call = (method: string, params: Record<string, unknown> = {}, sessionId?: string) => {
      const id = nextId++;
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      return new Promise<Record<string, unknown>>((resolve, reject) =>
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      );
    };
    const { targetId } = await call("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await call("Target.attachToTarget", { targetId, flatten: true });
    const send = (method: string, params: Record<string, unknown> = {}) =>
      call(method, params, sessionId as string);
    await send("Network.enable");
    await send("Page.enable");
    await send("Page.navigate", { url });
    const page: Page = {
      send,
      requests,
      async evaluate<T>(expression: string): Promise<T> {
        const result = await send("Runtime.evaluate", { expression, returnByValue: true });
        if (result.exceptionDetails) {
          throw new Error(`Evaluation failed: ${JSON.stringify(result.exceptionDetails)}`);
        }
        return (result.result as { value: T }).value;
      },
      async waitFor(expression: string, attempts = 200): Promise<void> {
        for (let i = 0; i < attempts; i++) {
          if (await page.evaluate<boolean>(`Boolean(${expression})`)) return;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`Timed out waiting for ${expression}`);
      },
      async click(selector: string): Promise<void> {
        const box = await page.evaluate<{ x: number; y: number } | null>(
          `(() => { const e = document.querySelector(${
            JSON.stringify(selector)
          }); if (!e) return null;
            e.scrollIntoView({ block: "center" }); const r = e.getBoundingClientRect();
            return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`,
        );
        if (!box) throw new Error(`No element matches ${selector}`);
        for (const type of ["mousePressed", "mouseReleased"]) {
          await send("Input.dispatchMouseEvent", {
            type,
            x: box.x,
            y: box.y,
            button: "left",
            clickCount: 1,
          });
        }
      },
      async screenshot(): Promise<Uint8Array> {
        const { data } = await send("Page.captureScreenshot", { format: "png" });
        return Uint8Array.from(atob(data as string), (c) => c.charCodeAt(0));
      },
    };
    await page.waitFor(`document.readyState === "complete"`);
    await fn(page);
  } finally {
    socket?.close();
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
    await child.status;
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

/** Read the browser's stderr until it prints its DevTools WebSocket address. */
async function devtoolsUrl(stderr: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    text += chunk.value;
    const match = /DevTools listening on (ws:\/\/\S+)/.exec(text);
    if (match) {
      // Keep draining stderr so the browser never blocks on a full pipe.
      (async () => {
        try {
          while (!(await reader.read()).done) { /* discard */ }
        } catch { /* closed */ }
      })();
      return match[1];
    }
  }
  throw new Error(`chromium exited before opening DevTools:\n${text}`);
}
