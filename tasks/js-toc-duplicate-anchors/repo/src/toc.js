import { headings } from "./headings.js";
import { slug } from "./slug.js";

/**
 * The entries of the table of contents: each heading with its anchor, from `minLevel` to
 * `maxLevel` (1 to 6).
 */
export function entries(markdown, { minLevel = 1, maxLevel = 6 } = {}) {
  return headings(markdown)
    .map((heading) => ({ ...heading, anchor: slug(heading.text) }))
    .filter((entry) => entry.level >= minLevel && entry.level <= maxLevel);
}

/** The table of contents as a nested Markdown list (two spaces per level below the top one). */
export function toc(markdown, options = {}) {
  const list = entries(markdown, options);
  if (list.length === 0) return "";
  const top = Math.min(...list.map((entry) => entry.level));
  return list.map((entry) =>
    `${"  ".repeat(entry.level - top)}- [${entry.text}](#${entry.anchor})`
  ).join("\n") + "\n";
}
