/**
 * Patch text to file changes: a lenient parser for unified, git-style and Codex-envelope patches.
 * Leading prose, code fences and miscounted hunks are tolerated, since models write them.
 */
import { quotedEnd, unquotePath } from "./_path.ts";

/** One line of a hunk body, without its line ending. */
export interface HunkLine {
  /** Context, removed or added. */
  op: " " | "-" | "+";
  text: string;
  /** The patch line ended in CR, so the line is CRLF content. */
  cr: boolean;
}

/** A run of changes within one file. */
export interface Hunk {
  /** 0-based index in the original file where the old lines start; null when the patch has no line numbers. */
  at: number | null;
  /** Lines to find, in order, before placing the hunk (Codex `@@ def f():` sections). */
  anchors: string[];
  /** The hunk belongs at the end of the file (Codex `*** End of File`). */
  atEof: boolean;
  lines: HunkLine[];
  /** The old side's last line has no newline (`\ No newline at end of file`). */
  oldNoEol: boolean;
  /** The new side's last line has no newline. */
  newNoEol: boolean;
}

/** The change to one file: `from` null creates `to`, `to` null deletes `from`, different paths rename. */
export interface FilePatch {
  from: string | null;
  to: string | null;
  hunks: Hunk[];
  /** Permission bits from `new file mode` or `new mode`, when the patch gives them. */
  mode?: number;
  /** A binary section ("Binary files ... differ", "GIT binary patch"), which cannot be applied. */
  binary?: boolean;
}

/** Parsed file patches or why the text is not a patch. */
export type ParseResult = { ok: true; files: FilePatch[] } | { ok: false; message: string };

const FORMAT_HINT =
  'start each file with "--- a/path" and "+++ b/path" lines followed by "@@ -start,count +start,count @@" hunks, or use "*** Begin Patch" / "*** Update File: path" / "*** End Patch"';

/**
 * Parse a unified diff (plain or git-style, several files) or a Codex `*** Begin Patch` envelope.
 * Leading prose, a surrounding code fence and wrong hunk counts are tolerated.
 */
export function parsePatch(text: string): ParseResult {
  const lines = splitPatchLines(text);
  const begin = lines.text.findIndex((line) => line.trim() === "*** Begin Patch");
  // A line of a unified diff may trim to the marker too (the context line " *** Begin Patch" of a
  // repository that documents the envelope): an envelope only when it starts before any file
  // header, or a final diff near such a line was read as an envelope of no sections, not graded.
  const header = lines.text.findIndex((line, i) =>
    line.startsWith("diff --git ") ||
    (line.startsWith("--- ") && lines.text[i + 1]?.startsWith("+++ "))
  );
  const envelope = begin >= 0 && (header < 0 || begin < header);
  const parsed = envelope ? parseEnvelope(lines, begin + 1) : parseUnified(lines);
  if (!parsed.ok) return parsed;
  if (parsed.files.length === 0) {
    return notParsed(`no file header found; ${FORMAT_HINT}`);
  }
  for (const file of parsed.files) {
    const problem = checkFile(file);
    if (problem) return notParsed(problem);
  }
  return parsed;
}

interface PatchLines {
  text: string[];
  /** Whether each line ended in CR (content, not transport). */
  cr: boolean[];
}

function splitPatchLines(text: string): PatchLines {
  const raw = text.split("\n");
  if (raw.at(-1) === "") raw.pop();
  // A patch whose every line ends in CR went through a CRLF channel; the CRs are not content.
  const transport = raw.length > 0 && raw.every((line) => line === "" || line.endsWith("\r"));
  const cr = raw.map((line) => !transport && line.endsWith("\r"));
  return { text: raw.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line)), cr };
}

function checkFile(file: FilePatch): string | null {
  const name = file.to ?? file.from;
  if (name === null) return "a file section has /dev/null on both sides";
  if (file.binary) return null;
  const plainUpdate = file.from !== null && file.to !== null && file.from === file.to;
  if (plainUpdate && file.hunks.length === 0 && file.mode === undefined) {
    return `the section for "${name}" has no hunks; ${FORMAT_HINT}`;
  }
  return null;
}

function notParsed(problem: string): { ok: false; message: string } {
  return { ok: false, message: `Cannot parse patch: ${problem}` };
}

function emptyHunk(): Hunk {
  return { at: null, anchors: [], atEof: false, lines: [], oldNoEol: false, newNoEol: false };
}

/** Where a numbered hunk starts: `-5,0` inserts after line 5, `-5,2` starts at line 5. */
function hunkStart(header: RegExpExecArray): number {
  const start = Number(header[1]);
  return header[2] === "0" ? start : Math.max(start - 1, 0);
}

// ---- unified and git-style diffs ----

