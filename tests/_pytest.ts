/**
 * Tests that need pytest (Debian's python3-pytest) skip with one clear note on a machine without
 * it, instead of failing with assertion noise.
 */

/** Whether the system python3 can import pytest. */
export const HAS_PYTEST: boolean = (() => {
  try {
    return new Deno.Command("/usr/bin/python3", {
      // pytest.main: an empty folder named pytest imports too (as a namespace package).
      args: ["-c", "import pytest; pytest.main"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
})();

/**
 * Print the one note that the pytest tests are skipped; called once, from
 * tests/sandbox/test_runner_test.ts, so a run shows it once.
 */
export function notePytestMissing(): void {
  if (HAS_PYTEST) return;
  console.error(
    "python3-pytest not found: skipping the tests that run pytest (apt-get install python3-pytest)",
  );
}

/** `Deno.test` for a test that runs pytest: ignored when pytest is missing. */
export function pytestTest(name: string, fn: () => Promise<void> | void): void {
  Deno.test({ name, ignore: !HAS_PYTEST, fn });
}
