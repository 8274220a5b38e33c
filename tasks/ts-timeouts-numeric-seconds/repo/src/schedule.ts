import type { Config, ServiceConfig } from "./config.ts";
import { formatDuration } from "./duration.ts";

/** The wait before each retry of `service`: doubling from its backoff, capped at its timeout. */
export function retryDelays(service: ServiceConfig): number[] {
  const delays: number[] = [];
  for (let i = 0; i < service.retries; i++) {
    delays.push(Math.min(service.backoff * 2 ** i, service.timeout));
  }
  return delays;
}

/** One status line per service, e.g. "search: timeout 3s, 2 retries (200ms, 400ms)". */
export function describe(config: Config): string[] {
  return config.services.map((s) => {
    const delays = retryDelays(s);
    const retries = delays.length === 0
      ? "no retries"
      : `${delays.length} ${delays.length === 1 ? "retry" : "retries"} (${
        delays.map(formatDuration).join(", ")
      })`;
    return `${s.name}: timeout ${formatDuration(s.timeout)}, ${retries}`;
  });
}
