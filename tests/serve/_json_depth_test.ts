import assert from "node:assert/strict";
import { scanLine } from "../../src/serve/_json_depth.ts";

Deno.test("scanLine() passes ordinary requests and reads their top-level id", () => {
  assert.deepEqual(scanLine('{"op":"reset","id":7,"task_id":"t"}', 64), { tooDeep: false, id: 7 });
  assert.deepEqual(scanLine('{"id":"a\\"b","op":"close"}', 64), { tooDeep: false, id: 'a"b' });
  assert.deepEqual(scanLine('{"op":"close", "id" : -1.5 }', 64), { tooDeep: false, id: -1.5 });
  // Ids of nested objects are not the request's.
  assert.deepEqual(
    scanLine('{"message":{"tool_calls":[{"id":"call_1"}]},"op":"step"}', 64),
    { tooDeep: false },
  );
  assert.deepEqual(scanLine('{"id":{"x":1}}', 64), { tooDeep: false });
  // Brackets inside strings do not nest.
  assert.deepEqual(scanLine(`{"a":"${"[".repeat(100)}"}`, 3), { tooDeep: false });
  assert.deepEqual(scanLine("not json", 64), { tooDeep: false });
});

// Issue 10: a 200,000-deep line crashed serve when its id was echoed.
Deno.test("scanLine() stops at nesting past the limit, keeping an id read before", () => {
  const deep = `{"id":"d","op":"reset","task_id":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
  assert.deepEqual(scanLine(deep, 64), { tooDeep: true, id: "d" });
  assert.deepEqual(scanLine(`${"[".repeat(65)}${"]".repeat(65)}`, 64), { tooDeep: true });
  assert.deepEqual(scanLine(`${"[".repeat(64)}${"]".repeat(64)}`, 64), { tooDeep: false });
});
