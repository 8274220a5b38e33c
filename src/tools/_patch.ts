/**
 * Patch text to file changes: a lenient parser for unified, git-style and Codex-envelope patches,
 * and an all-or-nothing applier that sends every path through the guard and computes every new
 * file content in memory before it writes anything.
 */
import { realpathSync } from "node:fs";
import { posix } from "node:path";
import { guardPath } from "../workspace/guard.ts";

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

/** What applying did to one file. */
export interface FileChange {
  path: string;
  kind: "created" | "modified" | "deleted" | "renamed";
  /** The old path of a renamed file. */
  from?: string;
}

/** Why a patch was not applied. */
export type ApplyErrorCode =
  | "patch_failed"
  | "protected_path"
  | "path_outside_workspace"
  | "path_not_allowed"
  | "not_found"
  | "invalid_input";

/** The files changed, or why nothing was changed. */
export type ApplyResult =
  | { ok: true; changed: FileChange[] }
  | { ok: false; code: ApplyErrorCode; message: string };

/** Options for {@linkcode applyFilePatches}. */
export interface ApplyOptions {
  /** Paths (relative, normalized) the patch may not touch. */
  isProtected?: (relPath: string) => boolean;
}

const FORMAT_HINT =
  'start each file with "--- a/path" and "+++ b/path" lines followed by "@@ -start,count +start,count @@" hunks, or use "*** Begin Patch" / "*** Update File: path" / "*** End Patch"';

/**
 * Parse a unified diff (plain or git-style, several files) or a Codex `*** Begin Patch` envelope.
 * Leading prose, a surrounding code fence and wrong hunk counts are tolerated.
 */
export function parsePatch(text: string): ParseResult {
  const lines = splitPatchLines(text);
  const begin = lines.text.findIndex((line) => line.trim() === "*** Begin Patch");
  const parsed = begin >= 0 ? parseEnvelope(lines, begin + 1) : parseUnified(lines);
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
      if (file?.git && !file.headed && file.hunks.length === 0) {
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
    if (file && (line.startsWith("Binary files ") || line === "GIT binary patch")) {
      file.binary = true;
    }
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
    file.from = unquote(value);
  } else if (key === "rename to" || key === "rename new") {
    file.to = unquote(value);
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
    const first = unquote(rest.slice(0, end));
    const second = unquote(rest.slice(end).trim());
    return stripPrefixes(first, second) as [string, string];
  }
  // `a/x b/x`: prefer the split that names the same file twice, since paths may contain " b/".
  const splits: [string, string][] = [];
  for (let at = rest.indexOf(" "); at >= 0; at = rest.indexOf(" ", at + 1)) {
    splits.push([rest.slice(0, at), unquote(rest.slice(at + 1))]);
  }
  const stripped = splits.map(([a, b]) => stripPrefixes(a, b) as [string, string]);
  return stripped.find(([a, b]) => a === b) ?? stripped.find(([a, b]) => b !== "" && a !== "") ??
    [rest, rest];
}

