import { parseDuration } from "./duration.ts";

/** A service's settings, durations in milliseconds. */
export interface ServiceConfig {
  name: string;
  timeout: number;
  retries: number;
  backoff: number;
}

/** A loaded config: services sorted by name. */
export interface Config {
  services: ServiceConfig[];
}

const BUILT_IN = { timeout: "10s", retries: 0, backoff: "100ms" };

type Raw = Record<string, unknown>;

/** Every service of the JSON config `text`, with the defaults filled in. */
export function loadConfig(text: string): Config {
  const raw = JSON.parse(text) as Raw;
  const defaults = { ...BUILT_IN, ...(raw.defaults as Raw | undefined) };
  const services = Object.entries((raw.services ?? {}) as Record<string, Raw>)
    .map(([name, entry]) => service(name, { ...defaults, ...entry }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { services };
}

function service(name: string, entry: Raw): ServiceConfig {
  const retries = entry.retries;
  if (typeof retries !== "number" || !Number.isInteger(retries) || retries < 0) {
    throw new Error(`${name}.retries: expected a whole number, got ${JSON.stringify(retries)}`);
  }
  return {
    name,
    timeout: parseDuration(entry.timeout, `${name}.timeout`),
    retries,
    backoff: parseDuration(entry.backoff, `${name}.backoff`),
  };
}
