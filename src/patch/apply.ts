/**
 * File patches to disk: an all-or-nothing applier that sends every path through the guard and
 * computes every new file content in memory before it writes anything.
 */
import { realpathSync } from "node:fs";
import { posix } from "node:path";
import { Pacer } from "../workspace/pacer.ts";
import { guardPath } from "../workspace/guard.ts";
import { formatBytes } from "../workspace/limits.ts";
import { decodeText } from "../workspace/text.ts";
import type { FilePatch, Hunk, HunkLine } from "./parse.ts";

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
  | "file_too_large"
  | "invalid_input"
  | "timeout";

/** The files changed, or why nothing was changed. */
export type ApplyResult =
  | { ok: true; changed: FileChange[] }
  | { ok: false; code: ApplyErrorCode; message: string };

/** Options for {@linkcode applyFilePatches}. */
export interface ApplyOptions {
  /** Paths (relative, normalized) the patch may not touch. */
  isProtected?: (relPath: string) => boolean;
  /**
   * Largest existing file the patch may load (checked by stat before any byte is read); default no
   * limit. The agent's code can leave many big files, and a patch naming them all would otherwise
   * hold every one in memory at once.
   */
  maxFileBytes?: number;
  /**
   * `performance.now()` after which staging stops with `timeout` (nothing is written then); every
   * file is read with asynchronous calls, so other work of the process goes on meanwhile.
   */
  deadline?: number;
}

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
      // Synchronous calls for small files (microseconds, against tens for an asynchronous call),
      // asynchronous reads for big ones (they would hold the event loop).
      const stat = isFile ? Deno.statSync(guarded.abs) : null;
      const limit = options.maxFileBytes ?? Infinity;
      if (stat && stat.size > limit) {
        return failure(
          "file_too_large",
          `Cannot apply patch to "${guarded.rel}": the file is ${
            formatBytes(stat.size)
          }, over the ${
            formatBytes(limit)
          } limit for files that can be edited; delete it with run_command (e.g. ["python3", "-c", "import os; os.remove('${guarded.rel}')"]) or leave it`,
        );
      }
      const before = !stat
        ? null
        : stat.size > SYNC_READ_BYTES
        ? await Deno.readFile(guarded.abs)
        : Deno.readFileSync(guarded.abs);
      const mode = stat ? (stat.mode ?? 0o644) & 0o777 : null;
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

  // Sections, and the hunks of each, are staged in slices (see `Pacer`): up to the deadline, 500
  // sections that each rewrite the same file of 4 million lines held the orchestrator's thread for
  // 20 s in one go, and 6,000 hunks whose line numbers lie far from where they match 3 s.
  const pacer = new Pacer();
  const pace: Pace = async () => {
    const pause = pacer.pause();
    if (pause) await pause;
    return options.deadline === undefined || performance.now() <= options.deadline;
  };
  for (const patch of files) {
    if (!await pace()) {
      return failure(
        "timeout",
        `Cannot apply patch: staging its ${files.length} files took too long, nothing was changed; split it into smaller patches`,
      );
    }
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
    const staged = await stage(patch, source?.entry ?? null, target?.entry ?? null, pace);
    if ("ok" in staged) return staged;
    // A path changed by several sections is listed once, with its first kind.
    const seen = changed.some((c) => c.path === staged.path);
    if (!(seen && staged.kind === "modified")) changed.push(staged);
  }

  await writeEntries([...entries.values()].filter((entry) => entry.touched));
  return { ok: true, changed };
}

/** Files up to this size are read synchronously when staged. */
const SYNC_READ_BYTES = 256 * 1024;

/**
 * Deletions first, so a path freed by one section can be reused by another. Synchronous calls in
 * slices (see {@linkcode Pacer}): a patch of many files still hands the event loop back.
 */
async function writeEntries(entries: Entry[]): Promise<void> {
  const pacer = new Pacer();
  for (const entry of entries) {
    if (entry.content === null && entry.before !== null) Deno.removeSync(entry.abs);
  }
  const encoder = new TextEncoder();
  for (const entry of entries) {
    if (entry.content === null) continue;
    Deno.mkdirSync(posix.dirname(entry.abs), { recursive: true });
    const bytes = typeof entry.content === "string" ? encoder.encode(entry.content) : entry.content;
    // Writing over an existing file keeps its mode; set it only when it should differ.
    Deno.writeFileSync(entry.abs, bytes);
    const currentMode = entry.before !== null ? entry.beforeMode : null;
    if (entry.mode !== null && entry.mode !== currentMode) Deno.chmodSync(entry.abs, entry.mode);
    const pause = pacer.pause();
    if (pause) await pause;
  }
}

/** Apply one file section to the in-memory entries: the change it makes, or why it cannot. */
/** Hands the event loop a turn once a slice is used up; false once past the deadline. */
type Pace = () => Promise<boolean>;

