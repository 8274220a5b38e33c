/**
 * Full justification: every line but the last is stretched to exactly `width` columns by
 * widening the gaps between words. When the extra spaces do not divide evenly, the leftmost gaps
 * get one more (the convention of most typesetting tools). The last line, and lines with a single
 * word, stay left-aligned.
 */
import { displayWidth } from "./width.ts";
import { type WrapOptions, wrapWords } from "./wrap.ts";

/** Stretches one line of words to `width` columns. */
export function justifyLine(words: string[], width: number): string {
  if (words.length === 1) return words[0];
  const textWidth = words.reduce((sum, w) => sum + displayWidth(w), 0);
  const gaps = words.length - 1;
  const spaces = Math.max(gaps, width - textWidth);
  const base = Math.floor(spaces / gaps);
  const extra = spaces % gaps;
  let out = words[0];
  for (let i = 1; i < words.length; i++) {
    const wider = i > gaps - extra;
    out += " ".repeat(base + (wider ? 1 : 0)) + words[i];
  }
  return out;
}

/** Wraps and fully justifies a paragraph. */
export function justify(text: string, options: WrapOptions): string[] {
  const lines = wrapWords(text, options);
  return lines.map((words, i) => (i === lines.length - 1 ? words.join(" ") : justifyLine(words, options.width)));
}
