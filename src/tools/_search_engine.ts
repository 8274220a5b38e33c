/**
 * The search itself: walk the files, match each line, collect `path:line:text` hits. Plain
 * synchronous code, run inside a worker (see `_search_pool.ts`) so that a slow pattern or a big
 * tree never holds up the orchestrator's thread. The worker is built from these functions' text
 * (`_search_worker.ts`): they may use only each other, `walk`, `readFileSync`, `Deno` and the
 * constants here.
 */
import { readFileSync } from "node:fs";
import { walk } from "../workspace/walk.ts";

/** Longest matching line shown whole. */
export const MAX_LINE_CHARS = 300;
/** Bytes checked for a NUL to call a file binary. */
export const BINARY_SNIFF_BYTES = 8192;

/** What to search: everything is plain data, so it can be posted to a worker. */
export interface SearchRequest {
  /** Absolute path of the file or folder to search. */
  abs: string;
  /** Its path relative to the workspace (`.` for the root). */
  rel: string;
  isDir: boolean;
  /** Regular expression source and flags. */
  source: string;
  flags: string;
  /** Source and flags of the glob's regular expression, if any. */
  glob: { source: string; flags: string } | null;
  maxResults: number;
  /**
   * One share of a big tree searched by several workers at once: the files whose place in the
   * walk's order is `index` modulo `of` (every worker walks the whole tree, which costs little
   * beside reading the files).
   */
  shard?: { index: number; of: number };
}

/** What a search found. */
export interface SearchAnswer {
  /** Up to `maxResults` hits, `path:line:text`. */
  hits: string[];
  /** Matching lines in all. */
  total: number;
  filesWithHits: number;
  /**
   * In a share's answer: for each of its files with hits, in order, its place in the walk's order
   * and how many of `hits` are its own (see {@linkcode mergeShares}).
   */
  byFile?: [order: number, taken: number][];
}

/**
 * Which of `paths` a glob's regular expression matches: for `list_files`, whose glob runs here,
 * under the worker's deadline, since a glob like `*a*a*a*a*b` backtracks for minutes on one long
 * name and the orchestrator's thread must never run it.
 */
export interface MatchRequest {
  paths: string[];
  glob: { source: string; flags: string };
}

/** Indices of the paths that matched, in order. */
export interface MatchAnswer {
  matched: number[];
}

/** Run one {@linkcode MatchRequest}. */
export function matchPaths(request: MatchRequest): MatchAnswer {
  const glob = new RegExp(request.glob.source, request.glob.flags);
  const matched: number[] = [];
  for (let i = 0; i < request.paths.length; i++) if (glob.test(request.paths[i])) matched.push(i);
  return { matched };
}

/** Run one search. */
export function searchTree(request: SearchRequest): SearchAnswer {
  const regex = new RegExp(request.source, request.flags);
  const glob = request.glob ? new RegExp(request.glob.source, request.glob.flags) : null;
  const files = request.isDir
    ? walkFiles(request.abs, request.rel === "." ? "" : request.rel, glob)
    : [[request.rel, request.abs] as const];
  const { index, of } = request.shard ?? { index: 0, of: 1 };
  const hits: string[] = [];
  const byFile: [number, number][] = [];
  let total = 0;
  let filesWithHits = 0;
  let order = -1;
  for (const [rel, abs] of files) {
    if (++order % of !== index) continue;
    const before = hits.length;
    const found = searchFile(abs, rel, regex, hits, request.maxResults - hits.length);
    total += found;
    if (found > 0) {
      filesWithHits++;
      byFile.push([order, hits.length - before]);
    }
  }
  return { hits, total, filesWithHits, ...(of > 1 ? { byFile } : {}) };
}

/**
 * The answer of one search from its shares' answers: hits in the walk's order, the first
 * `maxResults` of them (each share kept its own first `maxResults`, which holds every one of them
 * that can be among the first overall), and the counts summed.
 */
export function mergeShares(shares: SearchAnswer[], maxResults: number): SearchAnswer {
  const files: [order: number, hits: string[]][] = [];
  let total = 0;
  let filesWithHits = 0;
  for (const share of shares) {
    let at = 0;
    for (const [order, taken] of share.byFile ?? []) {
      files.push([order, share.hits.slice(at, at + taken)]);
      at += taken;
    }
    total += share.total;
    filesWithHits += share.filesWithHits;
  }
  files.sort((a, b) => a[0] - b[0]);
  const hits = files.flatMap(([, own]) => own).slice(0, maxResults);
  return { hits, total, filesWithHits };
}

/** Files under `abs` matching `glob`, as [path, absolute path]. */
export function* walkFiles(
  abs: string,
  prefix: string,
  glob: RegExp | null,
): Generator<readonly [string, string]> {
  for (const entry of walk(abs, prefix)) {
    if (entry.kind !== "file" || (glob && !glob.test(entry.path))) continue;
    yield [
      entry.path,
      `${abs}/${prefix ? entry.path.slice(prefix.length + 1) : entry.path}`,
    ] as const;
  }
}

/** Append up to `room` hits of one file to `hits`; return how many matching lines it has. */
export function searchFile(
  abs: string,
  rel: string,
  regex: RegExp,
  hits: string[],
  room: number,
): number {
  const text = readText(abs);
  if (text === null) return 0;
  // An empty match after the final newline (or in an empty file) is on no line: ripgrep skips it.
  const exec = (): RegExpExecArray | null => {
    const found = regex.exec(text);
    return found && found.index === text.length && (text === "" || text.endsWith("\n"))
      ? null
      : found;
  };
  regex.lastIndex = 0;
  let match = exec();
  if (match === null) return 0;
  let count = 0;
  let line = 1;
  let scanned = 0;
  let lastLine = 0;
  while (match !== null) {
    for (
      let i = text.indexOf("\n", scanned);
      i !== -1 && i < match.index;
      i = text.indexOf("\n", i + 1)
    ) {
      line++;
      scanned = i + 1;
    }
    if (line !== lastLine) {
      lastLine = line;
      count++;
      if (room-- > 0) {
        const end = text.indexOf("\n", match.index);
        let content = text.slice(scanned, end === -1 ? text.length : end).replace(/\r$/, "");
        if (content.length > MAX_LINE_CHARS) content = `${content.slice(0, MAX_LINE_CHARS)} [...]`;
        hits.push(`${rel}:${line}:${content}`);
      }
    }
    // Continue from the next line: one hit per line, like ripgrep.
    const next = text.indexOf("\n", match.index);
    if (next === -1) break;
    regex.lastIndex = next + 1;
    match = exec();
  }
  return count;
}

/**
 * A file's text (lossy UTF-8, BOM dropped), or null when a NUL byte in its first
 * {@linkcode BINARY_SNIFF_BYTES} marks it binary. Decoding in the runtime is faster than reading
 * bytes and decoding here. Every character stands for at least one byte, so a NUL byte in the
 * first N bytes is a NUL character in the first N characters; the exact byte check runs only for
 * the rare file that has one there.
 */
export function readText(abs: string): string | null {
  const text = Deno.readTextFileSync(abs);
  const nul = text.indexOf("\0");
  if (
    nul !== -1 && nul < BINARY_SNIFF_BYTES &&
    readFileSync(abs).subarray(0, BINARY_SNIFF_BYTES).includes(0)
  ) {
    return null;
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