function quotedEnd(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** The path of a `---`/`+++` line: timestamp after a tab dropped, quotes removed, /dev/null as null. */
function headerPath(raw: string): string | null {
  const path = unquote(raw.split("\t")[0].trimEnd());
  return path === "/dev/null" ? null : path;
}

/** Drop git's `a/` and `b/` prefixes when both sides carry them (or one side is /dev/null). */
function stripPrefixes(from: string | null, to: string | null): [string | null, string | null] {
  const fromOk = from === null || from.startsWith("a/");
  const toOk = to === null || to.startsWith("b/");
  if (!fromOk || !toOk || (from === null && to === null)) return [from, to];
  return [from?.slice(2) ?? null, to?.slice(2) ?? null];
}

/** Undo git's C-style quoting (`"a/sp\303\244ce"`); unquoted text is returned as is. */
function unquote(text: string): string {
  if (!(text.length >= 2 && text.startsWith('"') && text.endsWith('"'))) return text;
  const bytes: number[] = [];
  const escapes: Record<string, number> = { n: 10, t: 9, r: 13, b: 8, f: 12, v: 11, a: 7 };
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char !== "\\") {
      bytes.push(...new TextEncoder().encode(char));
      continue;
    }
    const next = body[++i] ?? "";
    if (/[0-7]/.test(next)) {
      const octal = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      bytes.push(parseInt(octal, 8));
      i += octal.length - 1;
    } else {
      bytes.push(escapes[next] ?? next.charCodeAt(0));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
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
      const anchor = line.replace(/^@@+/, "").replace(/@@+$/, "").trim();
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

// ---- applying ----

interface Entry {
  /** Path as the patch named it, normalized. */
  rel: string;
  abs: string;
  isDir: boolean;
  /** Content on disk before the patch; null when absent. */
  before: Uint8Array | null;
  beforeMode: number | null;
  /** Content after the sections applied so far; null when absent. */
  content: Uint8Array | string | null;
  mode: number | null;
  touched: boolean;
}

type Failure = Extract<ApplyResult, { ok: false }>;
type Opened = { ok: true; entry: Entry } | Failure;

/**
 * Apply parsed file patches under `root`, all or nothing: every path goes through the guard, every
 * new content is computed in memory, and files are written only when every section applied.
 */
export async function applyFilePatches(
  root: string,
  files: FilePatch[],
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const realRoot = realpathSync(root);
  const entries = new Map<string, Entry>();
  const changed: FileChange[] = [];

  const open = async (path: string): Promise<Opened> => {
    const guarded = guardPath(realRoot, path, { allowMissing: true });
    if (!guarded.ok) return guarded;
    // A symlink inside the workspace may lead to a protected file, so check the real path too.
    if (options.isProtected?.(guarded.rel) || options.isProtected?.(guarded.realRel)) {
      return {
        ok: false,
        code: "protected_path",
        message:
          `Cannot apply patch to "${guarded.rel}": the path is protected and must not change; change other files`,
      };
    }
    let entry = entries.get(guarded.abs);
    if (!entry) {
      const isFile = guarded.exists && !guarded.isDir;
      const before = isFile ? await Deno.readFile(guarded.abs) : null;
      const mode = isFile ? ((await Deno.stat(guarded.abs)).mode ?? 0o644) & 0o777 : null;
      entry = {
        rel: guarded.rel,
        abs: guarded.abs,
        isDir: guarded.isDir,
        before,
        beforeMode: mode,
        content: before,
        mode,
        touched: false,
      };
      entries.set(guarded.abs, entry);
    }
    return { ok: true, entry };
  };

  for (const patch of files) {
    if (patch.binary) {
      const name = patch.to ?? patch.from;
      return failure(
        "patch_failed",
        `Cannot apply patch to "${name}": binary changes cannot be applied; change text files only`,
      );
    }
    const source = patch.from === null ? null : await open(patch.from);
    if (source && !source.ok) return source;
    const target = patch.to === null
      ? null
      : patch.to === patch.from
      ? source
      : await open(patch.to);
    if (target && !target.ok) return target;
    const staged = stage(patch, source?.entry ?? null, target?.entry ?? null);
    if ("ok" in staged) return staged;
    // A path changed by several sections is listed once, with its first kind.
    const seen = changed.some((c) => c.path === staged.path);
    if (!(seen && staged.kind === "modified")) changed.push(staged);
  }

  await writeEntries([...entries.values()].filter((entry) => entry.touched));
  return { ok: true, changed };
}

/** Deletions first, so a path freed by one section can be reused by another. */
async function writeEntries(entries: Entry[]): Promise<void> {
  for (const entry of entries) {
    if (entry.content === null && entry.before !== null) await Deno.remove(entry.abs);
  }
  const encoder = new TextEncoder();
  for (const entry of entries) {
    if (entry.content === null) continue;
    await Deno.mkdir(posix.dirname(entry.abs), { recursive: true });
    const bytes = typeof entry.content === "string" ? encoder.encode(entry.content) : entry.content;
    // Writing over an existing file keeps its mode; set it only when it should differ.
    await Deno.writeFile(entry.abs, bytes);
    const currentMode = entry.before !== null ? entry.beforeMode : null;
    if (entry.mode !== null && entry.mode !== currentMode) await Deno.chmod(entry.abs, entry.mode);
  }
}

/** Apply one file section to the in-memory entries: the change it makes, or why it cannot. */
function stage(patch: FilePatch, src: Entry | null, dst: Entry | null): FileChange | Failure {
  // `diff -N` shows a new file as a diff from an empty file with the same name.
  const onlyAdds = patch.hunks.length > 0 &&
    patch.hunks.every((hunk) => hunk.lines.every((line) => line.op === "+"));
  if (src !== null && dst === src && src.content === null && !src.isDir && onlyAdds) src = null;
  if (src === null) {
    if (dst === null) {
      return failure("invalid_input", "Cannot apply patch: a section names no file");
    }
    if (dst.isDir || dst.content !== null) {
      return failure(
        "patch_failed",
        `Cannot create "${dst.rel}": it already exists; make a diff against its current content to change it`,
      );
    }
    Object.assign(dst, {
      content: newFileText(patch.hunks),
      mode: patch.mode ?? null,
      touched: true,
    });
    return { path: dst.rel, kind: "created" };
  }
  if (src.isDir) {
    return failure(
      "patch_failed",
      `Cannot apply patch to "${src.rel}": it is a folder, not a file; name the files inside it`,
    );
  }
  if (src.content === null) {
    return failure(
      "not_found",
      `Cannot ${
        dst === null ? "delete" : "update"
      } "${src.rel}": the file does not exist; list the files to check the path, or add it as a new file`,
    );
  }
  src.touched = true;
  if (dst === null) {
    src.content = null;
    return { path: src.rel, kind: "deleted" };
  }
  const text = typeof src.content === "string" ? src.content : decodeFile(src.content);
  if (text === null) {
    return failure(
      "patch_failed",
      `Cannot apply patch to "${src.rel}": it is a binary file; change text files only`,
    );
  }
  const applied = applyHunks(text, patch.hunks, src.rel);
  if (!applied.ok) return failure("patch_failed", applied.message);
  if (dst === src) {
    Object.assign(src, { content: applied.text, mode: patch.mode ?? src.mode });
    return { path: src.rel, kind: "modified" };
  }
  if (dst.isDir || dst.content !== null) {
    return failure(
      "patch_failed",
      `Cannot rename "${src.rel}" to "${dst.rel}": "${dst.rel}" already exists; pick a new path or delete it first`,
    );
  }
  Object.assign(dst, { content: applied.text, mode: patch.mode ?? src.mode, touched: true });
  src.content = null;
  return { path: dst.rel, kind: "renamed", from: src.rel };
}

function failure(code: ApplyErrorCode, message: string): Failure {
  return { ok: false, code, message };
}

const fileDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Text of a file, BOM kept, or null when it is binary (a NUL byte or invalid UTF-8). */
function decodeFile(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return fileDecoder.decode(bytes);
  } catch {
    return null;
  }
}

/** The content of a new file: the context and added lines of its hunks. */
function newFileText(hunks: Hunk[]): string {
  const lines = hunks.flatMap((hunk) => hunk.lines.filter((line) => line.op !== "-"));
  const noEol = hunks.at(-1)?.newNoEol ?? false;
  return lines
    .map((line, i) => line.text + (noEol && i === lines.length - 1 ? "" : line.cr ? "\r\n" : "\n"))
    .join("");
}

interface TextFile {
  bom: boolean;
  /** Lines without their endings. */
  lines: string[];
  /** Each line's ending: "\n", "\r\n", or "" for a last line without one. */
  ends: string[];
}

function splitText(text: string): TextFile {
  const bom = text.startsWith("\uFEFF");
  const body = bom ? text.slice(1) : text;
  const lines: string[] = [];
  const ends: string[] = [];
  let start = 0;
  while (start < body.length) {
    const newline = body.indexOf("\n", start);
    if (newline < 0) {
      lines.push(body.slice(start));
      ends.push("");
      break;
    }
    const crlf = newline > start && body[newline - 1] === "\r";
    lines.push(body.slice(start, crlf ? newline - 1 : newline));
    ends.push(crlf ? "\r\n" : "\n");
    start = newline + 1;
  }
  return { bom, lines, ends };
}

type Equal = (a: string, b: string) => boolean;
const exact: Equal = (a, b) => a === b;
const looseEnd: Equal = (a, b) => a.trimEnd() === b.trimEnd();

/**
 * Apply `hunks` in order to `text`. Each hunk goes at its stated line (shifted by the hunks before
 * it) if it matches there, else at the nearest exact match, else at the nearest match ignoring
 * trailing whitespace. Context lines keep the file's own text and line endings.
 */
function applyHunks(
  text: string,
  hunks: Hunk[],
  path: string,
): { ok: true; text: string } | { ok: false; message: string } {
  const file = splitText(text);
  const original = [...file.lines];
  const { lines, ends } = file;
  const crlf = ends.filter((end) => end === "\r\n").length;
  const eol = crlf > ends.filter((end) => end === "\n").length ? "\r\n" : "\n";
  // A patch that carries CRs says line by line which ending it means; one without any was
  // written without regard to them, and its lines take the file's usual ending.
  const faithful = hunks.some((hunk) => hunk.lines.some((line) => line.cr));
  let cursor = 0;
  let offset = 0;
  for (const [index, hunk] of hunks.entries()) {
    for (const anchor of hunk.anchors) {
      const found = findAnchor(lines, anchor, cursor);
      if (found < 0) {
        const after = cursor > 0 ? ` after line ${cursor}` : "";
        return {
          ok: false,
          message: `Cannot apply patch to "${path}": hunk ${
            index + 1
          } anchor "${anchor}" not found${after}; re-read the file and retry with an "@@" line copied from it`,
        };
      }
      cursor = found + 1;
    }
    const placed = placeHunk(lines, hunk, cursor, offset);
    if (!placed) {
      return { ok: false, message: notFound(path, index + 1, hunk, original, lines, cursor) };
    }
    const { pos, body } = placed;
    const newLines: string[] = [];
    const newEnds: string[] = [];
    let k = pos;
    for (const line of body) {
      if (line.op === " ") {
        newLines.push(lines[k]);
        newEnds.push(ends[k]);
        k++;
      } else if (line.op === "-") {
        k++;
      } else {
        newLines.push(line.text);
        newEnds.push(line.cr ? "\r\n" : faithful ? "\n" : eol);
      }
    }
    const oldCount = k - pos;
    if (pos + oldCount === lines.length && newLines.length > 0) {
      const last = newLines.length - 1;
      const hadNoEol = lines.length > 0 && ends[lines.length - 1] === "";
      if (hunk.newNoEol) newEnds[last] = "";
      else if (hunk.oldNoEol || !hadNoEol) newEnds[last] ||= eol;
      else newEnds[last] = ""; // no marker either side: keep the file's missing final newline
    }
    lines.splice(pos, oldCount, ...newLines);
    ends.splice(pos, oldCount, ...newEnds);
    if (hunk.at !== null) offset = pos - hunk.at + newLines.length - oldCount;
    cursor = pos + newLines.length;
  }
  // A line that was last but no longer is needs its newline back.
  for (let i = 0; i < lines.length - 1; i++) if (ends[i] === "") ends[i] = eol;
  const body = lines.map((line, i) => line + ends[i]).join("");
  return { ok: true, text: (file.bom ? "\uFEFF" : "") + body };
}

function findAnchor(lines: string[], anchor: string, from: number): number {
  for (const equal of [exact, looseEnd, (a: string, b: string) => a.trim() === b.trim()]) {
    for (let i = from; i < lines.length; i++) if (equal(lines[i], anchor)) return i;
  }
  return -1;
}

/** Where a hunk goes, and the body used (trailing blank context may be dropped). */
function placeHunk(
  lines: string[],
  hunk: Hunk,
  cursor: number,
  offset: number,
): { pos: number; body: HunkLine[] } | null {
  for (const body of bodies(hunk.lines)) {
    const old = body.filter((line) => line.op !== "+").map((line) => line.text);
    const expected = expectedIndex(hunk, old.length, lines.length, cursor, offset);
    if (old.length === 0) {
      const pos = hunk.at !== null ? expected : hunk.anchors.length > 0 ? cursor : lines.length;
      return { pos: Math.min(Math.max(pos, cursor), lines.length), body };
    }
    for (const equal of [exact, looseEnd]) {
      const pos = search(lines, old, expected, cursor, equal);
      if (pos !== null) return { pos, body };
    }
  }
  return null;
}

/** The hunk's lines, then the same without trailing empty context lines (often stray blank lines). */
function bodies(lines: HunkLine[]): HunkLine[][] {
  let end = lines.length;
  while (end > 0 && lines[end - 1].op === " " && lines[end - 1].text.trim() === "") end--;
  return end < lines.length && end > 0 ? [lines, lines.slice(0, end)] : [lines];
}

function expectedIndex(
  hunk: Hunk,
  oldCount: number,
  length: number,
  cursor: number,
  offset: number,
): number {
  if (hunk.at !== null) return hunk.at + offset;
  return hunk.atEof ? length - oldCount : cursor;
}

/** The index nearest `expected` (not before `from`) where `old` matches, or null. */
function search(
  lines: string[],
  old: string[],
  expected: number,
  from: number,
  equal: Equal,
): number | null {
  const last = lines.length - old.length;
  if (last < from) return null;
  const start = Math.min(Math.max(expected, from), last);
  for (let d = 0; start - d >= from || start + d <= last; d++) {
    if (start - d >= from && matchesAt(lines, old, start - d, equal)) return start - d;
    if (d > 0 && start + d <= last && matchesAt(lines, old, start + d, equal)) return start + d;
  }
  return null;
}

function matchesAt(lines: string[], old: string[], at: number, equal: Equal): boolean {
  for (let i = 0; i < old.length; i++) if (!equal(lines[at + i], old[i])) return false;
  return true;
}

const SHOWN_LINES = 12;

/**
 * Why a hunk did not apply, with the best-matching lines of the original file (the numbers the
 * model sees when it re-reads the file) and what to do next.
 */
function notFound(
  path: string,
  number: number,
  hunk: Hunk,
  original: string[],
  current: string[],
  cursor: number,
): string {
  const old = hunk.lines.filter((line) => line.op !== "+").map((line) => line.text);
  const head = `Cannot apply patch to "${path}": hunk ${number}`;
  if (search(current, old, cursor, 0, looseEnd) !== null) {
    const before = number === 1 ? 'its "@@" anchor line' : `the end of hunk ${number - 1}`;
    return `${head} matches only before ${before}; put hunks in file order without overlaps and retry`;
  }
  if (original.length === 0) {
    return `${head} context not found: the file is empty; re-read the file and retry`;
  }
  const expected = hunk.at ?? 0;
  let best = 0;
  let bestScore = -1;
  for (let at = 0; at < original.length; at++) {
    let score = 0;
    for (let k = 0; k < old.length && at + k < original.length; k++) {
      if (looseEnd(original[at + k], old[k])) score++;
    }
    if (
      score > bestScore ||
      (score === bestScore && Math.abs(at - expected) < Math.abs(best - expected))
    ) {
      best = at;
      bestScore = score;
    }
  }
  const near = hunk.at !== null ? hunk.at + 1 : best + 1;
  const end = Math.min(original.length, best + Math.max(old.length, 1), best + SHOWN_LINES);
  const width = String(end).length;
  const shown = original.slice(best, end).map((line, i) =>
    `  ${String(best + i + 1).padStart(width)} | ${line}`
  );
  if (best + old.length > end && end < original.length) shown.push("  ...");
  const differs = old.findIndex((line, k) =>
    best + k >= original.length || !looseEnd(original[best + k], line)
  );
  const advice = "re-read the file and retry with its exact lines as context";
  const detail = differs < 0
    ? `${advice[0].toUpperCase()}${advice.slice(1)}`
    : best + differs >= original.length
    ? `The file ends at line ${original.length}, but the patch expects ${
      JSON.stringify(old[differs])
    } after it; ${advice}`
    : `The patch expects ${JSON.stringify(old[differs])} at line ${best + differs + 1}; ${advice}`;
  return `${head} context not found near line ${near}; the file has there:\n${
    shown.join("\n")
  }\n${detail}`;
}
