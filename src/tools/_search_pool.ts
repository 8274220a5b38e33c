/**
 * Searches run in worker threads with a deadline. The model's pattern runs on V8's backtracking
 * engine, where a pattern like `^(a+)+$` takes exponential time on a line it almost matches; a
 * worker that misses the deadline is given up and terminated, so a search never blocks the
 * orchestrator's thread: other episodes' tool calls and protocol requests go on meanwhile. But in
 * Deno 2.9.6 terminating a worker does not stop a regular expression it is running (measured: the
 * thread runs on at a full core until the expression ends, for `^(a+)+$` on 40 "a"s practically
 * never): such a worker is out of the pool, yet its CPU is not freed. So only text that cannot
 * backtrack is searched in shares (see `search.ts`), and a search in shares takes lent workers,
 * never more of the pool's own than any search.
 *
 * Workers are kept between searches (a round trip costs about 0.1 ms, starting one about 40 ms)
 * and do not keep the process alive while idle.
 */
import { Worker } from "node:worker_threads";
import {
  type MatchAnswer,
  type MatchRequest,
  mergeShares,
  type SearchAnswer,
  type SearchRequest,
} from "./_search_engine.ts";
import { searchWorkerSource } from "./_search_worker.ts";
import { roomForThread } from "../threads.ts";

/** Searches running at once; more wait for a free worker. */
const MAX_WORKERS = 4;

/**
 * Workers lent beside them to searches in shares (a search's first share takes its search's own
 * worker): never one of the searches' own, so a search in shares holds no more of them than any
 * search does, and it still takes four searches at once to make a fifth wait.
 */
const MAX_LENT = 3;

/**
 * Files from which a tree is searched in shares, one worker each: reading a file costs about 10 us,
 * a worker's round trip about 0.1 ms, so below this a second worker gains nothing.
 */
export const SHARE_FILES = 1000;

let source: string | null = null;
const idle: Worker[] = [];
let running = 0;
let lent = 0;
const waiting: (() => void)[] = [];

/** How a search or a match runs (see {@linkcode runSearch}). */
export interface SearchOptions {
  /** How long it may take before its worker is terminated. */
  timeoutMs: number;
  /**
   * A folder of the orchestrator's that this process may read, opened to check there is room for a
   * new worker's files (see `roomForThread`).
   */
  room: string;
}

/** Workers busy now: the searches' own, and those lent to their shares (for tests). */
export function searchPoolState(): { running: number; lent: number } {
  return { running, lent };
}

/**
 * How many workers a tree of about `files` files is worth: one per core, at most one more than can
 * be lent, for a big tree, else one ({@linkcode runSearch} takes fewer when fewer are free).
 */
export function searchShares(files: number): number {
  return files < SHARE_FILES
    ? 1
    : Math.max(1, Math.min(1 + MAX_LENT, navigator.hardwareConcurrency));
}

/**
 * Run `request` in a worker, or in up to `shares` workers at once, each on its share of the files
 * (the answer is the same); `"timeout"` when it did not finish within `options.timeoutMs` (its
 * workers are then terminated). The first share takes a search's worker, as any search does; the
 * others take workers lent beside the searches' own, as many as are free ({@linkcode MAX_LENT}): a
 * pattern that backtracks in every share holds them until its deadline, and other episodes'
 * searches must still be answered meanwhile. Throws when the search itself failed (a bug or an I/O
 * error), or when a new worker was needed and the process is out of open files.
 */
export async function runSearch(
  request: SearchRequest,
  options: SearchOptions & { shares?: number },
): Promise<SearchAnswer | "timeout"> {
  const of = request.isDir ? Math.min(options.shares ?? 1, 1 + MAX_LENT - lent) : 1;
  if (of <= 1) return await runInWorker(request, options);
  // One deadline for the whole search: its first miss stops the other shares.
  const stop = new AbortController();
  const answers = await Promise.all(
    Array.from({ length: of }, async (_, index) => {
      const answer = await runInWorker<SearchAnswer>({ ...request, shard: { index, of } }, {
        ...options,
        signal: stop.signal,
        lent: index > 0,
      });
      if (answer === "timeout") stop.abort();
      return answer;
    }),
  ).finally(() => stop.abort());
  if (answers.includes("timeout")) return "timeout";
  return mergeShares(answers as SearchAnswer[], request.maxResults);
}

/**
 * Which of `request.paths` match its glob, in a worker like a search (see {@linkcode runSearch}):
 * a glob's regular expression may backtrack as long as a search pattern.
 */
export function runMatch(
  request: MatchRequest,
  options: SearchOptions,
): Promise<MatchAnswer | "timeout"> {
  return runInWorker(request, options);
}

/**
 * Run `request` in a worker: one of the searches' own (waiting for one to be free), or with
 * `lent`, one lent to a search's share, which the caller saw was free.
 */
async function runInWorker<A>(
  request: SearchRequest | MatchRequest,
  options: SearchOptions & { signal?: AbortSignal; lent?: boolean },
): Promise<A | "timeout"> {
  const { timeoutMs, room, signal } = options;
  if (options.lent) lent++;
  else {
    while (running >= MAX_WORKERS) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
  }
  let worker: Worker | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const chosen = worker = idle.pop() ?? newWorker(room);
    chosen.ref();
    const reply = await new Promise<
      { ok: true; answer: A } | { ok: false; message: string } | "timeout"
    >((resolve, reject) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
      // Stopped with the search it is a share of: as at its own deadline.
      if (signal?.aborted) resolve("timeout");
      signal?.addEventListener("abort", () => resolve("timeout"), { once: true });
      const onError = (error: Error) => {
        chosen.off("message", resolve);
        reject(error);
      };
      chosen.once("message", (value) => {
        chosen.off("error", onError);
        resolve(value);
      });
      chosen.once("error", onError);
      chosen.postMessage(request);
    });
    if (reply === "timeout") {
      chosen.removeAllListeners();
      void chosen.terminate();
      return "timeout";
    }
    chosen.unref();
    idle.push(chosen);
    if (!reply.ok) throw new Error(`Search failed: ${reply.message}`);
    return reply.answer;
  } catch (error) {
    if (worker && !idle.includes(worker)) void worker.terminate();
    throw error;
  } finally {
    clearTimeout(timer);
    if (options.lent) lent--;
    else {
      running--;
      waiting.shift()?.();
    }
  }
}

/** A new search worker; throws when the process has no room for its files (see `roomForThread`). */
function newWorker(room: string): Worker {
  if (!roomForThread(room)) {
    throw new Error("Cannot start a search thread: the process is out of open files; try again");
  }
  return new Worker(source ??= searchWorkerSource(), { eval: true });
}
