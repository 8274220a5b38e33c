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

Deno.test("numeric strings are seconds", () => {
  equal(parseDuration("45"), 45_000);
  equal(parseDuration("90"), 90_000);
  equal(parseDuration("0"), 0);
});

Deno.test("numeric strings with decimals and spaces are seconds", () => {
  equal(parseDuration("1.5"), 1_500);
  equal(parseDuration(" 2 "), 2_000);
  equal(parseDuration(".25"), 250);
});

Deno.test("quoted and unquoted numbers load the same", () => {
  const config = loadConfig(JSON.stringify({
    defaults: { retries: 3, backoff: "2" },
    services: { billing: { timeout: "45" }, ledger: { timeout: 45 } },
  }));
  equal(config.services, [
    { name: "billing", timeout: 45_000, retries: 3, backoff: 2_000 },
    { name: "ledger", timeout: 45_000, retries: 3, backoff: 2_000 },
  ]);
  equal(retryDelays(config.services[0]), [2_000, 4_000, 8_000]);
  equal(describe(config)[0], "billing: timeout 45s, 3 retries (2s, 4s, 8s)");
});

Deno.test("negative numeric strings are refused", () => {
  throws(() => parseDuration("-5", "api.timeout"), /^api\.timeout: a duration must be zero or more/);
});

Deno.test("units still work", () => {
  equal(parseDuration("450ms"), 450);
  equal(parseDuration("1d"), 86_400_000);
  equal(parseDuration(" 10s "), 10_000);
  equal(parseDuration(3), 3_000);
  throws(() => parseDuration("ten seconds", "api.timeout"), /^api\.timeout: cannot read/);
  throws(() => parseDuration("", "api.timeout"), /^api\.timeout: cannot read/);
});
