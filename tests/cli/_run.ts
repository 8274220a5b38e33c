/**
 * Runs the real entry point as `deno task patchgym` does, cwd the repository root, so every test
 * here runs under the narrow permission flags users get: `main.ts` under exactly the flags
 * `launch.ts` computes for the command line ({@linkcode patchgymArgv}; signals reach it directly),
 * or the `patchgym` task of deno.json itself, launcher included ({@linkcode launcherArgv}).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { permissionFlags, planPermissions } from "../../src/cli/permissions.ts";
import { buildLauncher, LAUNCHER_PATH_ENV, launcherUnmount } from "../../src/sandbox/launcher.ts";
import {
  buildProgramFolder,
  programEntries,
  PROGRAMS_PATH_ENV,
} from "../../src/sandbox/program_folder.ts";

/**
 * The compiled sandbox launcher, built as launch.ts builds it (null where there is no compiler:
 * then main.ts runs with the sh fallback, as it would for a user).
 */
const LAUNCHER: string | null = (await buildLauncher()).path;
/** The prepared programs folder, built as launch.ts builds it (null where it cannot be). */
const PROGRAMS: string | null =
  (await buildProgramFolder(programEntries([Deno.execPath()]))).folder?.folder ?? null;

/** The repository root. */
export const ROOT: string = fileURLToPath(new URL("../../", import.meta.url));

/** The `patchgym` task of deno.json, split on whitespace. */
export function patchgymTask(): string[] {
  const config = JSON.parse(readFileSync(join(ROOT, "deno.json"), "utf8"));
  return config.tasks.patchgym.trim().split(/\s+/);
}

/** The flags between `deno run` and `launch.ts` in the `patchgym` task (the launcher's own). */
export function taskFlags(): string[] {
  const task = patchgymTask();
  if (task[0] !== "deno" || task[1] !== "run" || task[task.length - 1] !== "launch.ts") {
    throw new Error(`Unexpected shape of the patchgym task: "${task.join(" ")}"`);
  }
  return task.slice(2, -1);
}

/** The argv of `deno task patchgym ARGS` (through launch.ts) with this Deno's absolute path. */
export function launcherArgv(args: string[] = []): string[] {
  const [, ...rest] = patchgymTask();
  return [Deno.execPath(), ...rest, ...args];
}

/**
 * The argv launch.ts runs for `deno task patchgym ARGS` in the repository root: `main.ts` under
 * the permission flags it computes.
 */
export function patchgymArgv(args: string[] = []): string[] {
  const plan = planPermissions(args, {
    cwd: ROOT,
    env: {},
    bundledTasks: join(ROOT, "tasks"),
  });
  return [
    Deno.execPath(),
    "run",
    ...permissionFlags(plan, { launcher: LAUNCHER, programs: PROGRAMS }),
    join(ROOT, "main.ts"),
    ...args,
  ];
}

/**
 * The test's own environment without model endpoint settings (so the default policy is
 * reference) and without INIT_CWD.
 */
export function childEnv(): Record<string, string> {
  const env = Deno.env.toObject();
  for (const name of Object.keys(env)) {
    if (name.startsWith("PATCHGYM_") || name.startsWith("OPENAI_")) delete env[name];
    // Set by an outer `deno task test`; deno task keeps an INIT_CWD it inherits.
    if (name === "INIT_CWD") delete env[name];
  }
  return { ...env, NO_COLOR: "1", ...launcherEnv() };
}

/**
 * What launch.ts hands main.ts besides the flags: the compiled launcher's path, which
 * {@linkcode patchgymArgv} grants (a main.ts with the flags but not this starts no child), and the
 * programs folder's.
 */
export function launcherEnv(): Record<string, string> {
  return {
    ...(LAUNCHER ? { [LAUNCHER_PATH_ENV]: LAUNCHER } : {}),
    ...(PROGRAMS ? { [PROGRAMS_PATH_ENV]: PROGRAMS } : {}),
  };
}

/** What a finished process left. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Where and how to run: `cwd` defaults to the repository root. */
export interface RunOptions {
  stdin?: string;
  cwd?: string;
}

