const ATX = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Inline Markdown reduced to its text: code spans, emphasis and links keep only what shows. */
export function plainText(inline) {
  return inline
    .replace(/`([^`]*)`/g, "$1")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__|\*|_)(.+?)\1/g, "$2");
}

/** The ATX headings of a document, outside fenced code blocks: `{ level, text }` in order. */
export function headings(markdown) {
  const found = [];
  let fence = null;
  for (const line of markdown.split(/\r?\n/)) {
    const opening = FENCE.exec(line);
    if (opening) {
      const marker = opening[1];
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const match = ATX.exec(line);
    if (match) found.push({ level: match[1].length, text: plainText(match[2]) });
  }
  return found;
}
