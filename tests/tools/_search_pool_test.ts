import assert from "node:assert/strict";
import type { SearchRequest } from "../../src/tools/_search_engine.ts";
import {
  runSearch,
  searchPoolState,
  searchShares,
  SHARE_FILES,
} from "../../src/tools/_search_pool.ts";
import { withTempDir, writeFiles } from "../_fixtures.ts";

/** Files with 0 to 3 hits each, in folders, so that shares split files of one folder. */
const TREE: Record<string, string> = {
  "a/one.py": "hit\nmiss\nhit\n",
  "a/two.py": "miss\n",
  "a/three.py": "hit\n",
  "b/four.py": "hit\nhit\nhit\n",
  "b/five.py": "miss\nhit\n",
  "c.py": "hit\n",
  "d/six.py": "",
  "d/seven.py": "miss\nmiss\nhit\n",
};

const request = (dir: string, maxResults: number, source = "hit"): SearchRequest => ({
  abs: dir,
  rel: ".",
  isDir: true,
  source,
  flags: "gm",
  glob: null,
  maxResults,
});

Deno.test("runSearch() in shares gives the answer of one worker, whatever the cut", async () => {
  await withTempDir(async (dir) => {
    writeFiles(dir, TREE);
    const options = { timeoutMs: 10_000, room: dir };
    for (const maxResults of [1, 2, 3, 5, 8, 100]) {
      const whole = await runSearch(request(dir, maxResults), options);
      assert.notEqual(whole, "timeout");
      for (const shares of [2, 3, 4]) {
        const split = await runSearch(request(dir, maxResults), { ...options, shares });
        assert.deepEqual(split, whole, `${shares} shares, max_results ${maxResults}`);
      }
    }
    const all = await runSearch(request(dir, 100), options);
    assert.deepEqual(all, {
      hits: [
        "a/one.py:1:hit",
        "a/one.py:3:hit",
        "a/three.py:1:hit",
        "b/five.py:2:hit",
        "b/four.py:1:hit",
        "b/four.py:2:hit",
        "b/four.py:3:hit",
        "c.py:1:hit",
        "d/seven.py:3:hit",
      ],
      total: 9,
      filesWithHits: 6,
    });
  });
});

Deno.test("runSearch() in shares times out when a share does", async () => {
  await withTempDir(async (dir) => {
    // 27 "a"s: half a second of backtracking, not hours (a worker past its deadline runs on: see
    // _search_pool.ts), far beyond the deadline.
    writeFiles(dir, { "a.txt": "needle\n", "b.txt": `${"a".repeat(27)}!\n`, "c.txt": "needle\n" });
    const options = { timeoutMs: 100, room: dir, shares: 3 };
    assert.equal(await runSearch(request(dir, 10, "^(a+)+$"), options), "timeout");
    assert.deepEqual(searchPoolState(), { running: 0, lent: 0 });
    // The pool recovers: the worker given up is replaced.
    const answer = await runSearch(request(dir, 10, "needle"), options);
    assert.deepEqual(answer, {
      hits: ["a.txt:1:needle", "c.txt:1:needle"],
      total: 2,
      filesWithHits: 2,
    });
  });
});

// Issue 10's guarantee, kept for searches in shares: each holds one of the pool's own workers, as
// any search does, and its other shares lent ones (a second reader's reproductions: one search in
// shares held all four of the pool's, then two did).
Deno.test("runSearch() in shares holds one of the pool's workers, the rest lent", async () => {
  await withTempDir(async (dir) => {
    writeFiles(dir, TREE);
    const options = { timeoutMs: 10_000, room: dir, shares: 4 };
    const first = runSearch(request(dir, 100), options);
    assert.deepEqual(searchPoolState(), { running: 1, lent: 3 });
    // Nothing left to lend: one worker, the pool's own.
    const second = runSearch(request(dir, 100), options);
    assert.deepEqual(searchPoolState(), { running: 2, lent: 3 });
    const third = runSearch(request(dir, 100), { ...options, shares: 1 });
    assert.deepEqual(searchPoolState(), { running: 3, lent: 3 });
    const [a, b, c] = await Promise.all([first, second, third]);
    assert.deepEqual(a, b);
    assert.deepEqual(b, c);
    assert.deepEqual(searchPoolState(), { running: 0, lent: 0 });
  });
});

Deno.test("searchShares() splits only a big tree, at most one share per core", () => {
  assert.equal(searchShares(0), 1);
  assert.equal(searchShares(SHARE_FILES - 1), 1);
  const big = searchShares(SHARE_FILES);
  assert.ok(big >= 1 && big <= Math.max(1, navigator.hardwareConcurrency), `${big} shares`);
  assert.equal(big > 1, navigator.hardwareConcurrency > 1);
});
