/** Public API. */
export { Board } from "./board/board.ts";
export { type Color, opponent, type Piece, type PieceKind } from "./board/piece.ts";
export { formatPosition, parsePosition, PositionError } from "./board/position.ts";
export { formatSquare, parseSquare, type Square } from "./board/square.ts";
export { type IllegalReason, type Move, parseMove, type Verdict } from "./rules/move.ts";
export { legalMoves, validateMove } from "./rules/validate.ts";
export { IllegalMoveError, movePiece, play } from "./rules/apply.ts";