async function stage(
  patch: FilePatch,
  src: Entry | null,
  dst: Entry | null,
  pace: Pace,
): Promise<FileChange | Failure> {
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
  const text = typeof src.content === "string"
    ? src.content
    : decodeText(src.content, { keepBom: true });
  if (text === null) {
    return failure(
      "patch_failed",
      `Cannot apply patch to "${src.rel}": it is a binary file; change text files only`,
    );
  }
  const applied = await applyHunks(text, patch.hunks, src.rel, pace);
  if (!applied.ok) return failure(applied.timeout ? "timeout" : "patch_failed", applied.message);
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

const looseEnd = (a: string, b: string) => a.trimEnd() === b.trimEnd();
/** What a line is compared by when a hunk is placed: itself, or itself without trailing space. */
type Key = (line: string) => string;
const exactKey: Key = (line) => line;
const looseEndKey: Key = (line) => line.trimEnd();

/**
 * Apply `hunks` in order to `text`. Each hunk goes at its stated line (shifted by the hunks before
 * it) if it matches there, else at the nearest exact match, else at the nearest match ignoring
 * trailing whitespace. Context lines keep the file's own text and line endings.
 */
async function applyHunks(
  text: string,
  hunks: Hunk[],
  path: string,
  pace: Pace,
): Promise<{ ok: true; text: string } | { ok: false; message: string; timeout?: true }> {
  const file = splitText(text);
  // The file's lines are never changed: the text so far goes to `out`, and the current text is
  // `out` then `lines` from `src` on. Splicing each hunk into one array moved every line after it,
  // hunks x lines in all: 20,000 one-line hunks on a file of 4 million lines held the
  // orchestrator's thread for 4 minutes (red team round 9).
  const { lines, ends } = file;
  const n = lines.length;
  const out: string[] = [];
  const outEnds: string[] = [];
  let src = 0;
  const crlf = ends.filter((end) => end === "\r\n").length;
  const eol = crlf > ends.filter((end) => end === "\n").length ? "\r\n" : "\n";
  // A patch that carries CRs says line by line which ending it means; one without any was
  // written without regard to them, and its lines take the file's usual ending.
  const faithful = hunks.some((hunk) => hunk.lines.some((line) => line.cr));
  // `cursor` and `offset` count lines of the current text; what is looked up lies at `cursor` or
  // after it, never in `out`: at `lines[i - shift]` for line i of the current text.
  let cursor = 0;
  let offset = 0;
  const findAnchor = anchorFinder(lines);
  for (const [index, hunk] of hunks.entries()) {
    // Placing a hunk looks from its cursor to the line it names: hunks whose numbers lie far
    // from where they match cost hunks x lines in all, so the thread is handed back meanwhile.
    if (!await pace()) {
      return {
        ok: false,
        timeout: true,
        message:
          `Cannot apply patch to "${path}": placing its ${hunks.length} hunks took too long, nothing was changed; split the patch, or give each hunk the line numbers where it goes`,
      };
    }
    const shift = out.length - src;
    for (const anchor of hunk.anchors) {
      const found = findAnchor(anchor, cursor - shift);
      if (found < 0) {
        const after = cursor > 0 ? ` after line ${cursor}` : "";
        return {
          ok: false,
          message: `Cannot apply patch to "${path}": hunk ${
            index + 1
          } anchor "${anchor}" not found${after}; re-read the file and retry with an "@@" line copied from it`,
        };
      }
      cursor = found + shift + 1;
    }
    const placed = placeHunk(lines, hunk, cursor - shift, offset - shift);
    if (!placed) {
      const current = out.concat(lines.slice(src));
      return { ok: false, message: notFound(path, index + 1, hunk, lines, current, cursor) };
    }
    const { pos, body } = placed; // in `lines`
    // The lines between the previous hunk and this one, as they are.
    for (let i = src; i < pos; i++) {
      out.push(lines[i]);
      outEnds.push(ends[i]);
    }
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
    if (pos + oldCount === n && newLines.length > 0) {
      const last = newLines.length - 1;
      // The current text's last line: the file's, or the last one written when none is left.
      const hadNoEol = (pos < n ? ends[n - 1] : outEnds[outEnds.length - 1]) === "";
      if (hunk.newNoEol) newEnds[last] = "";
      else if (hunk.oldNoEol || !hadNoEol) newEnds[last] ||= eol;
      else newEnds[last] = ""; // no marker either side: keep the file's missing final newline
    }
    for (let i = 0; i < newLines.length; i++) {
      out.push(newLines[i]);
      outEnds.push(newEnds[i]);
    }
    src = pos + oldCount;
    if (hunk.at !== null) offset = pos + shift - hunk.at + newLines.length - oldCount;
    cursor = out.length;
  }
  for (let i = src; i < n; i++) {
    out.push(lines[i]);
    outEnds.push(ends[i]);
  }
  // A line that was last but no longer is needs its newline back.
  for (let i = 0; i < out.length - 1; i++) if (outEnds[i] === "") outEnds[i] = eol;
  const body = out.map((line, i) => line + outEnds[i]).join("");
  return { ok: true, text: (file.bom ? "\uFEFF" : "") + body };
}

/**
 * Finds an anchor line (Codex `@@ def f():`) at or after a line of `lines`: the first exact match,
 * else the first ignoring trailing space, else the first ignoring surrounding space. The lines are
 * indexed by each of the three when first needed: scanning the rest of the file for every anchor
 * cost anchors x lines, and 10,000 anchors that match only trimmed held the orchestrator's thread
 * 4 s on a 20,000-line file (red team round 9).
 */
function anchorFinder(lines: string[]): (anchor: string, from: number) => number {
  const keys: Key[] = [exactKey, looseEndKey, (line) => line.trim()];
  const indexes: Map<string, number | number[]>[] = [];
  return (anchor, from) => {
    for (let j = 0; j < keys.length; j++) {
      const index = indexes[j] ??= indexLines(lines, keys[j]);
      const found = index.get(keys[j](anchor));
      if (found === undefined) continue;
      if (typeof found === "number") {
        if (found >= from) return found;
        continue;
      }
      // The first index not before `from` (they are in order).
      let low = 0;
      let high = found.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (found[middle] < from) low = middle + 1;
        else high = middle;
      }
      if (low < found.length) return found[low];
    }
    return -1;
  };
}

