/**
 * Per-request state: who is calling, and a request id for log correlation.
 */

let counter = 0;

/** Created once per request scope. */
export class RequestContext {
  readonly requestId = `req-${++counter}`;
  user: string | null = null;
}