const HUNK_HEADER = /^@@+ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

interface Draft extends FilePatch {
  git: boolean;
  /** `---`/`+++` lines were seen for this file. */
  headed: boolean;
}

function parseUnified(src: PatchLines): ParseResult {
  const lines = src.text;
  const files: Draft[] = [];
  let file: Draft | null = null;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("diff --git ")) {
      const [from, to] = gitLinePaths(line.slice("diff --git ".length));
      file = { from, to, hunks: [], git: true, headed: false };
      files.push(file);
      for (i++; i < lines.length; i++) {
        const consumed = gitExtendedHeader(file, lines[i]);
        if (typeof consumed === "string") return notParsed(consumed);
        if (!consumed) break;
      }
      continue;
    }
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      const [from, to] = stripPrefixes(
        headerPath(line.slice(4)),
        headerPath(lines[i + 1].slice(4)),
      );
      if (file?.git && !file.headed && !file.binary && file.hunks.length === 0) {
        // "new file mode" and "deleted file mode" already said which side is absent.
        if (file.from !== null) file.from = from;
        if (file.to !== null) file.to = to;
        file.headed = true;
      } else {
        // A plain diff names two files only to show where they came from (`x.orig`, `x`): the new name wins.
        const path = to ?? from;
        file = {
          from: from === null ? null : path,
          to: to === null ? null : path,
          hunks: [],
          git: false,
          headed: true,
        };
        files.push(file);
      }
      i += 2;
      continue;
    }
    if (line.startsWith("@@")) {
      if (!file) {
        return notParsed(`line ${i + 1} starts a hunk before any file header; ${FORMAT_HINT}`);
      }
      const parsed = parseHunk(src, i);
      if (!parsed.ok) return parsed;
      file.hunks.push(parsed.hunk);
      i = parsed.next;
      continue;
    }
    const binary = line.startsWith("Binary files ") ? binaryLinePaths(line) : null;
    if (
      file?.git && !file.headed && file.hunks.length === 0 &&
      (line.startsWith("Binary files ") || line === "GIT binary patch")
    ) {
      file.binary = true; // in the header of its own `diff --git` section
    } else if (binary) {
      // `diff -ruN` prints a lone line for a binary file, between other files' sections.
      const [from, to] = binary;
      file = { from, to, hunks: [], binary: true, git: false, headed: true };
      files.push(file);
    }
    // Another tool's `diff -ruN a/x b/x` line starts the next file: a git section before it
    // (a pure rename, say) must not take that file's `---`/`+++` lines for its own.
    if (line.startsWith("diff ")) file = null;
    i++; // prose, fences, `Index:` lines and the like
  }
  return { ok: true, files: files.map(({ git: _git, headed: _headed, ...file }) => file) };
}

/** Apply one git extended header line; false when the line is not one, a message when unsupported. */
function gitExtendedHeader(file: Draft, line: string): boolean | string {
  const match =
    /^(old mode|new mode|new file mode|deleted file mode|similarity index|dissimilarity index|index|rename from|rename to|rename old|rename new|copy from|copy to) (.*)$/
      .exec(line);
  if (!match) return false;
  const [, key, value] = match;
  if (key === "new file mode") {
    file.from = null;
    file.mode = parseMode(value);
  } else if (key === "deleted file mode") {
    file.to = null;
  } else if (key === "new mode") {
    file.mode = parseMode(value);
  } else if (key === "rename from" || key === "rename old") {
    file.from = unquotePath(value);
  } else if (key === "rename to" || key === "rename new") {
    file.to = unquotePath(value);
  } else if (key.startsWith("copy")) {
    return `copies ("${line}") are not supported; add the new file with "--- /dev/null" and its full content instead`;
  }
  return true;
}

function parseMode(value: string): number | undefined {
  const mode = parseInt(value.trim(), 8);
  return Number.isNaN(mode) ? undefined : mode & 0o777;
}

/** The two paths of a `diff --git` line, prefixes stripped; the `---`/`+++` or rename lines may refine them. */
function gitLinePaths(rest: string): [string, string] {
  if (rest.startsWith('"')) {
    const end = quotedEnd(rest);
    const first = unquotePath(rest.slice(0, end));
    const second = unquotePath(rest.slice(end).trim());
    return stripPrefixes(first, second) as [string, string];
  }
  // `a/x b/x`: prefer the split that names the same file twice, since paths may contain " b/".
  // Each split is looked at and dropped: kept, those of a line of 8 million spaces took 2 GB.
  let named: [string, string] | null = null;
  for (let at = rest.indexOf(" "); at >= 0; at = rest.indexOf(" ", at + 1)) {
    const [a, b] = stripPrefixes(rest.slice(0, at), unquotePath(rest.slice(at + 1))) as [
      string,
      string,
    ];
    if (a === b) return [a, b];
    if (named === null && b !== "" && a !== "") named = [a, b];
  }
  return named ?? [rest, rest];
}

