import assert from "node:assert/strict";
import { z } from "zod";
import { PatchgymError, SandboxError } from "../../src/errors.ts";
import { executeTool, TOOLS, toolSchemas } from "../../src/tools/registry.ts";
import { defineTool, type Tool } from "../../src/tools/types.ts";
import { withContext } from "../_fixtures.ts";
import { failMessage, okOutput } from "./_call.ts";

const EXPECTED_TOOLS = [
  "inspect_tree",
  "list_files",
  "read_file",
  "search",
  "apply_patch",
  "replace_text",
  "write_file",
  "run_tests",
  "run_command",
  "submit",
];

/** A tool that echoes its input, or throws what `throw` names. */
const probeTool = defineTool({
  name: "probe",
  description: "Echo the input or throw",
  input: z.strictObject({
    throw: z.enum(["none", "error", "string", "patchgym", "sandbox"]).default("none").describe(
      "What to throw",
    ),
    count: z.number().int().default(1).describe("A number to echo"),
  }),
  run(input) {
    if (input.throw === "error") throw new Error("disk on fire");
    if (input.throw === "string") throw "a bare string";
    if (input.throw === "patchgym") {
      throw new PatchgymError("sandbox_failed", "infrastructure broke");
    }
    if (input.throw === "sandbox") throw new SandboxError("cannot start bwrap");
    return Promise.resolve({ ok: true, output: JSON.stringify(input) });
  },
});
const PROBE_TOOLS = [probeTool] as Tool[];

Deno.test("TOOLS lists every agent tool once, in the order the model sees them", () => {
  assert.deepEqual(TOOLS.map((t) => t.name), EXPECTED_TOOLS);
});

Deno.test("toolSchemas() produces an OpenAI function tool for every tool", () => {
  const schemas = toolSchemas();
  assert.deepEqual(schemas.map((s) => s.function.name), EXPECTED_TOOLS);
  for (const schema of schemas) {
    assert.equal(schema.type, "function");
    assert.deepEqual(Object.keys(schema.function).sort(), ["description", "name", "parameters"]);
    assert.ok(
      schema.function.description.length > 20,
      `${schema.function.name} has no real description`,
    );
    // The arguments must survive a JSON round trip, as they are sent over HTTP.
    assert.deepEqual(JSON.parse(JSON.stringify(schema)), schema);
  }
});

Deno.test("toolSchemas() gives JSON-schema objects with a description for every property and no $schema", () => {
  for (const { function: fn } of toolSchemas()) {
    const parameters = fn.parameters as {
      type: string;
      properties: Record<string, { description?: string }>;
      required?: string[];
      additionalProperties?: boolean;
    };
    assert.equal("$schema" in parameters, false, fn.name);
    assert.equal(parameters.type, "object", fn.name);
    assert.equal(parameters.additionalProperties, false, fn.name);
    const properties = Object.entries(parameters.properties);
    assert.ok(properties.length > 0, `${fn.name} has no properties`);
    for (const [key, property] of properties) {
      assert.ok(
        typeof property.description === "string" && property.description.length > 0,
        `${fn.name}.${key} has no description`,
      );
    }
    for (const key of parameters.required ?? []) {
      assert.ok(key in parameters.properties, `${fn.name} requires unknown ${key}`);
    }
  }
});

Deno.test("toolSchemas() marks only fields without defaults as required", () => {
  const byName = new Map(toolSchemas().map((s) => [s.function.name, s.function.parameters]));
  assert.deepEqual(byName.get("read_file")?.required, ["path"]);
  assert.deepEqual(byName.get("search")?.required, ["pattern"]);
  assert.deepEqual(byName.get("replace_text")?.required, ["path", "old", "new"]);
  assert.equal(byName.get("inspect_tree")?.required, undefined);
  assert.equal(byName.get("run_tests")?.required, undefined);
  const submit = byName.get("submit") as { properties: Record<string, { enum?: string[] }> };
  assert.deepEqual(submit.properties.status.enum, ["solved", "blocked"]);
});

