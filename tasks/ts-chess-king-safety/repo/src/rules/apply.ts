/** Applying validated moves. */
import type { Board } from "../board/board.ts";
import { opponent } from "../board/piece.ts";
import type { Move } from "./move.ts";
import { validateMove } from "./validate.ts";

export class IllegalMoveError extends Error {
  constructor(readonly reason: string) {
    super(`illegal move: ${reason}`);
    this.name = "IllegalMoveError";
  }
}

/** Moves the piece (capturing whatever stands on `to`) without any legality check. */
export function movePiece(board: Board, move: Move): Board {
  return board.with(move.to, board.at(move.from)).with(move.from, null);
}

/** Validates and plays `move`, passing the turn. */
export function play(board: Board, move: Move): Board {
  const verdict = validateMove(board, move);
  if (!verdict.ok) throw new IllegalMoveError(verdict.reason);
  return movePiece(board, move).withTurn(opponent(board.turn));
}