/**
 * The path of a `---`/`+++` line or one side of a `Binary files` line: quotes undone, /dev/null as
 * null, and what follows the name dropped: a timestamp after a tab (`diff -u`), or the tab git adds
 * after a name with a space. Any other tab is part of the name.
 */
function headerPath(raw: string): string | null {
  const path = raw.startsWith('"')
    ? unquotePath(raw.slice(0, quotedEnd(raw)))
    : withoutTimestamp(raw).trimEnd();
  return path === "/dev/null" ? null : path;
}

/**
 * `raw` without the tab and date `diff -u` writes after a name (`2024-01-31 10:00:00.000 +0100`,
 * `(revision 7)`): what follows the last tab, when it holds a time or is such a note. Looked for
 * without a regular expression over the whole line: `/\t[^\t]*\d:\d\d[^\t]*$/` backtracks in
 * line length squared, 0.6 s for a 40 KB line of "1:11" between two tabs, hours for an 8 MB patch.
 */
function withoutTimestamp(raw: string): string {
  const tab = raw.lastIndexOf("\t");
  if (tab < 0) return raw;
  const date = raw.slice(tab + 1);
  return /\d:\d\d/.test(date) || /^\((?:revision \d+|working copy|nonexistent)\)$/.test(date)
    ? raw.slice(0, tab)
    : raw;
}

/** The two paths of a `Binary files A and B differ` line, or null when the line is not one. */
function binaryLinePaths(line: string): [string | null, string | null] | null {
  const match = /^Binary files (.+) differ$/.exec(line);
  if (!match) return null;
  const names = match[1];
  const split = names.startsWith('"') ? quotedEnd(names) : names.indexOf(" and ");
  if (split < 0 || !names.slice(split).startsWith(" and ")) return null;
  return stripPrefixes(headerPath(names.slice(0, split)), headerPath(names.slice(split + 5)));
}

/** Drop git's `a/` and `b/` prefixes when both sides carry them (or one side is /dev/null). */
function stripPrefixes(from: string | null, to: string | null): [string | null, string | null] {
  const fromOk = from === null || from.startsWith("a/");
  const toOk = to === null || to.startsWith("b/");
  if (!fromOk || !toOk || (from === null && to === null)) return [from, to];
  return [from?.slice(2) ?? null, to?.slice(2) ?? null];
}

type HunkParse = { ok: true; hunk: Hunk; next: number } | { ok: false; message: string };

/**
 * Read one `@@` hunk. The stated counts decide only where a hunk ends when the body is ambiguous;
 * the hunk itself is recounted from its lines, since models often miscount.
 */
function parseHunk(src: PatchLines, start: number): HunkParse {
  const lines = src.text;
  const header = HUNK_HEADER.exec(lines[start]);
  const hunk = emptyHunk();
  let oldLeft = 0;
  let newLeft = 0;
  if (header) {
    hunk.at = hunkStart(header);
    oldLeft = header[2] === undefined ? 1 : Number(header[2]);
    newLeft = header[4] === undefined ? 1 : Number(header[4]);
  }
  let blanks = 0; // empty lines seen but not yet known to be context (editors strip the " ")
  let i = start + 1;
  for (; i < lines.length; i++) {
    const line = lines[i];
    const op = line[0];
    if (line === "") {
      if (oldLeft > 0 && newLeft > 0) {
        hunk.lines.push({ op: " ", text: "", cr: src.cr[i] });
        oldLeft--;
        newLeft--;
      } else {
        blanks++;
      }
      continue;
    }
    if (op === "\\" && hunk.lines.length > 0 && blanks === 0) {
      markNoEol(hunk);
      continue;
    }
    if (op !== " " && op !== "-" && op !== "+") break;
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      const countsDone = oldLeft <= 0 && newLeft <= 0;
      if (countsDone || blanks > 0 || lines[i + 2]?.startsWith("@@")) break;
    }
    for (; blanks > 0; blanks--) hunk.lines.push({ op: " ", text: "", cr: false });
    hunk.lines.push({ op, text: line.slice(1), cr: src.cr[i] });
    if (op !== "+") oldLeft--;
    if (op !== "-") newLeft--;
  }
  if (hunk.lines.length === 0) {
    return notParsed(`the hunk at line ${start + 1} has no lines; ${FORMAT_HINT}`);
  }
  return { ok: true, hunk, next: i };
}

