import assert from "node:assert/strict";
import { formatSquare, IllegalMoveError, legalMoves, parseMove, parsePosition, parseSquare, play, validateMove } from "../src/mod.ts";

const check = (fen: string, move: string) => validateMove(parsePosition(fen), parseMove(move));

Deno.test("pieces move by their geometry", () => {
  assert.deepEqual(check("4k3/8/8/8/8/8/8/R3K3 w", "a1a8"), { ok: true });
  assert.deepEqual(check("4k3/8/8/8/8/8/8/R3K3 w", "a1b2"), { ok: false, reason: "bad_geometry" });
  assert.deepEqual(check("4k3/8/8/8/8/8/8/1N2K3 w", "b1c3"), { ok: true });
  assert.deepEqual(check("4k3/8/8/8/8/8/8/2B1K3 w", "c1h6"), { ok: true });
  assert.deepEqual(check("4k3/8/8/8/8/8/8/3QK3 w", "d1h5"), { ok: true });
});

Deno.test("sliders are blocked", () => {
  assert.deepEqual(check("4k3/8/8/8/N7/8/8/R3K3 w", "a1a8"), { ok: false, reason: "bad_geometry" });
  assert.deepEqual(check("4k3/8/8/8/n7/8/8/R3K3 w", "a1a4"), { ok: true });
});

Deno.test("turn and ownership", () => {
  assert.deepEqual(check("4k3/8/8/8/8/8/8/R3K3 b", "a1a8"), { ok: false, reason: "wrong_turn" });
  assert.deepEqual(check("4k3/8/8/8/8/8/8/R3K3 w", "a1e1"), { ok: false, reason: "own_piece" });
  assert.deepEqual(check("4k3/8/8/8/8/8/8/R3K3 w", "b1b2"), { ok: false, reason: "no_piece" });
});

Deno.test("legalMoves of a knight in the corner", () => {
  const board = parsePosition("4k3/8/8/8/8/8/8/N3K3 w");
  assert.deepEqual(legalMoves(board, parseSquare("a1")).map(formatSquare), ["c2", "b3"]);
});

Deno.test("play passes the turn and refuses illegal moves", () => {
  const board = play(parsePosition("4k3/8/8/8/8/8/8/R3K3 w"), parseMove("a1a7"));
  assert.equal(board.turn, "b");
  assert.throws(() => play(board, parseMove("e8e6")), IllegalMoveError);
});
