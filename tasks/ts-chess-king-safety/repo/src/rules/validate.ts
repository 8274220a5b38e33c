/** Move validation and move generation. */
import type { Board } from "../board/board.ts";
import { allSquares, type Square } from "../board/square.ts";
import { MOVERS } from "../pieces/movers.ts";
import type { Move, Verdict } from "./move.ts";

/** Whether `move` is legal for the side to move. */
export function validateMove(board: Board, move: Move): Verdict {
  const piece = board.at(move.from);
  if (!piece) return { ok: false, reason: "no_piece" };
  if (piece.color !== board.turn) return { ok: false, reason: "wrong_turn" };
  if (move.from.file === move.to.file && move.from.rank === move.to.rank) {
    return { ok: false, reason: "same_square" };
  }
  if (board.at(move.to)?.color === piece.color) return { ok: false, reason: "own_piece" };
  if (!MOVERS[piece.kind](board, move.from, move.to)) return { ok: false, reason: "bad_geometry" };
  return { ok: true };
}

/** Every legal destination of the piece on `from`, a1 first. */
export function legalMoves(board: Board, from: Square): Square[] {
  return allSquares().filter((to) => validateMove(board, { from, to }).ok);
}
