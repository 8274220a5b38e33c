/**
 * How each piece moves: `reaches(board, from, to)` is true when the piece on `from` could
 * go to (or capture on, or attack) `to` by its movement rules, ignoring whose turn it is,
 * what stands on `to`, and king safety.
 */
import type { Board } from "../board/board.ts";
import type { PieceKind } from "../board/piece.ts";
import type { Square } from "../board/square.ts";
import { delta, pathClear } from "./geometry.ts";

export type Reaches = (board: Board, from: Square, to: Square) => boolean;

const king: Reaches = (_board, from, to) => {
  const { df, dr } = delta(from, to);
  return Math.max(Math.abs(df), Math.abs(dr)) === 1;
};

const knight: Reaches = (_board, from, to) => {
  const { df, dr } = delta(from, to);
  return (Math.abs(df) === 1 && Math.abs(dr) === 2) || (Math.abs(df) === 2 && Math.abs(dr) === 1);
};

const rook: Reaches = (board, from, to) => {
  const { df, dr } = delta(from, to);
  return (df === 0) !== (dr === 0) && pathClear(board, from, to);
};

const bishop: Reaches = (board, from, to) => {
  const { df, dr } = delta(from, to);
  return df !== 0 && Math.abs(df) === Math.abs(dr) && pathClear(board, from, to);
};

const queen: Reaches = (board, from, to) => rook(board, from, to) || bishop(board, from, to);

export const MOVERS: Record<PieceKind, Reaches> = { K: king, Q: queen, R: rook, B: bishop, N: knight };
