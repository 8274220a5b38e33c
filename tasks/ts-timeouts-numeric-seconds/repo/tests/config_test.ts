import { DurationError, parseDuration } from "../src/duration.ts";
import { loadConfig } from "../src/config.ts";
import { describe, retryDelays } from "../src/schedule.ts";

function equal(actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

function throws(fn: () => unknown, pattern: RegExp): void {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof DurationError && pattern.test(error.message))) throw error;
    return;
  }
  throw new Error("expected a DurationError");
}

Deno.test("durations with units", () => {
  equal(parseDuration("250ms"), 250);
  equal(parseDuration("30s"), 30_000);
  equal(parseDuration("2m"), 120_000);
  equal(parseDuration("1.5h"), 5_400_000);
});

Deno.test("bare numbers are seconds", () => {
  equal(parseDuration(45), 45_000);
  equal(parseDuration(0.5), 500);
});

Deno.test("bad durations name the field", () => {
  throws(() => parseDuration("soon", "api.timeout"), /^api\.timeout: cannot read/);
  throws(() => parseDuration(-1, "api.backoff"), /^api\.backoff: a duration must be zero or more/);
  throws(() => parseDuration(null, "api.timeout"), /^api\.timeout: expected a duration/);
});

Deno.test("config fills in defaults", () => {
  const config = loadConfig(JSON.stringify({
    defaults: { timeout: "3s", retries: 2, backoff: "200ms" },
    services: { search: {}, billing: { timeout: 45, retries: 1, backoff: "1s" } },
  }));
  equal(config.services, [
    { name: "billing", timeout: 45_000, retries: 1, backoff: 1_000 },
    { name: "search", timeout: 3_000, retries: 2, backoff: 200 },
  ]);
});

Deno.test("retry delays double up to the timeout", () => {
  equal(retryDelays({ name: "a", timeout: 1_000, retries: 4, backoff: 300 }), [300, 600, 1_000, 1_000]);
  equal(
    describe(loadConfig(JSON.stringify({ services: { search: { timeout: "3s", retries: 2, backoff: "200ms" } } }))),
    ["search: timeout 3s, 2 retries (200ms, 400ms)"],
  );
});