/** `\ No newline at end of file` refers to the line before it. */
function markNoEol(hunk: Hunk): void {
  const last = hunk.lines[hunk.lines.length - 1];
  const op = last.op;
  if (last.cr) {
    // A last line without a newline has no ending for its CR to be part of: the CR is content.
    last.text += "\r";
    last.cr = false;
  }
  if (op !== "+") hunk.oldNoEol = true;
  if (op !== "-") hunk.newNoEol = true;
}

// ---- the Codex envelope ----

function parseEnvelope(src: PatchLines, start: number): ParseResult {
  const lines = src.text;
  const files: FilePatch[] = [];
  let file: FilePatch | null = null;
  let mode: "add" | "delete" | "update" | null = null;
  let hunk: Hunk | null = null;
  let blanks = 0;
  const closeHunk = () => {
    if (hunk && file && hunk.lines.length > 0) file.hunks.push(hunk);
    else if (hunk && hunk.anchors.length > 0) {
      return `the section "@@ ${hunk.anchors.join(" ")}" in "${file?.from}" has no lines`;
    }
    hunk = null;
    blanks = 0;
    return null;
  };
  for (let i = start; i < lines.length; i++) {
    const line = lines[i];
    const marker = line.trim();
    if (line.startsWith("*** ")) {
      const move = /^\*\*\* Move to:\s*(.+)$/.exec(marker);
      if (move && file && mode === "update" && !hunk) {
        file.to = move[1].trim();
        continue;
      }
      if (marker === "*** End of File" && hunk) {
        hunk.atEof = true;
        const problem = closeHunk();
        if (problem) return notParsed(problem);
        continue;
      }
      const problem = closeHunk();
      if (problem) return notParsed(problem);
      if (marker === "*** End Patch") break;
      const section = /^\*\*\* (Add|Delete|Update) File:\s*(.+)$/.exec(marker);
      if (!section) {
        return notParsed(
          `line ${
            i + 1
          } ("${marker}") is not a known "***" line; use "*** Add File: path", "*** Delete File: path", "*** Update File: path", "*** Move to: path" or "*** End Patch"`,
        );
      }
      const path = section[2].trim();
      mode = section[1] === "Add" ? "add" : section[1] === "Delete" ? "delete" : "update";
      file = { from: mode === "add" ? null : path, to: mode === "delete" ? null : path, hunks: [] };
      files.push(file);
      if (mode === "add") hunk = emptyHunk();
      continue;
    }
    if (!file || mode === null) continue; // prose before the first section
    if (line === "") {
      blanks++;
      continue;
    }
    if (mode === "delete") {
      return notParsed(
        `line ${i + 1} follows "*** Delete File: ${file.from}", which takes no lines`,
      );
    }
    if (mode === "add") {
      if (!line.startsWith("+")) {
        return notParsed(
          `line ${
            i + 1
          } in "*** Add File: ${file.to}" does not start with "+"; prefix every line of a new file with "+"`,
        );
      }
      for (; blanks > 0; blanks--) hunk!.lines.push({ op: "+", text: "", cr: false });
      hunk!.lines.push({ op: "+", text: line.slice(1), cr: src.cr[i] });
      continue;
    }
    if (line.startsWith("@@")) {
      if (hunk && hunk.lines.length > 0) {
        const problem = closeHunk();
        if (problem) return notParsed(problem);
      }
      hunk ??= emptyHunk();
      blanks = 0;
      const numbered = HUNK_HEADER.exec(line);
      const anchor = anchorText(line);
      if (numbered) {
        hunk.at = hunkStart(numbered);
      } else if (anchor !== "") {
        hunk.anchors.push(anchor);
      }
      continue;
    }
    hunk ??= emptyHunk();
    if (line.startsWith("\\") && hunk.lines.length > 0) {
      markNoEol(hunk);
      continue;
    }
    const op = line[0];
    if (op !== " " && op !== "-" && op !== "+") {
      return notParsed(
        `line ${
          i + 1
        } in "*** Update File: ${file.from}" starts with neither " ", "-" nor "+"; prefix context lines with a space`,
      );
    }
    for (; blanks > 0; blanks--) hunk.lines.push({ op: " ", text: "", cr: false });
    hunk.lines.push({ op, text: line.slice(1), cr: src.cr[i] });
  }
  const problem = closeHunk();
  if (problem) return notParsed(problem);
  return { ok: true, files };
}

/**
 * The text of a Codex `@@ def f():` line: the line without its leading `@@`s and trailing ones
 * (two or more), trimmed. Not by `/@@+$/`, which backtracks in the square of a run of `@`s that
 * does not end the line: 2 s for 40,000 of them, a day for 8 MB (the patch limit).
 */
function anchorText(line: string): string {
  let start = 0;
  while (line[start] === "@") start++;
  let end = line.length;
  while (end > start && line[end - 1] === "@") end--;
  if (line.length - end < 2) end = line.length;
  return line.slice(start, end).trim();
}
