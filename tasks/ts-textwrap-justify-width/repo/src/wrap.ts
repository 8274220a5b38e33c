/**
 * Greedy word wrapping by display width.
 */
import { displayWidth } from "./width.ts";

/** Options for {@linkcode wrapWords}. */
export interface WrapOptions {
  /** Maximum columns per line. */
  width: number;
  /** Split words longer than `width` across lines (default true); otherwise they overflow. */
  breakLongWords?: boolean;
}

/** Splits a word into pieces of at most `width` columns. */
export function splitWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = "";
  for (const char of word) {
    if (piece !== "" && displayWidth(piece + char) > width) {
      pieces.push(piece);
      piece = "";
    }
    piece += char;
  }
  if (piece !== "") pieces.push(piece);
  return pieces;
}

/** Wraps the words of one paragraph into lines (words separated by single spaces). */
export function wrapWords(text: string, options: WrapOptions): string[][] {
  if (options.width < 1) throw new RangeError("width must be at least 1");
  const words = text.split(/\s+/).filter(Boolean).flatMap((word) =>
    options.breakLongWords !== false && displayWidth(word) > options.width ? splitWord(word, options.width) : [word]
  );
  const lines: string[][] = [];
  let line: string[] = [];
  let used = 0;
  for (const word of words) {
    const needed = line.length === 0 ? word.length : used + 1 + word.length;
    if (line.length > 0 && needed > options.width) {
      lines.push(line);
      line = [word];
      used = displayWidth(word);
    } else {
      line.push(word);
      used = needed;
    }
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

/** Wraps a paragraph into strings. */
export function wrap(text: string, options: WrapOptions): string[] {
  return wrapWords(text, options).map((words) => words.join(" "));
}
