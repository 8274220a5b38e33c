/** Measuring and padding cell text by code points, so "é" or "日" count as one column. */

export function displayWidth(text: string): number {
  return [...text].length;
}

export type Align = "left" | "right" | "center";

/** Pads `text` to `width` columns according to `align` (centre leans left). */
export function pad(text: string, width: number, align: Align): string {
  const gap = Math.max(0, width - displayWidth(text));
  if (align === "right") return " ".repeat(gap) + text;
  if (align === "center") {
    const left = Math.floor(gap / 2);
    return " ".repeat(left) + text + " ".repeat(gap - left);
  }
  return text + " ".repeat(gap);
}
