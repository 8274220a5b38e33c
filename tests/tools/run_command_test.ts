import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RunSlots } from "../../src/sandbox/run_slots.ts";
import { Sandbox } from "../../src/sandbox/sandbox.ts";
import { executeTool } from "../../src/tools/registry.ts";
import { runCommandTool } from "../../src/tools/run_command.ts";
import { MAX_GROWTH_ENTRIES } from "../../src/workspace/limits.ts";
import { withContext } from "../_fixtures.ts";
import { call, failMessage, okOutput } from "./_call.ts";

Deno.test("runCommandTool.run() runs a program and shows its exit code and output", async () => {
  await withContext({ "a.txt": "hello\n" }, async (ctx) => {
    const result = await call(runCommandTool, { argv: ["python3", "-c", "print(6 * 7)"] }, ctx);
    assert.equal(okOutput(result), "exit code 0\n--- stdout ---\n42");
    assert.ok(result.ok);
    assert.equal(result.truncated, false);
    assert.deepEqual(result.meta, { exit_code: 0 });
  });
});

Deno.test("runCommandTool.run() runs in the workspace", async () => {
  await withContext({ "a.txt": "hello\n" }, async (ctx) => {
    assert.equal(
      okOutput(await call(runCommandTool, { argv: ["cat", "a.txt"] }, ctx)),
      "exit code 0\n--- stdout ---\nhello",
    );
    assert.equal(
      okOutput(await call(runCommandTool, { argv: ["pwd"] }, ctx)),
      `exit code 0\n--- stdout ---\n${ctx.workspace.dir}`,
    );
    okOutput(
      await call(
        runCommandTool,
        { argv: ["python3", "-c", "open('out.txt', 'w').write('made')"] },
        ctx,
      ),
    );
    assert.equal(readFileSync(join(ctx.workspace.dir, "out.txt"), "utf8"), "made");
  });
});

Deno.test("runCommandTool.run() returns a non-zero exit as data, with stderr", async () => {
  await withContext({ "a.txt": "" }, async (ctx) => {
    const result = await call(runCommandTool, {
      argv: [
        "python3",
        "-c",
        "import sys; print('out'); print('boom', file=sys.stderr); sys.exit(3)",
      ],
    }, ctx);
    assert.equal(okOutput(result), "exit code 3\n--- stdout ---\nout\n--- stderr ---\nboom");
    assert.deepEqual(result.ok && result.meta, { exit_code: 3 });
    const failed = await call(runCommandTool, { argv: ["false"] }, ctx);
    assert.equal(okOutput(failed), "exit code 1");
  });
});

Deno.test("runCommandTool.run() passes arguments without a shell", async () => {
  await withContext({ "a.py": "", "b.py": "" }, async (ctx) => {
    assert.equal(
      okOutput(await call(runCommandTool, { argv: ["echo", "$HOME; ls"] }, ctx)),
      "exit code 0\n--- stdout ---\n$HOME; ls",
    );
    assert.equal(
      okOutput(
        await call(
          runCommandTool,
          { argv: ["echo", "a", "|", "wc", ">", "x", "`id`", "$(id)"] },
          ctx,
        ),
      ),
      "exit code 0\n--- stdout ---\na | wc > x `id` $(id)",
    );
    // No glob expansion: ls is asked for a file literally named "*.py".
    const listed = okOutput(await call(runCommandTool, { argv: ["ls", "*.py"] }, ctx));
    assert.match(listed, /^exit code 2\n/);
    assert.match(listed, /\*\.py/);
  });
});

Deno.test("runCommandTool.run() marks cut output as truncated", async () => {
  await withContext({ "a.txt": "" }, async (ctx) => {
    const result = await call(
      runCommandTool,
      { argv: ["python3", "-c", "print('x' * 200000)"] },
      ctx,
    );
    const output = okOutput(result);
    assert.equal(result.ok && result.truncated, true);
    assert.ok(output.length < 40_000, `output is ${output.length} characters`);
    assert.match(output, /bytes omitted/);
  });
});

