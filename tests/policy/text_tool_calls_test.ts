import assert from "node:assert/strict";
import { parseTextToolCalls, type TextToolCallParse } from "../../src/policy/text_tool_calls.ts";
import { type CorpusCase, TEXT_TOOL_CALL_CORPUS } from "./_text_tool_call_corpus.ts";

const FENCE = "```";

function namesAndArguments(parse: TextToolCallParse): CorpusCase["expected"] {
  return parse.calls.map(({ name, arguments: args }) => ({ name, arguments: args }));
}

/** Whether a case is read as expected: the same calls, or an error and no call. */
function readsAsExpected(parse: TextToolCallParse, expected: CorpusCase["expected"]): boolean {
  if (expected === "error") return parse.errors.length > 0 && parse.calls.length === 0;
  try {
    assert.deepEqual(namesAndArguments(parse), expected);
    return parse.errors.length === 0;
  } catch {
    return false;
  }
}

/** The single call in `content`, failing the test if there is not exactly one. */
function onlyCall(content: string) {
  const parse = parseTextToolCalls(content);
  assert.deepEqual(parse.errors, []);
  assert.equal(parse.calls.length, 1);
  return parse.calls[0];
}

Deno.test("parseTextToolCalls() reads every corpus case", async (t) => {
  assert.ok(TEXT_TOOL_CALL_CORPUS.length >= 30);
  for (const { name, content, expected } of TEXT_TOOL_CALL_CORPUS) {
    await t.step(name, () => {
      const parse = parseTextToolCalls(content);
      if (expected === "error") {
        assert.deepEqual(parse.calls, []);
        assert.equal(parse.errors.length, 1);
        assert.match(parse.errors[0].message, /^Cannot parse tool call: /);
      } else {
        assert.deepEqual(parse.errors, []);
        assert.deepEqual(namesAndArguments(parse), expected);
      }
    });
  }
});

Deno.test("parseTextToolCalls() parses at least 90% of the corpus and never misreads an error case", () => {
  const total = TEXT_TOOL_CALL_CORPUS.length;
  let parsed = 0;
  for (const { content, expected } of TEXT_TOOL_CALL_CORPUS) {
    const parse = parseTextToolCalls(content);
    if (readsAsExpected(parse, expected)) parsed++;
    if (expected === "error") {
      assert.deepEqual(parse.calls, [], `an error case yielded calls: ${content}`);
      assert.ok(parse.errors.length > 0, `an error case yielded no error: ${content}`);
    }
  }
  console.log(
    `text tool-call parse rate: ${parsed}/${total} (${(parsed / total * 100).toFixed(1)}%)`,
  );
  assert.ok(parsed / total >= 0.9);
});

Deno.test("parseTextToolCalls() applies no repairs to valid JSON", () => {
  const call = onlyCall(
    '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.py"}}\n</tool_call>',
  );
  assert.deepEqual(call.repairs, []);
  assert.equal(
    call.raw,
    '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.py"}}\n</tool_call>',
  );
});

Deno.test("parseTextToolCalls() escapes literal newlines inside strings", () => {
  const call = onlyCall('<tool_call>{"name": "apply_patch", "arguments": {"patch": "-a\n+b\n"}}');
  assert.deepEqual(call.arguments, { patch: "-a\n+b\n" });
  assert.deepEqual(call.repairs, ["literal_newline"]);
});

Deno.test("parseTextToolCalls() escapes literal tabs inside strings", () => {
  const call = onlyCall(
    '<tool_call>{"name": "replace_text", "arguments": {"old": "\tx", "new": "\ty"}}',
  );
  assert.deepEqual(call.arguments, { old: "\tx", new: "\ty" });
  assert.deepEqual(call.repairs, ["literal_tab"]);
});

Deno.test("parseTextToolCalls() keeps other raw control characters inside strings", () => {
  const call = onlyCall('<tool_call>{"name": "submit", "arguments": {"summary": "a\u0007b"}}');
  assert.deepEqual(call.arguments, { summary: "a\u0007b" });
  assert.deepEqual(call.repairs, ["control_character"]);
});