/** Run `argv` in the repository root (or `cwd`), optionally feeding `stdin`. */
export async function runArgv(argv: string[], options: RunOptions = {}): Promise<RunResult> {
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: options.cwd ?? ROOT,
    clearEnv: true,
    env: childEnv(),
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

/** Run `deno task patchgym ARGS` (main.ts under the launcher's flags). */
export function runPatchgym(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return runArgv(patchgymArgv(args), options);
}

/** Run `deno task patchgym ARGS` through the launcher, as the deno.json task does. */
export function runLauncher(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return runArgv(launcherArgv(args), options);
}

/** A fresh folder under `runs/` (the only writable output root); returns its path relative to the root. */
export function makeRunDir(prefix: string): string {
  mkdirSync(join(ROOT, "runs"), { recursive: true });
  const name = `runs/test-${prefix}-${crypto.randomUUID().slice(0, 8)}`;
  mkdirSync(join(ROOT, name));
  return name;
}

/** Remove a folder made by {@linkcode makeRunDir}. */
export function removeRunDir(dir: string): void {
  Deno.removeSync(join(ROOT, dir), { recursive: true });
}

/**
 * A fresh workspace root under /tmp/patchgym (root's default root; these tests run as root), passed
 * with `--work-dir`, for tests that look at what a process leaves there; removed by
 * {@linkcode removeWorkRoot}.
 */
export function makeWorkRoot(prefix: string): string {
  const dir = `/tmp/patchgym/test-${prefix}-${crypto.randomUUID().slice(0, 8)}`;
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Remove a folder made by {@linkcode makeWorkRoot}, after detaching what a process killed before
 * its clean-up left mounted there (so a failed test reports its own failure, not EBUSY).
 */
export function removeWorkRoot(dir: string): void {
  launcherUnmount(LAUNCHER)?.(dir);
  Deno.removeSync(dir, { recursive: true });
}

/**
 * Everything under `dir`, as paths relative to it, sorted (for "nothing left behind" checks). A
 * folder removed while it is listed (a running process's scoring copy or report folder) is left
 * out: polling a live run's tree must not fail the test, and kill the run, on that.
 */
export function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(rel ? `${dir}/${rel}` : dir)];
    } catch (error) {
      if (rel && error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    for (const entry of entries) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      out.push(path);
      if (entry.isDirectory) walk(path);
    }
  };
  walk("");
  return out.sort();
}

/** Parse each non-empty line of JSONL text. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
}

/** A running `serve --stdio`: send request lines, read answer lines. */
export class ServeProcess {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #reader: ReadableStreamDefaultReader<string>;
  readonly #stderr: Promise<string>;
  readonly #encoder = new TextEncoder();
  #buffer = "";
  #stdinClosed = false;

  /** Start `serve --stdio` with `args` after it. */
  constructor(args: string[] = []) {
    const argv = patchgymArgv(["serve", "--stdio", ...args]);
    this.#child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      cwd: ROOT,
      clearEnv: true,
      env: childEnv(),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#reader = this.#child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    this.#stderr = new Response(this.#child.stderr).text();
  }

  /** The server's process id. */
  get pid(): number {
    return this.#child.pid;
  }

  /** Write one request line: an object as JSON, a string as is. */
  async send(request: Record<string, unknown> | string): Promise<void> {
    const line = typeof request === "string" ? request : JSON.stringify(request);
    await this.#writer.write(this.#encoder.encode(`${line}\n`));
  }

  /** The next answer line parsed, or null at the end of the output. */
  async next(): Promise<Record<string, unknown> | null> {
    while (!this.#buffer.includes("\n")) {
      const { value, done } = await this.#reader.read();
      if (done) {
        const rest = this.#buffer.trim();
        this.#buffer = "";
        return rest === "" ? null : JSON.parse(rest);
      }
      this.#buffer += value;
    }
    const newline = this.#buffer.indexOf("\n");
    const line = this.#buffer.slice(0, newline);
    this.#buffer = this.#buffer.slice(newline + 1);
    return line.trim() === "" ? this.next() : JSON.parse(line);
  }

  /** Send a request and read the next answer (for one request in flight at a time). */
  async request(request: Record<string, unknown>): Promise<Record<string, unknown>> {
    await this.send(request);
    const answer = await this.next();
    if (answer === null) {
      throw new Error(`Server closed its output before answering ${JSON.stringify(request)}`);
    }
    return answer;
  }

  /** Close stdin, read the remaining answers and wait for the exit. */
  async finish(): Promise<{ code: number; answers: Record<string, unknown>[]; stderr: string }> {
    this.#stdinClosed = true;
    await this.#writer.close();
    const answers: Record<string, unknown>[] = [];
    for (let answer = await this.next(); answer !== null; answer = await this.next()) {
      answers.push(answer);
    }
    const { code } = await this.#child.status;
    return { code, answers, stderr: await this.#stderr };
  }

  /** Send `signal` and wait for the exit; returns the exit code. */
  async signal(signal: Deno.Signal): Promise<number> {
    this.#child.kill(signal);
    const { code } = await this.#child.status;
    return code;
  }

  /** Stop the server if a test failed before {@linkcode finish}. */
  async kill(): Promise<void> {
    if (!this.#stdinClosed) {
      this.#stdinClosed = true;
      await this.#writer.abort().catch(() => {});
    }
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
    await this.#child.status;
    await this.#reader.cancel().catch(() => {});
    await this.#stderr.catch(() => {});
  }
}