Deno.test("runCommandTool.run() refuses programs off the allowlist with program_not_allowed", async () => {
  await withContext({ "a.txt": "" }, async (ctx) => {
    for (
      const argv of [
        ["bash", "-c", "id"],
        ["/bin/sh", "-c", "id"],
        ["curl", "http://example.com"],
        ["/usr/bin/python3", "-V"],
        ["sh"],
        ["rm", "-rf", "."],
        [""],
      ]
    ) {
      const message = failMessage(await call(runCommandTool, { argv }, ctx), "program_not_allowed");
      assert.ok(
        message.startsWith(`Program "${argv[0]}" is not allowed; use one of: python3, deno`),
        message,
      );
    }
  });
});

Deno.test("runCommandTool.run() kills a command past the time limit and returns timeout", async () => {
  await withContext({ "a.txt": "" }, async (ctx) => {
    const result = await call(runCommandTool, {
      argv: ["python3", "-c", "import time; print('start', flush=True); time.sleep(600)"],
    }, ctx);
    const message = failMessage(result, "timeout");
    assert.match(
      message,
      /^Command timed out after 1s and was killed\nkilled: timed out\n--- stdout ---\nstart$/,
    );
    assert.ok(result.meta && "exit_code" in result.meta);
  }, { limits: { max_turns: 5, command_timeout_s: 1 } });
});

Deno.test("executeTool() refuses an empty or missing argv for run_command with invalid_input", async () => {
  await withContext({ "a.txt": "" }, async (ctx) => {
    failMessage(await executeTool("run_command", { argv: [] }, ctx), "invalid_input");
    failMessage(await executeTool("run_command", {}, ctx), "invalid_input");
    failMessage(await executeTool("run_command", { argv: "ls -la" }, ctx), "invalid_input");
  });
});

