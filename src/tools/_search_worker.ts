/**
 * The source of a search worker. A worker loaded from a module file would need read permission
 * on patchgym's own source, which the orchestrator does not have (and a compiled binary has no
 * such files), so the worker is evaluated from text: the search functions' own code (as the
 * runtime compiled it) plus the constants they use. The worker inherits this process's
 * permissions. `tests/tools/search_test.ts` runs every search through it.
 */
import { isNoiseFile, NOISE_DIRS } from "../workspace/snapshot.ts";
import {
  BINARY_SNIFF_BYTES,
  matchPaths,
  MAX_LINE_CHARS,
  readText,
  searchFile,
  searchTree,
  walkFiles,
} from "./_search_engine.ts";
import { changedName } from "../workspace/remove.ts";
import { walk } from "../workspace/walk.ts";

/** JavaScript for a `node:worker_threads` worker with `eval: true`. */
export function searchWorkerSource(): string {
  return [
    `const { parentPort } = require("node:worker_threads");`,
    `const { readFileSync } = require("node:fs");`,
    `const NOISE_DIRS = new Set(${JSON.stringify([...NOISE_DIRS])});`,
    `const MAX_LINE_CHARS = ${MAX_LINE_CHARS};`,
    `const BINARY_SNIFF_BYTES = ${BINARY_SNIFF_BYTES};`,
    ...[isNoiseFile, changedName, walk, walkFiles, searchFile, readText, searchTree, matchPaths]
      .map(String),
    `parentPort.on("message", (request) => {
      try {
        const answer = "paths" in request ? matchPaths(request) : searchTree(request);
        parentPort.postMessage({ ok: true, answer });
      } catch (error) {
        parentPort.postMessage({ ok: false, message: String(error && error.message || error) });
      }
    });`,
  ].join("\n");
}