Deno.test("toolSchemas() takes a custom tool list", () => {
  const [schema] = toolSchemas(PROBE_TOOLS);
  assert.equal(schema.function.name, "probe");
  assert.deepEqual(Object.keys(schema.function.parameters.properties as object), [
    "throw",
    "count",
  ]);
});

Deno.test("executeTool() runs a tool with object arguments and applies defaults", async () => {
  await withContext({ "a.txt": "one\ntwo\n" }, async (ctx) => {
    assert.equal(
      okOutput(await executeTool("read_file", { path: "a.txt" }, ctx)),
      "1| one\n2| two",
    );
    assert.equal(
      okOutput(await executeTool("probe", {}, ctx, PROBE_TOOLS)),
      '{"throw":"none","count":1}',
    );
  });
});

Deno.test("executeTool() parses arguments sent as a JSON string", async () => {
  await withContext({ "a.txt": "one\ntwo\n" }, async (ctx) => {
    assert.equal(
      okOutput(await executeTool("read_file", '{"path": "a.txt", "start_line": 2}', ctx)),
      "2| two",
    );
    // Models send "" or null for a call without arguments.
    assert.equal(
      okOutput(await executeTool("probe", "", ctx, PROBE_TOOLS)),
      '{"throw":"none","count":1}',
    );
    assert.equal(
      okOutput(await executeTool("probe", "  ", ctx, PROBE_TOOLS)),
      '{"throw":"none","count":1}',
    );
    assert.equal(
      okOutput(await executeTool("probe", null, ctx, PROBE_TOOLS)),
      '{"throw":"none","count":1}',
    );
    assert.equal(
      okOutput(await executeTool("probe", undefined, ctx, PROBE_TOOLS)),
      '{"throw":"none","count":1}',
    );
  });
});

Deno.test("executeTool() refuses an unknown tool with unknown_tool and lists the tools", async () => {
  await withContext({ "a.txt": "" }, async (ctx) => {
    const message = failMessage(await executeTool("delete_everything", {}, ctx), "unknown_tool");
    assert.equal(
      message,
      `Unknown tool "delete_everything"; use one of: ${EXPECTED_TOOLS.join(", ")}`,
    );
    failMessage(
      await executeTool("read_file", { path: "a.txt" }, ctx, PROBE_TOOLS),
      "unknown_tool",
    );
  });
});

Deno.test("executeTool() refuses arguments that are not valid JSON with invalid_input", async () => {
  await withContext({ "a.txt": "" }, async (ctx) => {
    const message = failMessage(
      await executeTool("read_file", '{"path": "a.txt"', ctx),
      "invalid_input",
    );
    assert.match(message, /^Arguments of "read_file" are not valid JSON: .+; send a JSON object$/);
    failMessage(await executeTool("read_file", "path=a.txt", ctx), "invalid_input");
  });
});

Deno.test("executeTool() refuses arguments that are not an object with invalid_input", async () => {
  await withContext({ "a.txt": "" }, async (ctx) => {
    for (const args of ['"a.txt"', "[1]", "3", ["a.txt"], 3, true]) {
      const message = failMessage(await executeTool("read_file", args, ctx), "invalid_input");
      assert.match(message, /^Invalid arguments for "read_file": arguments: /);
    }
  });
});

Deno.test("executeTool() refuses a missing required field with invalid_input", async () => {
  await withContext({ "a.txt": "" }, async (ctx) => {
    const message = failMessage(await executeTool("read_file", {}, ctx), "invalid_input");
    assert.equal(
      message,
      `Invalid arguments for "read_file": path: required field is missing; add it; see the tool's parameters`,
    );
    const several = failMessage(
      await executeTool("replace_text", { path: "a.txt" }, ctx),
      "invalid_input",
    );
    assert.match(
      several,
      /old: required field is missing; add it; new: required field is missing; add it/,
    );
  });
});

