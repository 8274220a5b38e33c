/** Parsing and writing positions: FEN piece placement plus side to move. */
import { Board } from "./board.ts";
import { type Piece, type PieceKind, pieceLetter } from "./piece.ts";

export class PositionError extends Error {
  constructor(readonly input: string, reason: string) {
    super(`invalid position "${input}": ${reason}`);
    this.name = "PositionError";
  }
}

/** Parses "4k3/8/8/8/8/8/8/R3K3 w" (rank 8 first, as in FEN). */
export function parsePosition(text: string): Board {
  const [placement, turn = "w"] = text.trim().split(/\s+/);
  if (turn !== "w" && turn !== "b") throw new PositionError(text, `bad side to move "${turn}"`);
  const rows = placement.split("/");
  if (rows.length !== 8) throw new PositionError(text, "expected 8 ranks");
  const squares: (Piece | null)[][] = [];
  rows.forEach((row, i) => {
    const cells: (Piece | null)[] = [];
    for (const ch of row) {
      if (/[1-8]/.test(ch)) cells.push(...Array(Number(ch)).fill(null));
      else if (/[KQRBN]/i.test(ch)) {
        cells.push({ kind: ch.toUpperCase() as PieceKind, color: ch === ch.toUpperCase() ? "w" : "b" });
      } else throw new PositionError(text, `unknown piece "${ch}"`);
    }
    if (cells.length !== 8) throw new PositionError(text, `rank ${8 - i} has ${cells.length} squares`);
    squares[7 - i] = cells;
  });
  return new Board(squares, turn);
}

/** The inverse of {@linkcode parsePosition}. */
export function formatPosition(board: Board): string {
  const rows: string[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = "";
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const piece = board.at({ file, rank });
      if (!piece) {
        empty++;
        continue;
      }
      if (empty) row += empty;
      empty = 0;
      row += pieceLetter(piece);
    }
    rows.push(empty ? row + empty : row);
  }
  return `${rows.join("/")} ${board.turn}`;
}
