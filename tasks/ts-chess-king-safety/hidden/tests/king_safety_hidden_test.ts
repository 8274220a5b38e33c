import assert from "node:assert/strict";
import { formatSquare, legalMoves, parseMove, parsePosition, parseSquare, play, validateMove } from "../src/mod.ts";

// The new modules are imported lazily so that the other tests in this file still run
// (and report) when they are missing.
const check = () => import("../src/rules/check.ts");
const status = () => import("../src/rules/status.ts");

const verdict = (fen: string, move: string) => validateMove(parsePosition(fen), parseMove(move));

Deno.test("isInCheck sees a rook on the file", async () => {
  const { isInCheck } = await check();
  assert.equal(isInCheck(parsePosition("4k3/8/8/8/8/8/8/4R1K1 b"), "b"), true);
});

Deno.test("isInCheck is false when the line is blocked", async () => {
  const { isInCheck } = await check();
  assert.equal(isInCheck(parsePosition("4k3/4n3/8/8/8/8/8/4R1K1 b"), "b"), false);
});

Deno.test("isInCheck sees knight checks", async () => {
  const { isInCheck } = await check();
  assert.equal(isInCheck(parsePosition("4k3/8/3N4/8/8/8/8/6K1 b"), "b"), true);
});

Deno.test("isAttacked by color", async () => {
  const { isAttacked } = await check();
  const board = parsePosition("4k3/8/8/8/8/8/8/R5K1 w");
  assert.equal(isAttacked(board, parseSquare("a8"), "w"), true);
  assert.equal(isAttacked(board, parseSquare("b8"), "w"), false);
});

Deno.test("a pinned bishop cannot leave the line", () => {
  assert.deepEqual(verdict("4r1k1/8/8/8/8/8/4B3/4K3 w", "e2d3"), { ok: false, reason: "king_in_check" });
});

Deno.test("the king cannot step onto an attacked square", () => {
  assert.deepEqual(verdict("3rk3/8/8/8/8/8/8/4K3 w", "e1d1"), { ok: false, reason: "king_in_check" });
});

Deno.test("kings may not stand next to each other", () => {
  assert.deepEqual(verdict("8/8/8/3k4/8/3K4/8/8 w", "d3d4"), { ok: false, reason: "king_in_check" });
});

Deno.test("a check must be answered", () => {
  const fen = "4k3/8/8/8/8/8/3N4/r3K3 w";
  assert.deepEqual(verdict(fen, "d2f3"), { ok: false, reason: "king_in_check" });
  assert.deepEqual(verdict(fen, "d2b1"), { ok: true });
  assert.deepEqual(verdict(fen, "e1e2"), { ok: true });
});

Deno.test("capturing the checking piece is legal", () => {
  assert.deepEqual(verdict("4k3/8/8/8/8/8/8/r2QK3 w", "d1a1"), { ok: true });
});

Deno.test("legalMoves of a king in check", () => {
  const board = parsePosition("4k3/8/8/8/8/8/8/r3K3 w");
  assert.deepEqual(legalMoves(board, parseSquare("e1")).map(formatSquare), ["d2", "e2", "f2"]);
});

Deno.test("gameStatus detects checkmate", async () => {
  const { gameStatus } = await status();
  assert.equal(gameStatus(parsePosition("7k/6Q1/5K2/8/8/8/8/8 b")), "checkmate");
});

Deno.test("gameStatus detects stalemate", async () => {
  const { gameStatus } = await status();
  assert.equal(gameStatus(parsePosition("k7/8/1Q6/8/8/8/8/7K b")), "stalemate");
});

Deno.test("gameStatus detects a plain check", async () => {
  const { gameStatus } = await status();
  assert.equal(gameStatus(parsePosition("4k3/8/8/8/8/8/8/4R1K1 b")), "check");
});

Deno.test("gameStatus of a quiet position", async () => {
  const { gameStatus } = await status();
  assert.equal(gameStatus(parsePosition("4k3/8/8/8/8/8/8/R3K3 w")), "playing");
});

Deno.test("play refuses a move into check", () => {
  assert.throws(() => play(parsePosition("3rk3/8/8/8/8/8/8/4K3 w"), parseMove("e1d2")), /king_in_check/);
});

Deno.test("ordinary moves are still legal", () => {
  assert.deepEqual(verdict("4k3/8/8/8/8/8/8/R3K3 w", "a1a8"), { ok: true });
  assert.deepEqual(verdict("4k3/8/8/8/8/8/8/R3K3 w", "a1b2"), { ok: false, reason: "bad_geometry" });
});
