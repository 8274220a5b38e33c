/** Moves and the reasons a move can be refused. */
import { parseSquare, type Square } from "../board/square.ts";

export interface Move {
  from: Square;
  to: Square;
}

/** Parses "e2e4" or "e2-e4". */
export function parseMove(text: string): Move {
  const m = /^([a-h][1-8])-?([a-h][1-8])$/.exec(text);
  if (!m) throw new Error(`invalid move "${text}"`);
  return { from: parseSquare(m[1]), to: parseSquare(m[2]) };
}

/** Why a move is illegal. */
export type IllegalReason =
  | "no_piece"
  | "wrong_turn"
  | "same_square"
  | "own_piece"
  | "bad_geometry";

export type Verdict = { ok: true } | { ok: false; reason: IllegalReason };
