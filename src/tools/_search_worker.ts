/** Worker entry of the search pool: answers each posted request with its search's result. */
import { parentPort } from "node:worker_threads";
import { type SearchRequest, searchTree } from "./_search_engine.ts";

parentPort!.on("message", (request: SearchRequest) => {
  try {
    parentPort!.postMessage({ ok: true, answer: searchTree(request) });
  } catch (error) {
    parentPort!.postMessage({ ok: false, message: (error as Error).message ?? String(error) });
  }
});
