/** Shared movement helpers. */
import type { Board } from "../board/board.ts";
import type { Square } from "../board/square.ts";

/** File and rank distance from `from` to `to`. */
export function delta(from: Square, to: Square): { df: number; dr: number } {
  return { df: to.file - from.file, dr: to.rank - from.rank };
}

/**
 * True when every square strictly between `from` and `to` is empty. Only meaningful for
 * straight or diagonal lines.
 */
export function pathClear(board: Board, from: Square, to: Square): boolean {
  const { df, dr } = delta(from, to);
  const stepF = Math.sign(df);
  const stepR = Math.sign(dr);
  let file = from.file + stepF;
  let rank = from.rank + stepR;
  while (file !== to.file || rank !== to.rank) {
    if (board.at({ file, rank })) return false;
    file += stepF;
    rank += stepR;
  }
  return true;
}
