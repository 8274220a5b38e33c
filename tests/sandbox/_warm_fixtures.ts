/** What the warm interpreter's tests share (`warm_test.ts` and the red-team files). */
import { realpathSync } from "node:fs";
import { probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";
import { type WarmRequest, type WarmStart, Zygote } from "../../src/sandbox/_zygote.ts";

export const isolation = await probeIsolation();

/** Whether runs can fork from the warm interpreter here: root, bwrap, the compiled launcher. */
export const warmable = isolation.level === "bwrap" && isolation.users !== null &&
  !!isolation.launcher;

/** True (and says so) where the warm path cannot run: the test then returns. */
export function skipped(): boolean {
  if (warmable) return false;
  console.warn("skipped: the warm path needs root, bwrap, sandbox uids and the compiled launcher");
  return true;
}

/** Sandboxes that fork Python runs from the warm interpreter, and that start every run cold. */
export const warmBox = new Sandbox({ isolation, runSlots: 16 });
export const coldBox = new Sandbox({ isolation, warm: false, runSlots: 16 });

/**
 * `count` folders of their own (a run's workspace: the launcher gives it to the run's uid, which
 * must be able to read it), removed afterwards.
 */
export async function withFolders<T>(
  count: number,
  fn: (dirs: string[]) => Promise<T>,
): Promise<T> {
  const dirs: string[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const dir = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-warm-" }));
      await Deno.chmod(dir, 0o755);
      dirs.push(dir);
    }
    return await fn(dirs);
  } finally {
    for (const dir of dirs) await removeWhenFree(dir);
  }
}

/**
 * Remove `dir`, trying again while it is busy: a jail that just ended can still hold it bound for a
 * moment (its mount namespace goes after its last process). Throws when it never frees.
 */
async function removeWhenFree(dir: string): Promise<void> {
  for (let attempt = 0;; attempt++) {
    try {
      await Deno.remove(dir, { recursive: true });
      return;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      if (attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** A request for a stand-in warm interpreter (which acts on none of it). */
export const STAND_IN_REQUEST: WarmRequest = {
  nonce: "00",
  uid: 1,
  cwd: "/",
  env: {},
  steps: [],
  seccomp: null,
  timeoutMs: 1000,
};

/**
 * The argv of a stand-in warm interpreter (any user, no jail): it reads one framed request as the
 * real one does, then runs `after` (Python), which has `number` (the request's id), `take()` (reads
 * the next request, and makes `number` its id), `took()` (says
 * `took ID` on stderr, as the real one does) and `leave()` (what a real middle does first: it
 * says `forked ID` on the interpreter's stderr, then leaves its stdin and stderr). Each argv is
 * new, so `zygoteFor` never mixes tests.
 */
export function standIn(after: string): string[] {
  return [
    "/usr/bin/python3",
    "-c",
    `import os, sys, time # ${crypto.randomUUID()}
def take():
    global number
    number, size = b"".join(iter(lambda: os.read(0, 1), b"\\n")).split(b" ")
    got = b""
    while len(got) < int(size):
        got += os.read(0, int(size) - len(got))
take()
def took():
    os.write(2, b"took " + number + b"\\n")
def leave():
    os.write(2, b"forked " + number + b"\\n")
    os.close(0)
    os.close(2)
${after}`,
  ];
}

/**
 * Python for a {@linkcode standIn}: fork a middle that leaves the interpreter's stdin and stderr
 * (`leave()`), runs `first` (a line, e.g. an answer) and lives on, holding the answers' pipe, until
 * the file `marker` is gone.
 */
export function middleUntilGone(marker: string, first = ""): string {
  return `if os.fork() == 0:
    leave()
    ${first}
    while os.path.exists(${JSON.stringify(marker)}):
        time.sleep(0.02)
    os._exit(0)`;
}

/** `fn` with the path of a new empty file (a stand-in's marker), removed afterwards. */
export async function withMarker<T>(fn: (marker: string) => Promise<T>): Promise<T> {
  const marker = await Deno.makeTempFile({ prefix: "patchgym-warm-marker-" });
  try {
    return await fn(marker);
  } finally {
    await Deno.remove(marker).catch(() => {});
  }
}

/** How a fresh stand-in running `after` (see {@linkcode standIn}) answers one request. */
export async function startOnce(after: string): Promise<WarmStart> {
  const zygote = new Zygote(standIn(after));
  try {
    return await zygote.start(1, STAND_IN_REQUEST);
  } finally {
    zygote.close();
  }
}
