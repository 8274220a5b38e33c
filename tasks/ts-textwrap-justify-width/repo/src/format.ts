/**
 * Formatting whole documents: paragraphs separated by blank lines, each wrapped or justified,
 * with an optional prefix (such as `"> "` for e-mail quoting) counted in the width.
 */
import { justify } from "./justify.ts";
import { displayWidth } from "./width.ts";
import { wrap } from "./wrap.ts";

/** Options for {@linkcode formatText}. */
export interface FormatOptions {
  width: number;
  align?: "left" | "justify";
  /** Prepended to every output line, blank separators included (trimmed on blank lines). */
  prefix?: string;
}

/** Splits text into paragraphs at blank lines. */
export function paragraphs(text: string): string[] {
  return text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
}

/** Reflows `text` into lines of at most `width` columns (prefix included). */
export function formatText(text: string, options: FormatOptions): string {
  const prefix = options.prefix ?? "";
  const inner = options.width - displayWidth(prefix);
  if (inner < 1) throw new RangeError("prefix leaves no room for text");
  const layout = options.align === "justify" ? justify : wrap;
  const blocks = paragraphs(text).map((p) => layout(p, { width: inner }).map((line) => prefix + line));
  return blocks.map((b) => b.join("\n")).join(`\n${prefix.trimEnd()}\n`);
}
