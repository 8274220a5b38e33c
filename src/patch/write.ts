/**
 * File contents to patch text: the git-style unified diff of one file, as `git diff` writes it, which
 * the parser in `parse.ts` reads back exactly.
 */
import { structuredPatch } from "diff";
import { decodeText } from "../workspace/text.ts";
import { quotePath } from "./_path.ts";

/**
 * Git-style diff of one file; `undefined` on a side means the file is absent there. Empty when
 * both sides hold the same text.
 */
export function fileDiff(
  path: string,
  before: Uint8Array | undefined,
  after: Uint8Array | undefined,
  stat?: { binary: string[] },
): string {
  const [a, b] = [quotePath(`a/${path}`), quotePath(`b/${path}`)];
  let header = `diff --git ${a} ${b}\n`;
  if (!before) header += "new file mode 100644\n";
  if (!after) header += "deleted file mode 100644\n";
  const oldText = before ? decodeText(before) : "";
  const newText = after ? decodeText(after) : "";
  // Texts are compared without a byte-order mark: a file that only gained or lost one has no
  // change a patch can carry (a section without a hunk is refused), so it gets no section.
  if (before && after && oldText !== null && oldText === newText) return "";
  if (oldText === null || newText === null) {
    stat?.binary.push(path);
    return `${header}Binary files ${before ? a : "/dev/null"} and ${
      after ? b : "/dev/null"
    } differ\n`;
  }
  // Myers' diff costs (lines x edits): a full rewrite of a big file would take minutes. Past
  // MAX_EDIT_LINES edits the file is shown as removed and added whole, which applies the same.
  const patch = structuredPatch(path, path, oldText, newText, "", "", {
    context: 3,
    maxEditLength: MAX_EDIT_LINES,
  }) ?? wholeFilePatch(oldText, newText);
  // Like git, end a name with a space with a tab, so `patch` does not cut the name at the space.
  const tab = path.includes(" ") ? "\t" : "";
  let body = `--- ${before ? a + tab : "/dev/null"}\n+++ ${after ? b + tab : "/dev/null"}\n`;
  for (const hunk of patch.hunks) {
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    body += `@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@\n`;
    for (const line of hunk.lines) body += `${line}\n`;
  }
  return header + (patch.hunks.length > 0 ? body : "");
}

const MAX_EDIT_LINES = 1000;

/** A one-hunk patch that removes every line of `oldText` and adds every line of `newText`. */
function wholeFilePatch(oldText: string, newText: string) {
  const split = (text: string) => {
    if (text === "") return [];
    const lines = text.split("\n");
    if (text.endsWith("\n")) lines.pop();
    return lines;
  };
  const before = split(oldText);
  const after = split(newText);
  const lines = [
    ...before.map((l) => `-${l}`),
    ...(oldText !== "" && !oldText.endsWith("\n") ? ["\\ No newline at end of file"] : []),
    ...after.map((l) => `+${l}`),
    ...(newText !== "" && !newText.endsWith("\n") ? ["\\ No newline at end of file"] : []),
  ];
  return {
    hunks: [{
      oldStart: 1,
      oldLines: before.length,
      newStart: 1,
      newLines: after.length,
      lines,
    }],
  };
}
