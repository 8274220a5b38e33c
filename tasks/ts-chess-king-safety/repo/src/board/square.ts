/** Squares: file 0-7 is a-h, rank 0-7 is 1-8. */
export interface Square {
  file: number;
  rank: number;
}

/** Thrown for text that is not a square ("e9", "i1"). */
export class SquareError extends Error {
  constructor(readonly input: string) {
    super(`invalid square "${input}"`);
    this.name = "SquareError";
  }
}

export function parseSquare(text: string): Square {
  const m = /^([a-h])([1-8])$/.exec(text);
  if (!m) throw new SquareError(text);
  return { file: m[1].charCodeAt(0) - 97, rank: Number(m[2]) - 1 };
}

export function formatSquare(square: Square): string {
  return String.fromCharCode(97 + square.file) + String(square.rank + 1);
}

export function onBoard(file: number, rank: number): boolean {
  return file >= 0 && file < 8 && rank >= 0 && rank < 8;
}

/** All 64 squares, a1 first. */
export function allSquares(): Square[] {
  const squares: Square[] = [];
  for (let rank = 0; rank < 8; rank++) {
    for (let file = 0; file < 8; file++) squares.push({ file, rank });
  }
  return squares;
}