// Issue 10: a 60 MB file made by run_command stalled `submit` for 11 s and sent a 61 MB reply.
Deno.test("runCommandTool.run() answers workspace_too_large when a command grows the workspace past its cap", async () => {
  await withContext({ "a.txt": "hello\n" }, async (ctx) => {
    const limited = { ...ctx, limits: { maxGrowthBytes: 1024 * 1024 } };
    const result = await call(runCommandTool, {
      argv: ["python3", "-c", "open('big.bin', 'wb').write(b'x' * 3_000_000); print('made')"],
    }, limited);
    const message = failMessage(result, "workspace_too_large");
    assert.match(
      message,
      /^The workspace holds 2\.9 MiB, over its 1\.0 MiB limit; biggest files: "big\.bin" \(2\.9 MiB\), "a\.txt" \(6 B\); delete .*os\.remove/,
    );
    assert.match(message, /os\.remove\('FILE'\)"\]\), or the final diff will not be graded\n/);
    assert.match(message, /exit code 0\n--- stdout ---\nmade$/);
    // Deleting the file is the way out.
    okOutput(
      await call(runCommandTool, {
        argv: ["python3", "-c", "import os; os.remove('big.bin')"],
      }, limited),
    );
  });
});

Deno.test("runCommandTool.run() says the final diff will not be graded only when growth past the cap passes the diff's cap", async () => {
  await withContext({ "a.txt": "hello\n" }, async (ctx) => {
    // A final diff may hold 4 MiB: 2.9 MiB of growth is graded, so the message must not say it
    // will not be.
    const limited = {
      ...ctx,
      limits: { maxGrowthBytes: 1024 * 1024, maxDiffBytes: 4 * 1024 ** 2 },
    };
    const message = failMessage(
      await call(runCommandTool, {
        argv: ["python3", "-c", "open('big.bin', 'wb').write(b'x' * 3_000_000)"],
      }, limited),
      "workspace_too_large",
    );
    assert.match(
      message,
      /^The workspace holds 2\.9 MiB, over its 1\.0 MiB limit; .*os\.remove\('FILE'\)"\]\)\n/,
    );
    assert.doesNotMatch(message, /graded/);
  });
  await withContext({ "a.txt": "hello\n" }, async (ctx) => {
    // Growth in a folder the final diff leaves out (node_modules) is no reason for it not to be
    // graded either.
    const limited = { ...ctx, limits: { maxGrowthBytes: 1024 * 1024, maxDiffBytes: 1024 * 1024 } };
    const message = failMessage(
      await call(runCommandTool, {
        argv: [
          "python3",
          "-c",
          "import os; os.mkdir('node_modules'); open('node_modules/big.js', 'wb').write(b'x' * 3_000_000)",
        ],
      }, limited),
      "workspace_too_large",
    );
    assert.match(message, /biggest files: "node_modules\/big\.js"/);
    assert.doesNotMatch(message, /graded/);
  });
});

// Attack: files in folders nested past PATH_MAX cannot be reached by path, so the size check
// skipped them and a command could leave any amount of data uncounted.
Deno.test("runCommandTool.run() answers workspace_too_large for folders nested too deep to read", async () => {
  await withContext({ "a.txt": "hello\n" }, async (ctx) => {
    const deep = `import os
os.mkdir("deep"); os.chdir("deep")
for i in range(30):
    os.mkdir("d" * 200); os.chdir("d" * 200)
open("hidden.bin", "wb").write(b"x" * 1000)
print("made")`;
    const message = failMessage(
      await call(runCommandTool, { argv: ["python3", "-c", deep] }, ctx),
      "workspace_too_large",
    );
    assert.match(
      message,
      /^The workspace has files or folders that cannot be read by name \(nested too deep, or named in bytes that are not UTF-8: "deep\/d+\.\.\."\); remove them .*shutil\.rmtree\('deep'\)/,
    );
    okOutput(
      await call(runCommandTool, {
        argv: ["python3", "-c", "import shutil; shutil.rmtree('deep')"],
      }, ctx),
    );
  });
});

// Attack: empty files cost no bytes, so a command could leave hundreds of thousands of them
// (about 130,000 in 20 seconds) without any size check noticing.
Deno.test("runCommandTool.run() answers workspace_too_large when a command leaves too many files", async () => {
  await withContext({ "a.txt": "hello\n" }, async (ctx) => {
    const flood = `import os
os.mkdir("flood")
for i in range(${MAX_GROWTH_ENTRIES + 10}):
    open(f"flood/{i}", "w").close()
print("made")`;
    const message = failMessage(
      await call(runCommandTool, { argv: ["python3", "-c", flood] }, ctx),
      "workspace_too_large",
    );
    assert.match(
      message,
      new RegExp(
        `^The workspace holds ${MAX_GROWTH_ENTRIES + 12} files and folders, over its limit of ${
          MAX_GROWTH_ENTRIES + 1
        }; delete what the change does not need`,
      ),
    );
    // Empty files weigh nothing in the final diff, which is still graded: never said otherwise.
    assert.doesNotMatch(message, /graded/);
  });
});

Deno.test("executeTool() answers run_command arguments no process can be started with as invalid_input", async () => {
  // The attack: a NUL byte in an argument, one argument over the kernel's 128 KiB, or too many
  // arguments made the sandbox fail to start the launcher, and that SandboxError (broken
  // infrastructure) ended the episode, or the grader's run, instead of being the model's mistake.
  await withContext({ "a.txt": "hello\n" }, async (ctx) => {
    for (
      const argv of [
        ["python3", "-c", "print(1)\0"],
        ["python3", "-c", `#${"x".repeat(200_000)}`],
        ["python3", "-c", "pass", ...Array(40_000).fill("y".repeat(100))],
      ]
    ) {
      const result = await executeTool("run_command", JSON.stringify({ argv }), ctx);
      assert.ok(!result.ok);
      assert.equal(result.code, "invalid_input", result.message);
    }
    // The largest single argument the kernel takes still runs.
    const big = await executeTool(
      "run_command",
      JSON.stringify({ argv: ["python3", "-c", `print(1)#${"x".repeat(100_000)}`] }),
      ctx,
    );
    assert.ok(big.ok, JSON.stringify(big).slice(0, 300));
  });
});

Deno.test("a run_command still waiting for its turn when the episode stops answers interrupted, and never runs", async () => {
  await withContext({ "a.txt": "hello\n" }, async (ctx) => {
    const slots = new RunSlots(1, { holdMs: 3_600_000 });
    const held = await slots.take();
    const stop = new AbortController();
    const stopping = {
      ...ctx,
      sandbox: new Sandbox({ isolation: ctx.sandbox.isolation, runSlots: slots }),
      signal: stop.signal,
    };
    const result = executeTool(
      "run_command",
      { argv: ["python3", "-c", "open('ran', 'w').write('ran')"] },
      stopping,
    );
    await Promise.resolve();
    stop.abort();
    // Given back before the answer is read: a run that ignored the signal would run now.
    held();
    assert.match(failMessage(await result, "interrupted"), /did not run: the episode was stopped/);
    assert.equal(existsSync(join(ctx.workspace.dir, "ran")), false);
  });
});