Deno.test("parseTextToolCalls() repairs trailing commas", () => {
  const call = onlyCall(
    '<tool_call>{"name": "run_command", "arguments": {"argv": ["ls", "-la",],},}',
  );
  assert.deepEqual(call.arguments, { argv: ["ls", "-la"] });
  assert.deepEqual(call.repairs, ["trailing_comma"]);
});

Deno.test("parseTextToolCalls() appends missing closing braces", () => {
  const call = onlyCall(
    '<tool_call>{"name": "read_file", "arguments": {"path": "a.py"</tool_call>',
  );
  assert.deepEqual(call.arguments, { path: "a.py" });
  assert.deepEqual(call.repairs, ["missing_brace"]);
});

Deno.test("parseTextToolCalls() closes an array written with a brace", () => {
  const call = onlyCall(
    '<tool_call>{"name": "run_command", "arguments": {"argv": ["ls"}}</tool_call>',
  );
  assert.deepEqual(call.arguments, { argv: ["ls"] });
  assert.deepEqual(call.repairs, ["missing_brace"]);
});

Deno.test("parseTextToolCalls() drops extra closing braces", () => {
  const call = onlyCall('<tool_call>{"name": "list_files", "arguments": {}}}]</tool_call>');
  assert.deepEqual(call.arguments, {});
  assert.deepEqual(call.repairs, ["extra_brace"]);
});

Deno.test("parseTextToolCalls() reads single-quoted keys and strings", () => {
  const call = onlyCall(
    "<tool_call>{'name': 'replace_text', 'arguments': {'old': 'say(\"hi\")', 'new': 'it\\'s'}}</tool_call>",
  );
  assert.deepEqual(call.arguments, { old: 'say("hi")', new: "it's" });
  assert.deepEqual(call.repairs, ["single_quotes"]);
});

Deno.test("parseTextToolCalls() keeps an apostrophe inside a single-quoted string", () => {
  const call = onlyCall(
    "<tool_call>{'name': 'submit', 'arguments': {'summary': 'it's fixed'}}</tool_call>",
  );
  assert.deepEqual(call.arguments, { summary: "it's fixed" });
  assert.deepEqual(call.repairs, ["single_quotes", "unescaped_quote"]);
});

Deno.test("parseTextToolCalls() converts Python literals", () => {
  const call = onlyCall(
    '<tool_call>{"name": "search", "arguments": {"regex": True, "case_sensitive": False, "path": None}}',
  );
  assert.deepEqual(call.arguments, { regex: true, case_sensitive: false, path: null });
  assert.deepEqual(call.repairs, ["python_literals"]);
});

Deno.test("parseTextToolCalls() reads Python-like words only as literals", () => {
  const parse = parseTextToolCalls('<tool_call>{"name": "search", "arguments": {"x": Truee}}');
  assert.deepEqual(parse.calls, []);
  assert.match(
    parse.errors[0].message,
    /^Cannot parse tool call: Unexpected token "T" at position 38/,
  );
});

Deno.test("parseTextToolCalls() strips a code fence inside a block", () => {
  const call = onlyCall(
    `<tool_call>\n${FENCE}json\n{"name": "run_tests", "arguments": {}}\n${FENCE}\n</tool_call>`,
  );
  assert.equal(call.name, "run_tests");
  assert.deepEqual(call.repairs, ["code_fence"]);
});

Deno.test("parseTextToolCalls() reads smart quotes around keys", () => {
  const call = onlyCall(
    '<tool_call>{\u201cname\u201d: "read_file", \u201carguments\u201d: {\u201cpath\u201d: "a.py"}}',
  );
  assert.deepEqual(call.arguments, { path: "a.py" });
  assert.deepEqual(call.repairs, ["smart_quotes"]);
});

Deno.test("parseTextToolCalls() keeps smart quotes inside ordinary strings", () => {
  const call = onlyCall(
    '<tool_call>{"name": "submit", "arguments": {"summary": "Fix \u201cfoo\u201d"}}',
  );
  assert.deepEqual(call.arguments, { summary: "Fix \u201cfoo\u201d" });
  assert.deepEqual(call.repairs, []);
});

