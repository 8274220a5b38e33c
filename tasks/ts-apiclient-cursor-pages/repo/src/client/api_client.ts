/**
 * The API client: authentication, retries on 429 with the server's `retry-after`, JSON errors.
 */
import type { ApiResponse } from "../server/http.ts";
import { ApiError } from "./errors.ts";
import type { Transport } from "./transport.ts";

/** Client settings. */
export interface ClientOptions {
  token: string;
  /** Retries after a 429; default 3. */
  maxRetries?: number;
  /** Waits between retries; injected so tests do not sleep. Default: a real timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** A thin, retrying API client. */
export class ApiClient {
  readonly #transport: Transport;
  readonly #options: Required<ClientOptions>;

  constructor(transport: Transport, options: ClientOptions) {
    this.#transport = transport;
    this.#options = {
      maxRetries: 3,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      ...options,
    };
  }

  /** GET `path` with `query`; resolves with the full response on 2xx, throws {@linkcode ApiError} otherwise. */
  async request(path: string, query: Record<string, string> = {}): Promise<ApiResponse> {
    for (let attempt = 0;; attempt++) {
      const res = await this.#transport.send({
        method: "GET",
        path,
        query,
        headers: { authorization: `Bearer ${this.#options.token}`, accept: "application/json" },
      });
      if (res.status === 429 && attempt < this.#options.maxRetries) {
        const seconds = Number(res.headers["retry-after"] ?? "1");
        await this.#options.sleep((Number.isFinite(seconds) ? seconds : 1) * 1000);
        continue;
      }
      if (res.status < 200 || res.status >= 300) throw new ApiError(res.status, res.body, path);
      return res;
    }
  }

  /** GET `path` and return the JSON body. */
  async get<T>(path: string, query: Record<string, string> = {}): Promise<T> {
    return (await this.request(path, query)).body as T;
  }
}
