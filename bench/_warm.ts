/**
 * A warm interpreter, for measurement only: `python3` with unittest imported once, which forks a
 * child for each request to run tests bare or through the Python reporter, so a run pays neither
 * the interpreter's start nor the framework's import. It is what a warm-interpreter design would
 * leave of a test run's CPU (see docs/benchmarks.md, "Ninth round"). Nothing here is isolated: it
 * runs the task's own tests, never code under test.
 */
import { LineChild } from "./_lines.ts";
import { resolveChildProgram } from "./_system.ts";

/**
 * The server: for each request line (JSON: `cwd`, and `modules` to run bare or `reporter`, a file
 * holding the reporter's input as its bootstrap reads it), a child forked that runs it with its
 * output thrown away; it answers the child's exit status.
 */
const WARM_SERVER = String.raw`
import builtins, json, marshal, os, sys, unittest
for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        try:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.chdir(request["cwd"])
            if "modules" in request:
                sys.path.insert(0, request["cwd"])
                suite = unittest.defaultTestLoader.loadTestsFromNames(request["modules"])
                code = 0 if unittest.TextTestRunner(stream=sys.stderr).run(suite).wasSuccessful() else 1
            else:
                i = open(request["reporter"], "rb")
                c = eval(i.readline()); v = i.readline().strip(); n = int(i.readline()); m = i.read(n)
                if v != str(sys.hexversion).encode():
                    os._exit(3)
                scope = {"__name__": "__patchgym__", "__builtins__": dict(vars(builtins)), "_CONFIG": c}
                exec(marshal.loads(m), scope)
                code = 0
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 1
        except BaseException:
            code = 4
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status), flush=True)
`;

/** A running warm interpreter; see the module comment. */
export class WarmInterpreter {
  readonly #server = new LineChild(resolveChildProgram("python3"), ["-I", "-B", "-c", WARM_SERVER]);

  /** Run the unittest test files `files` of the repository at `cwd`, bare, in a forked child. */
  async unittest(cwd: string, files: string[]): Promise<void> {
    await this.#ask({
      cwd,
      modules: files.map((f) => f.replace(/\.py$/, "").replaceAll("/", ".")),
    });
  }

  /** Run the tests through the reporter whose input (`reporterInput`) is in `inputFile`. */
  async reporter(cwd: string, inputFile: string): Promise<void> {
    await this.#ask({ cwd, reporter: inputFile });
  }

  async close(): Promise<void> {
    await this.#server.close();
  }

  async #ask(request: Record<string, unknown>): Promise<void> {
    await this.#server.send(JSON.stringify(request));
    const status = await this.#server.read();
    if (status !== "0") throw new Error(`The forked test run failed (status ${status})`);
  }
}