Deno.test("parseTextToolCalls() keeps backslashes before characters JSON cannot escape", () => {
  const call = onlyCall('<tool_call>{"name": "search", "arguments": {"pattern": "\\d+\\.\\d+"}}');
  assert.deepEqual(call.arguments, { pattern: "\\d+\\.\\d+" });
  assert.deepEqual(call.repairs, ["invalid_escape"]);
});

Deno.test("parseTextToolCalls() keeps unescaped quotes that cannot end a string", () => {
  const call = onlyCall(
    '<tool_call>{"name": "replace_text", "arguments": {"old": "f("a", "b")", "new": "x = {"k": "v"}\ny"}}',
  );
  assert.deepEqual(call.arguments, { old: 'f("a", "b")', new: 'x = {"k": "v"}\ny' });
  assert.deepEqual(call.repairs, ["unescaped_quote", "literal_newline"]);
});

Deno.test("parseTextToolCalls() reads unquoted keys", () => {
  const call = onlyCall('<tool_call>{name: "list_files", arguments: {path: "src"}}</tool_call>');
  assert.deepEqual(call.arguments, { path: "src" });
  assert.deepEqual(call.repairs, ["unquoted_key"]);
});

Deno.test("parseTextToolCalls() records repairs made inside a JSON-encoded arguments string", () => {
  const call = onlyCall('<tool_call>{"name": "search", "arguments": "{\'pattern\': \'x\',}"}');
  assert.deepEqual(call.arguments, { pattern: "x" });
  assert.deepEqual(call.repairs, ["single_quotes", "trailing_comma"]);
});

