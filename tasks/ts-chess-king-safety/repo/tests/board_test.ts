import assert from "node:assert/strict";
import { formatPosition, formatSquare, parsePosition, parseSquare, PositionError } from "../src/mod.ts";

Deno.test("squares round-trip", () => {
  assert.deepEqual(parseSquare("e4"), { file: 4, rank: 3 });
  assert.equal(formatSquare({ file: 7, rank: 7 }), "h8");
});

Deno.test("positions round-trip", () => {
  const text = "r3k2r/8/8/3N4/8/8/8/R3K2R b";
  assert.equal(formatPosition(parsePosition(text)), text);
});

Deno.test("bad positions are rejected", () => {
  assert.throws(() => parsePosition("8/8/8 w"), PositionError);
  assert.throws(() => parsePosition("4p3/8/8/8/8/8/8/4K3 w"), PositionError);
});

Deno.test("kingOf finds kings", () => {
  const board = parsePosition("4k3/8/8/8/8/8/8/R3K3 w");
  assert.equal(formatSquare(board.kingOf("b")!), "e8");
});
