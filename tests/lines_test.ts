import assert from "node:assert/strict";
import { type LineEvent, readLines } from "../src/lines.ts";

/** The events of `chunks` (strings, encoded) read with `maxBytes`. */
async function events(chunks: string[], maxBytes: number): Promise<LineEvent[]> {
  const encoder = new TextEncoder();
  const stream = ReadableStream.from(chunks.map((c) => encoder.encode(c)));
  const out: LineEvent[] = [];
  for await (const event of readLines(stream, maxBytes)) out.push(event);
  return out;
}

Deno.test("readLines() splits lines across and within chunks, with a last line without newline", async () => {
  assert.deepEqual(await events(['{"a"', ':1}\n{"b":2}\n\n{"c"', ":3}"], 100), [
    { kind: "line", text: '{"a":1}' },
    { kind: "line", text: '{"b":2}' },
    { kind: "line", text: '{"c":3}' },
  ]);
});

Deno.test("readLines() decodes a character split between chunks", async () => {
  const bytes = new TextEncoder().encode("é\n");
  const stream = ReadableStream.from([bytes.subarray(0, 1), bytes.subarray(1)]);
  const out: LineEvent[] = [];
  for await (const event of readLines(stream, 100)) out.push(event);
  assert.deepEqual(out, [{ kind: "line", text: "é" }]);
});

// Issue 10: a 64 MiB line took a minute to buffer; now a line over the cap is skipped as it
// streams in, keeping only its head.
Deno.test("readLines() reports a line over the cap with its size and head, then reads on", async () => {
  const long = `{"id":7,"x":"${"a".repeat(10_000)}"}`;
  const chunks = [
    "ok\n",
    long.slice(0, 3000),
    long.slice(3000, 9000),
    `${long.slice(9000)}\nnext\n`,
  ];
  const out = await events(chunks, 1000);
  assert.equal(out.length, 3);
  assert.deepEqual(out[0], { kind: "line", text: "ok" });
  assert.equal(out[1].kind, "too_long");
  if (out[1].kind === "too_long") {
    assert.equal(out[1].bytes, long.length);
    assert.equal(out[1].head, long.slice(0, 3000));
  }
  assert.deepEqual(out[2], { kind: "line", text: "next" });
  // Exactly at the cap is still a line.
  assert.deepEqual(await events(["x".repeat(1000)], 1000), [{
    kind: "line",
    text: "x".repeat(1000),
  }]);
});
