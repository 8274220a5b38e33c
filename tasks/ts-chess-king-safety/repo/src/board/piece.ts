/** Pieces that exist in this variant. */
export type PieceKind = "K" | "Q" | "R" | "B" | "N";
export type Color = "w" | "b";

export interface Piece {
  kind: PieceKind;
  color: Color;
}

export function opponent(color: Color): Color {
  return color === "w" ? "b" : "w";
}

/** FEN letter: uppercase for white ("K"), lowercase for black ("k"). */
export function pieceLetter(piece: Piece): string {
  return piece.color === "w" ? piece.kind : piece.kind.toLowerCase();
}
