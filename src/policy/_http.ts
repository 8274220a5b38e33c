/**
 * POSTing JSON to a model server, shared by the chat and token policies: a per-request timeout,
 * retries with jittered exponential backoff for 408/409/429/5xx and network errors (honouring
 * `Retry-After`), and cancellation by the episode's signal. Every failure is a {@linkcode PolicyError}.
 */
import { PolicyError } from "../errors.ts";

/** How to reach the server and how hard to try. */
export interface HttpOptions {
  apiKey?: string;
  requestTimeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff delay; doubles each retry, with jitter. */
  backoffMs: number;
  fetch: typeof fetch;
}

/** The defaults of {@linkcode HttpOptions}: 5 min per request, 4 retries from 500 ms. */
export function httpOptions(options: Partial<HttpOptions>): HttpOptions {
  return {
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    requestTimeoutMs: options.requestTimeoutMs ?? 300_000,
    maxRetries: options.maxRetries ?? 4,
    backoffMs: options.backoffMs ?? 500,
    fetch: options.fetch ?? fetch,
  };
}

/** A base URL without its trailing slashes. */
export function baseUrlOf(url: string): string {
  return url.replace(/\/+$/, "");
}

const RETRY_STATUS = new Set([408, 409, 429, 500, 502, 503, 504]);

/** Per-request facts for {@linkcode postJson}. */
export interface PostOptions extends HttpOptions {
  /** Stops the request when the episode's wall time runs out. */
  signal?: AbortSignal;
  /** What the answer is, for messages: `chat completion`, `completion`, `tokenization`. */
  what: string;
  /** Where it came from, for messages (the base URL). */
  from: string;
}

/** POST `body` as JSON to `url` and return the parsed JSON answer. */
export async function postJson(
  url: string,
  body: Record<string, unknown>,
  options: PostOptions,
): Promise<unknown> {
  const o = options;
  const episodeSignal = o.signal;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
  const payload = JSON.stringify(body);
  let lastProblem = "";
  let retryAfter: number | null = null;
  for (let attempt = 0; attempt <= o.maxRetries; attempt++) {
    if (attempt > 0) await sleep(backoff(o.backoffMs, attempt, retryAfter), episodeSignal);
    retryAfter = null;
    const request = requestSignal(o.requestTimeoutMs, episodeSignal);
    let response: Response;
    let text: string;
    try {
      try {
        response = await o.fetch(url, {
          method: "POST",
          headers,
          body: payload,
          signal: request.signal,
        });
      } catch (error) {
        if (episodeSignal?.aborted) throw cancelled(error);
        lastProblem = request.timedOut()
          ? `request timed out after ${o.requestTimeoutMs} ms`
          : `network error: ${(error as Error).message}`;
        continue;
      }
      try {
        text = await response.text();
      } catch (error) {
        if (episodeSignal?.aborted) throw cancelled(error);
        lastProblem = request.timedOut()
          ? `request timed out after ${o.requestTimeoutMs} ms while reading the response`
          : `network error while reading the response: ${(error as Error).message}`;
        continue;
      }
    } finally {
      request.done();
    }
    if (response.ok) {
      try {
        return JSON.parse(text);
      } catch {
        throw new PolicyError(
          `Malformed ${o.what} from ${o.from}: body is not JSON: ${text.slice(0, 200)}`,
        );
      }
    }
    lastProblem = `HTTP ${response.status}: ${text.slice(0, 500)}`;
    if (!RETRY_STATUS.has(response.status)) break;
    retryAfter = retryAfterMs(response.headers.get("retry-after"));
  }
  throw new PolicyError(`Model request to ${url} failed: ${lastProblem}`);
}

/**
 * The signal of one request: aborted when `timeoutMs` passes or the episode's signal aborts.
 * `done()` clears the timer and the listener as soon as the answer is read: `AbortSignal.timeout`
 * and `AbortSignal.any` would keep a 5-minute timer and a dependent signal per request alive.
 */
function requestSignal(
  timeoutMs: number,
  episode: AbortSignal | undefined,
): { signal: AbortSignal; timedOut(): boolean; done(): void } {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException("The request timed out", "TimeoutError"));
  }, timeoutMs);
  // Like AbortSignal.timeout: a pending request's timer does not keep the process alive.
  Deno.unrefTimer(timer);
  const onAbort = () => controller.abort(episode!.reason);
  if (episode?.aborted) onAbort();
  else episode?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done() {
      clearTimeout(timer);
      episode?.removeEventListener("abort", onAbort);
    },
  };
}

function cancelled(cause: unknown): PolicyError {
  return new PolicyError("Model request cancelled: the episode ran out of time", { cause });
}

function backoff(base: number, attempt: number, retryAfter: number | null): number {
  if (retryAfter !== null) return Math.min(retryAfter, 60_000);
  const exp = base * 2 ** (attempt - 1);
  return exp / 2 + Math.random() * (exp / 2);
}

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled(signal.reason));
    const id = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(id);
      reject(cancelled(signal.reason));
    }, { once: true });
  });
}
