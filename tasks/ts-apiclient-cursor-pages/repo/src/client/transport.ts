/**
 * How the client reaches the API. Production would wrap `fetch`; this package ships only the
 * in-memory transport over {@linkcode FakeServer}, so nothing here touches the network.
 */
import type { ApiRequest, ApiResponse } from "../server/http.ts";
import type { FakeServer } from "../server/fake_server.ts";

/** Sends one request. */
export interface Transport {
  send(req: ApiRequest): Promise<ApiResponse>;
}

/** A transport that calls a {@linkcode FakeServer} directly; responses are deep-copied. */
export class InMemoryTransport implements Transport {
  constructor(readonly server: FakeServer) {}

  send(req: ApiRequest): Promise<ApiResponse> {
    const res = this.server.handle(structuredClone(req));
    return Promise.resolve(structuredClone(res));
  }
}
