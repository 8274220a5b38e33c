/**
 * Room for a new thread. Deno builds a worker's runtime on the new thread, and when that runtime
 * cannot open its files (`EMFILE`: a server at its open-file limit, holding many connections) Deno
 * panics and the whole process ends, with every episode it holds. A caller that starts workers
 * while it serves asks here first and, where there is no room, does the work another way or fails
 * only that request.
 */

/** Open files a new worker needs, with a margin: Deno 2.9's takes five or six. */
const THREAD_FILES = 32;

/**
 * Whether `path` (a file or folder this process may read, and no one else may replace) opens
 * {@linkcode THREAD_FILES} times at once now. `new Worker` holds its caller's thread until the
 * worker's runtime is built, so between this check and that only another thread could take the
 * files. True, as before there was a check, when `path` cannot be read for another reason.
 */
export function roomForThread(path: string): boolean {
  const opened: Deno.FsFile[] = [];
  try {
    while (opened.length < THREAD_FILES) opened.push(Deno.openSync(path));
    return true;
  } catch (error) {
    // EMFILE (per process) and ENFILE (the whole machine): no room. Anything else says nothing
    // about open files.
    const code = (error as { code?: unknown }).code;
    return code !== "EMFILE" && code !== "ENFILE";
  } finally {
    for (const file of opened) file.close();
  }
}
