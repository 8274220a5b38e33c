import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import type { SearchRequest } from "../../src/tools/_search_engine.ts";
import { runSearch, searchShares, SHARE_FILES } from "../../src/tools/_search_pool.ts";
import { withTempDir } from "../_fixtures.ts";

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

function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(`${dir}/${path.split("/").slice(0, -1).join("/")}`, { recursive: true });
    writeFileSync(`${dir}/${path}`, text);
  }
}

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
    write(dir, TREE);
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
    write(dir, { "a.txt": "needle\n", "b.txt": `${"a".repeat(40)}!\n`, "c.txt": "needle\n" });
    const options = { timeoutMs: 300, room: dir, shares: 3 };
    assert.equal(await runSearch(request(dir, 10, "^(a+)+$"), options), "timeout");
    // The pool recovers: the terminated worker is replaced.
    const answer = await runSearch(request(dir, 10, "needle"), options);
    assert.deepEqual(answer, {
      hits: ["a.txt:1:needle", "c.txt:1:needle"],
      total: 2,
      filesWithHits: 2,
    });
  });
});

// Issue 10's guarantee, kept for searches in shares: a pattern that backtracks in every share holds
// its workers until the deadline, and must hold no more of the searches' own workers than any search
// does (a second reader's reproductions: one search in shares held all four, then two did).
Deno.test("runSearch() in shares holds one search's worker: others answer while two backtrack", async () => {
  await withTempDir(async (dir) => {
    const evil = `${"a".repeat(40)}!\n`;
    write(dir, {
      "a.txt": evil,
      "b.txt": evil,
      "c.txt": evil,
      "d.txt": evil,
      "ok.txt": "needle\n",
    });
    let slowDone = false;
    const options = { timeoutMs: 2_000, room: dir, shares: 4 };
    const slow = Promise.all([
      runSearch(request(dir, 10, "^(a+)+$"), options),
      runSearch(request(dir, 10, "^(a+)+$"), options),
    ]).finally(() => slowDone = true);
    for (let i = 0; i < 3; i++) {
      const answer = await runSearch(request(dir, 10, "needle"), { timeoutMs: 10_000, room: dir });
      assert.deepEqual(answer, { hits: ["ok.txt:1:needle"], total: 1, filesWithHits: 1 });
    }
    assert.equal(slowDone, false);
    assert.deepEqual(await slow, ["timeout", "timeout"]);
  });
});

Deno.test("searchShares() splits only a big tree, at most one share per core", () => {
  assert.equal(searchShares(0), 1);
  assert.equal(searchShares(SHARE_FILES - 1), 1);
  const big = searchShares(SHARE_FILES);
  assert.ok(big >= 1 && big <= Math.max(1, navigator.hardwareConcurrency), `${big} shares`);
  assert.equal(big > 1, navigator.hardwareConcurrency > 1);
});
