/**
 * Checking a model endpoint before a run: one cheap chat completion (`max_tokens: 1`) that proves
 * the server listens, speaks the OpenAI chat-completions protocol, accepts the key and knows the
 * model. A failure is one line that says what to fix, so a run never starts against a dead endpoint.
 */

/** Where to probe. */
export interface ProbeOptions {
  /** Base URL up to `/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Default 30 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The outcome: ok, or the one line to show. */
export type ProbeResult = { ok: true } | { ok: false; message: string };

/** Send one tiny request to the endpoint and say what, if anything, is wrong. */
export async function probeEndpoint(options: ProbeOptions): Promise<ProbeResult> {
  const base = options.baseUrl.replace(/\/+$/, "");
  const scheme = checkScheme(base);
  if (scheme) return { ok: false, message: scheme };
  const url = `${base}/chat/completions`;
  const where = `Cannot use the model endpoint "${base}"`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: "POST",
      headers,
      body: JSON.stringify({
        model: options.model,
        messages: [{ role: "user", content: "Reply with OK." }],
        max_tokens: 1,
        stream: false,
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return {
      ok: false,
      message: `${where}: POST ${url}: ${fetchProblem(error, new URL(base), timeoutMs)}`,
    };
  }
  const text = await response.text().catch(() => "");
  const detail = serverMessage(text);
  const answered = `POST ${url} answered HTTP ${response.status}`;
  if (response.status === 401 || response.status === 403) {
    return {
      ok: false,
      message:
        `${where}: the server refused the request (HTTP ${response.status}${detail}); set PATCHGYM_API_KEY (or OPENAI_API_KEY) to a key it accepts`,
    };
  }
  const openai = isOpenAIError(text);
  if (response.status === 404 && openai && /model/i.test(text)) {
    return {
      ok: false,
      message:
        `${where}: HTTP 404${detail}; check --model "${options.model}" (GET ${base}/models lists the served models)`,
    };
  }
  if (!openai && (response.status === 404 || response.status === 405)) {
    return {
      ok: false,
      message: `${where}: this is not an OpenAI-compatible API: ${answered} with ${
        what(response, text)
      }; point --base-url at the server's OpenAI-compatible prefix (vLLM, SGLang, Ollama: http://HOST:PORT/v1)`,
    };
  }
  if (!response.ok) {
    return {
      ok: false,
      message:
        `${where}: ${answered}${detail}; check --model "${options.model}" and the server's log`,
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  if (!Array.isArray((body as { choices?: unknown } | null)?.choices)) {
    return {
      ok: false,
      message: `${where}: the answer to POST ${url} is not a chat completion (it was ${
        what(response, text)
      }); point --base-url at an OpenAI-compatible API (usually ending in /v1)`,
    };
  }
  return { ok: true };
}

/** Whether a body is an OpenAI-style JSON error (`{"error": ...}`, FastAPI's `{"detail": ...}`). */
function isOpenAIError(text: string): boolean {
  try {
    const body = JSON.parse(text);
    return typeof body === "object" && body !== null && ("error" in body || "detail" in body);
  } catch {
    return false;
  }
}

/** What came back, for a message: its content type and the start of its body. */
function what(response: Response, text: string): string {
  const type = response.headers.get("content-type")?.split(";")[0] ?? "no content type";
  const start = text.replace(/\s+/g, " ").trim().slice(0, 80);
  return start ? `${type} "${start}${text.length > 80 ? "..." : ""}"` : `${type}, an empty body`;
}

/** A problem with the URL's scheme, or null. */
export function checkScheme(baseUrl: string): string | null {
  if (/^https?:\/\//i.test(baseUrl)) return null;
  const fix = /^[a-z][a-z0-9+.-]*:\/\//i.test(baseUrl)
    ? "use http:// or https://"
    : `add the scheme: http://${baseUrl}`;
  return `--base-url: "${baseUrl}" has no http:// or https:// scheme; ${fix}`;
}

/**
 * Why a request to `url` (a model endpoint) got no answer, in words: a permission, a timeout,
 * nothing listening, an unknown host, or the network error's own cause (Deno's fetch says only
 * "fetch failed"; the reason is in its `cause`).
 */
export function fetchProblem(error: unknown, url: URL, timeoutMs: number): string {
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    return `this process may not connect to "${url.host}" (Deno permission flags); run it through "patchgym" or "deno task patchgym", which allow the host named by --base-url`;
  }
  const name = (error as Error)?.name;
  if (name === "TimeoutError" || name === "AbortError") {
    return `no answer within ${
      timeoutMs / 1000
    } s from ${url.host} (it accepted the connection, or the connection hung); check that the server there is a model server that has finished loading, and not overloaded`;
  }
  // Deno's fetch says "fetch failed"; the reason is in the cause.
  const cause = (error as Error)?.cause as Error | undefined;
  const message = [error, cause].map((e) => String((e as Error)?.message ?? e ?? "")).join(" ");
  if (/connection refused|ECONNREFUSED|os error 111/i.test(message)) {
    return `nothing is listening at ${url.host}; start the model server or fix --base-url`;
  }
  if (/dns error|failed to lookup|name or service not known|nodename nor servname/i.test(message)) {
    return `host "${url.hostname}" not found; fix --base-url`;
  }
  const detail = String(cause?.message ?? (error as Error)?.message ?? error).split("\n")[0];
  return `network error: ${detail}; check --base-url`;
}

/** The server's error message from a JSON error body, as `: message`, or "". */
function serverMessage(text: string): string {
  let message: unknown = text;
  try {
    const body = JSON.parse(text);
    message = body?.error?.message ?? body?.error ?? body?.message ?? body?.detail ?? text;
  } catch {
    // Not JSON: show the start of the text.
  }
  const line = String(typeof message === "string" ? message : JSON.stringify(message)).trim()
    .split("\n")[0].slice(0, 200);
  return line ? `: ${line}` : "";
}