/** Where each line of `lines` is, by its key: one index, or all of them in order. */
function indexLines(lines: string[], key: Key): Map<string, number | number[]> {
  const index = new Map<string, number | number[]>();
  for (let i = 0; i < lines.length; i++) {
    const k = key(lines[i]);
    const found = index.get(k);
    if (found === undefined) index.set(k, i);
    else if (typeof found === "number") index.set(k, [found, i]);
    else found.push(i);
  }
  return index;
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
    for (const key of [exactKey, looseEndKey]) {
      const pos = search(lines, old, expected, cursor, key);
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

/**
 * The index nearest `expected` (not before `from`) where `old` matches, or null; of two as near,
 * the earlier. Linear in the lines (Knuth-Morris-Pratt over the lines' keys): trying every place
 * in turn costs lines x hunk lines, and a file of equal lines with a hunk of them that fails only
 * at its last line held the orchestrator's thread for minutes (red team round 9).
 */
function search(
  lines: string[],
  old: string[],
  expected: number,
  from: number,
  key: Key,
): number | null {
  const last = lines.length - old.length;
  if (last < from) return null;
  const start = Math.min(Math.max(expected, from), last);
  if (old.length === 0) return start;
  const want = old.map(key);
  // fallback[i]: length of the longest proper prefix of want[0..i] that is also its suffix.
  const fallback = new Int32Array(want.length);
  for (let i = 1, k = 0; i < want.length; i++) {
    while (k > 0 && want[i] !== want[k]) k = fallback[k - 1];
    if (want[i] === want[k]) k++;
    fallback[i] = k;
  }
  let best: number | null = null;
  for (let i = from, k = 0; i < lines.length; i++) {
    const line = key(lines[i]);
    while (k > 0 && line !== want[k]) k = fallback[k - 1];
    if (line === want[k]) k++;
    if (k === want.length) {
      // Matches come in order: the last one before `start` and the first from it are the nearest.
      const at = i - want.length + 1;
      if (best === null || Math.abs(at - start) < Math.abs(best - start)) best = at;
      if (at >= start) break;
      k = fallback[k - 1];
    }
  }
  return best;
}

const SHOWN_LINES = 12;
/** Line pairs compared at most to find the lines a failed hunk is nearest to. */
const SCORED_PAIRS = 1_000_000;

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
  if (search(current, old, cursor, 0, looseEndKey) !== null) {
    const before = number === 1 ? 'its "@@" anchor line' : `the end of hunk ${number - 1}`;
    return `${head} matches only before ${before}; put hunks in file order without overlaps and retry`;
  }
  if (original.length === 0) {
    return `${head} context not found: the file is empty; re-read the file and retry`;
  }
  const expected = hunk.at ?? 0;
  // Each place is scored on the hunk's first lines only, SCORED_PAIRS line pairs in all: every
  // place against every line of a long hunk costs lines x hunk lines (see `search`).
  const scored = Math.min(old.length, Math.max(1, Math.floor(SCORED_PAIRS / original.length)));
  // Lines compared as numbers, each line trimmed once: trimmed at every comparison, a hunk line
  // ending in a million spaces was trimmed once per line of the file.
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    const key = looseEndKey(line);
    let id = ids.get(key);
    if (id === undefined) ids.set(key, id = ids.size);
    return id;
  };
  const want = old.slice(0, scored).map(idOf);
  const have = original.map(idOf);
  let best = 0;
  let bestScore = -1;
  for (let at = 0; at < have.length; at++) {
    let score = 0;
    for (let k = 0; k < scored && at + k < have.length; k++) if (have[at + k] === want[k]) score++;
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
