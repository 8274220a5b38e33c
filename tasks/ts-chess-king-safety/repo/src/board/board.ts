/** An immutable-by-convention board: `with` returns changed copies. */
import type { Color, Piece } from "./piece.ts";
import { formatSquare, type Square } from "./square.ts";

export class Board {
  /** squares[rank][file] */
  readonly #squares: (Piece | null)[][];

  constructor(squares: (Piece | null)[][], readonly turn: Color) {
    this.#squares = squares.map((row) => [...row]);
  }

  static empty(turn: Color = "w"): Board {
    return new Board(Array.from({ length: 8 }, () => Array(8).fill(null)), turn);
  }

  at(square: Square): Piece | null {
    return this.#squares[square.rank][square.file];
  }

  /** A copy with `square` set to `piece` (null empties it). */
  with(square: Square, piece: Piece | null): Board {
    const copy = new Board(this.#squares, this.turn);
    copy.#squares[square.rank][square.file] = piece;
    return copy;
  }

  /** A copy with the other side to move. */
  withTurn(turn: Color): Board {
    return new Board(this.#squares, turn);
  }

  /** Every occupied square with its piece. */
  pieces(): { square: Square; piece: Piece }[] {
    const out: { square: Square; piece: Piece }[] = [];
    this.#squares.forEach((row, rank) =>
      row.forEach((piece, file) => {
        if (piece) out.push({ square: { file, rank }, piece });
      })
    );
    return out;
  }

  /** Where `color`'s king stands, if it has one. */
  kingOf(color: Color): Square | undefined {
    return this.pieces().find(({ piece }) => piece.kind === "K" && piece.color === color)?.square;
  }

  toString(): string {
    return this.pieces().map(({ square, piece }) => `${piece.color}${piece.kind}@${formatSquare(square)}`).join(" ");
  }
}