Deno.test("parseTextToolCalls() treats a key named __proto__ as a plain key", () => {
  const call = onlyCall('<tool_call>{"name": "x", "arguments": {"__proto__": {"polluted": 1},}}');
  assert.deepEqual(Object.keys(call.arguments), ["__proto__"]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("parseTextToolCalls() extracts think blocks as reasoning", () => {
  const parse = parseTextToolCalls(
    '<think>\nFirst thought.\n</think>\nSome prose.\n<think>Second thought.</think>\n<tool_call>{"name": "list_files", "arguments": {}}</tool_call>',
  );
  assert.equal(parse.reasoning, "First thought.\n\nSecond thought.");
  assert.equal(parse.text, "Some prose.");
  assert.equal(parse.calls.length, 1);
});

Deno.test("parseTextToolCalls() ends an unclosed think block at the first tool call", () => {
  const parse = parseTextToolCalls(
    '<think>\nStill thinking\n<tool_call>{"name": "run_tests", "arguments": {}}</tool_call>',
  );
  assert.equal(parse.reasoning, "Still thinking");
  assert.deepEqual(namesAndArguments(parse), [{ name: "run_tests", arguments: {} }]);
});

Deno.test("parseTextToolCalls() treats an unclosed think block with no call as all reasoning", () => {
  const parse = parseTextToolCalls("<think>\nI was cut off while");
  assert.equal(parse.reasoning, "I was cut off while");
  assert.equal(parse.text, "");
  assert.deepEqual(parse.calls, []);
});

Deno.test("parseTextToolCalls() reads text before a leading </think> as reasoning", () => {
  const parse = parseTextToolCalls(
    'The user wants X.\n</think>\n\nDoing it.\n<tool_call>{"name": "list_files", "arguments": {}}</tool_call>',
  );
  assert.equal(parse.reasoning, "The user wants X.");
  assert.equal(parse.text, "Doing it.");
  assert.equal(parse.calls.length, 1);
});

Deno.test("parseTextToolCalls() never parses calls inside reasoning", () => {
  const parse = parseTextToolCalls(
    '<think><tool_call>{"name": "submit", "arguments": {}}</tool_call></think>Not yet.',
  );
  assert.deepEqual(parse.calls, []);
  assert.deepEqual(parse.errors, []);
  assert.equal(parse.reasoning, '<tool_call>{"name": "submit", "arguments": {}}</tool_call>');
  assert.equal(parse.text, "Not yet.");
});

Deno.test("parseTextToolCalls() returns null reasoning without think blocks or with empty ones", () => {
  assert.equal(parseTextToolCalls("Just prose.").reasoning, null);
  assert.equal(parseTextToolCalls("<think>\n\n</think>\n\nJust prose.").reasoning, null);
});

Deno.test("parseTextToolCalls() leaves prose without calls untouched", () => {
  const content =
    `Here is a config:\n\n${FENCE}json\n{"name": "pkg", "version": "1.0.0"}\n${FENCE}`;
  const parse = parseTextToolCalls(content);
  assert.deepEqual(parse, { calls: [], reasoning: null, text: content, errors: [] });
});

Deno.test("parseTextToolCalls() keeps a bare JSON message that is not a call as text", () => {
  const parse = parseTextToolCalls('{"status": "ok", "count": 3}');
  assert.deepEqual(parse.calls, []);
  assert.deepEqual(parse.errors, []);
  assert.equal(parse.text, '{"status": "ok", "count": 3}');
});

Deno.test("parseTextToolCalls() removes call blocks from the text", () => {
  const parse = parseTextToolCalls(
    'Reading it.\n<tool_call>{"name": "read_file", "arguments": {"path": "a"}}</tool_call>\nThen testing.',
  );
  assert.equal(parse.text, "Reading it.\n\nThen testing.");
});

Deno.test("parseTextToolCalls() reports the position of a syntax error", () => {
  const parse = parseTextToolCalls("<tool_call>\nread_file src/app.py\n</tool_call>");
  assert.deepEqual(parse.calls, []);
  assert.deepEqual(parse.errors, [{
    raw: "<tool_call>\nread_file src/app.py\n</tool_call>",
    message:
      'Cannot parse tool call: Unexpected token "r" at position 0; resend the tool call as valid JSON',
  }]);
});

Deno.test("parseTextToolCalls() reports a string cut off at the end of output", () => {
  const parse = parseTextToolCalls(
    '<tool_call>{"name": "apply_patch", "arguments": {"patch": "--- a',
  );
  assert.match(
    parse.errors[0].message,
    /^Cannot parse tool call: Unterminated string starting at position 47/,
  );
});

Deno.test("parseTextToolCalls() reports arguments that are not an object", () => {
  const parse = parseTextToolCalls(
    '<tool_call>{"name": "run_command", "arguments": ["ls"]}</tool_call>',
  );
  assert.equal(
    parse.errors[0].message,
    'Cannot parse tool call: "arguments" must be a JSON object, got array; use {"name": "<tool>", "arguments": {...}}',
  );
});

Deno.test("parseTextToolCalls() reports a fenced call it cannot read", () => {
  const parse = parseTextToolCalls(
    `${FENCE}json\n{"name": "read_file", "arguments": {"path": }}\n${FENCE}`,
  );
  assert.deepEqual(parse.calls, []);
  assert.match(
    parse.errors[0].message,
    /^Cannot parse tool call: Unexpected token "}" at position 44/,
  );
});

Deno.test("parseTextToolCalls() rejects nesting too deep to be arguments", () => {
  const parse = parseTextToolCalls(
    `<tool_call>{"name": "x", "arguments": ${"[".repeat(5000)}</tool_call>`,
  );
  assert.deepEqual(parse.calls, []);
  assert.match(parse.errors[0].message, /Nesting deeper than 100 levels/);
});

Deno.test("parseTextToolCalls() never throws on damaged input", () => {
  // Every prefix and suffix of every corpus case, i.e. outputs cut off anywhere.
  for (const { content } of TEXT_TOOL_CALL_CORPUS) {
    for (let i = 0; i <= content.length; i += 7) {
      for (const piece of [content.slice(0, i), content.slice(i)]) {
        const parse = parseTextToolCalls(piece);
        assert.ok(Array.isArray(parse.calls) && Array.isArray(parse.errors));
      }
    }
  }
});
