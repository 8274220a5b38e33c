import assert from "node:assert/strict";
import { roomForThread } from "../src/threads.ts";
import { programOnPath } from "./_fixtures.ts";

const FIXTURE = new URL("./_out_of_files.ts", import.meta.url).pathname;

/** `tests/_out_of_files.ts MODE` under an open-file limit of 128: what it printed. */
async function outOfFiles(mode: string): Promise<Record<string, unknown>> {
  const folder = await Deno.makeTempDir({ prefix: "patchgym-threads-" });
  try {
    await Deno.writeTextFile(`${folder}/a.txt`, "a needle\n");
    const out = await new Deno.Command("prlimit", {
      args: ["--nofile=128:128", Deno.execPath(), "run", "-A", "--quiet", FIXTURE, mode, folder],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    const line = /^RESULT (\{.*\})$/m.exec(text)?.[1];
    assert.ok(line, `the process ended without a result (code ${out.code}):\n${text}`);
    const result = JSON.parse(line) as Record<string, unknown>;
    assert.ok(
      (result.held as number) > 50,
      `it took too few open files to prove anything: ${line}`,
    );
    return result;
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}

Deno.test("roomForThread() is false while the process is out of open files, true again after", {
  ignore: !programOnPath("prlimit"),
}, async () => {
  assert.deepEqual(
    await outOfFiles("probe").then(({ full, freed }) => ({ full, freed })),
    { full: false, freed: true },
  );
});

Deno.test("roomForThread() is true where its folder cannot be opened at all", () => {
  assert.equal(roomForThread("/nonexistent/patchgym"), true);
});

// Attack: on 5bcca98 a server at its open-file limit (`serve --http` under half-open connections)
// started its spawner thread for a run, and Deno panicked building the thread's runtime: the
// process ended with every episode it held (CI, `serve_http_test.ts`).
Deno.test(
  "Spawner.run() out of open files runs the child in its caller's thread; the process lives",
  {
    ignore: !programOnPath("prlimit"),
  },
  async () => {
    const result = await outOfFiles("spawner");
    assert.equal(result.threadFull, false, "a spawner thread started with no open files left");
    assert.match(String(result.full), /^(ok|threw) /);
    assert.equal(result.freed, 'ok "one\\n"');
    assert.equal(result.threadFreed, true, "with files again, the run did not use the thread");
  },
);

Deno.test("runSearch() out of open files fails alone, the process lives, and the next one runs", {
  ignore: !programOnPath("prlimit"),
}, async () => {
  const result = await outOfFiles("search");
  assert.match(
    String(result.full),
    /^threw Cannot start a search thread: the process is out of open files/,
  );
  assert.equal(result.freed, "ok 1");
});
