/**
 * First pass over journal text: drop comments and blank lines, keep each line's number and
 * whether it is indented (a posting) or starts at the margin (a dated entry).
 */

/** One meaningful line of the journal. */
export interface SourceLine {
  /** 1-based line number in the file. */
  line: number;
  indented: boolean;
  /** The line without its comment and surrounding whitespace. */
  text: string;
}

/** Remove a `;` comment, unless the `;` sits inside a double-quoted string. */
export function stripComment(text: string): string {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === ";" && !quoted) return text.slice(0, i);
  }
  return text;
}

/** The meaningful lines of `text`, in order. */
export function sourceLines(text: string): SourceLine[] {
  const lines: SourceLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const content = stripComment(raw);
    if (content.trim() === "") return;
    lines.push({ line: i + 1, indented: /^[ \t]/.test(content), text: content.trim() });
  });
  return lines;
}