Deno.test("executeTool() refuses an unknown extra field with invalid_input", async () => {
  await withContext({ "a.txt": "" }, async (ctx) => {
    const message = failMessage(
      await executeTool("read_file", { path: "a.txt", end_line: 3, encoding: "utf8" }, ctx),
      "invalid_input",
    );
    assert.equal(
      message,
      `Invalid arguments for "read_file": arguments: unknown fields "end_line", "encoding"; remove them or check the spelling; see the tool's parameters`,
    );
  });
});

Deno.test("executeTool() refuses values of the wrong type or out of range with invalid_input", async () => {
  await withContext({ "a.txt": "" }, async (ctx) => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      // Regression: a field of the wrong type was reported as missing ("path: required").
      [
        "read_file",
        { path: 3 },
        /^Invalid arguments for "read_file": path: expected string, got a number \(3\); fix the type; /,
      ],
      ["read_file", { path: "a.txt", start_line: 0 }, /start_line: /],
      ["read_file", { path: "a.txt", max_lines: 2001 }, /max_lines: /],
      ["read_file", { path: "a.txt", start_line: 1.5 }, /start_line: /],
      ["inspect_tree", { depth: 9 }, /depth: /],
      ["search", { pattern: "" }, /pattern: /],
      ["search", { pattern: "x", max_results: 0 }, /max_results: /],
      ["search", { pattern: "x", fixed_strings: "yes" }, /fixed_strings: /],
      ["replace_text", { path: "a.txt", old: "", new: "x" }, /old: /],
      ["write_file", { path: "a.txt", content: null }, /content: /],
      ["list_files", { glob: 1 }, /glob: /],
    ];
    for (const [name, args, pattern] of cases) {
      const message = failMessage(await executeTool(name, args, ctx), "invalid_input");
      assert.match(message, pattern, `${name} ${JSON.stringify(args)}: ${message}`);
      assert.match(message, /; see the tool's parameters$/);
    }
  });
});

Deno.test("executeTool() turns an Error thrown by a handler into internal_error", async () => {
  await withContext({ "a.txt": "" }, async (ctx) => {
    const message = failMessage(
      await executeTool("probe", { throw: "error" }, ctx, PROBE_TOOLS),
      "internal_error",
    );
    assert.equal(message, `Tool "probe" failed unexpectedly: disk on fire`);
    const bare = failMessage(
      await executeTool("probe", { throw: "string" }, ctx, PROBE_TOOLS),
      "internal_error",
    );
    assert.equal(bare, `Tool "probe" failed unexpectedly: a bare string`);
  });
});

Deno.test("executeTool() rethrows a PatchgymError from a handler", async () => {
  await withContext({ "a.txt": "" }, async (ctx) => {
    await assert.rejects(
      executeTool("probe", { throw: "patchgym" }, ctx, PROBE_TOOLS),
      (error: unknown) =>
        error instanceof PatchgymError && error.message === "infrastructure broke",
    );
    await assert.rejects(
      executeTool("probe", { throw: "sandbox" }, ctx, PROBE_TOOLS),
      SandboxError,
    );
  });
});

Deno.test("toolSchemas() generates once per tool list and hands out a frozen copy", () => {
  const first = toolSchemas();
  assert.equal(toolSchemas(), first);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first[0].function.parameters));
  assert.throws(() => {
    (first[0].function as { name: string }).name = "changed";
  }, TypeError);
});

Deno.test("executeTool() caps any tool's output at maxOutputChars, keeping head and tail", async () => {
  await withContext({ "a.txt": `${"x".repeat(3000)}\n` }, async (ctx) => {
    const result = await executeTool("read_file", { path: "a.txt" }, {
      ...ctx,
      limits: { maxOutputChars: 200 },
    });
    assert.ok(result.ok);
    assert.equal(result.truncated, true);
    const [head, marker, tail] = result.output.split("\n");
    assert.equal(head, `1| ${"x".repeat(97)}`);
    assert.match(
      marker,
      /^\[\.\.\. \d+ characters omitted: tool output is capped at 200 characters \.\.\.\]$/,
    );
    assert.equal(tail, `${"x".repeat(66)} [... line cut at 1000 characters]`);
  });
});
