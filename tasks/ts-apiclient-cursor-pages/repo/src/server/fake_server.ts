/**
 * An in-memory stand-in for the real API, used by tests and local demos. It can be told to
 * rate-limit the next N requests to exercise the client's retry logic.
 */
import type { ApiRequest, ApiResponse } from "./http.ts";
import { json } from "./http.ts";
import { type AuditEvent, makeEvents, makeUsers, type User } from "./dataset.ts";
import { listEvents, listUsers } from "./routes.ts";

/** Seed sizes. */
export interface FakeServerOptions {
  users?: number;
  events?: number;
  /** Required bearer token; default `"test-token"`. */
  token?: string;
}

/** The fake API. */
export class FakeServer {
  readonly users: User[];
  readonly events: AuditEvent[];
  readonly token: string;
  /** Every request received, in order. */
  readonly log: ApiRequest[] = [];
  #throttle = 0;

  constructor(options: FakeServerOptions = {}) {
    this.users = makeUsers(options.users ?? 25);
    this.events = makeEvents(options.events ?? 12);
    this.token = options.token ?? "test-token";
  }

  /** Answers the next `count` requests with 429 and `retry-after: 1`. */
  throttleNext(count: number): void {
    this.#throttle = count;
  }

  /** Handles one request. */
  handle(req: ApiRequest): ApiResponse {
    this.log.push(req);
    if (this.#throttle > 0) {
      this.#throttle--;
      return json(429, { error: "slow down" }, { "retry-after": "1" });
    }
    if (req.headers.authorization !== `Bearer ${this.token}`) return json(401, { error: "unauthorized" });
    switch (req.path) {
      case "/users":
        return listUsers(this.users, req);
      case "/events":
        return listEvents(this.events, req);
      default:
        return json(404, { error: `no route ${req.path}` });
    }
  }
}
