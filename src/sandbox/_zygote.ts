/**
 * The warm interpreter: a `python3 -I -B -u` that imported the test frameworks once, and forks each
 * Python run's program into that run's jail instead of starting an interpreter there (about 40 ms
 * of CPU per run, most of a bare test run; docs/benchmarks.md, "Tenth round"). Root with the
 * compiled launcher only: entering another process's namespaces takes root, and the launcher's
 * `hold` step stands in the jail for the program.
 *
 * A run goes as any other: the launcher makes its cgroups and limits, bwrap builds its jail, and
 * the jail's launcher drops to the run's uid, but then holds (`hold:NONCE`) instead of starting
 * `python3`. The warm interpreter (root, outside every jail, never running code under test, holding
 * no key: keys arrive on the run's stdin) forks a middle process per request, which
 * - finds the holder (bwrap's grandchild, named `patchgym-hold`, with the run's nonce on its
 *   command line), pins it with a pidfd and takes its stdin, stdout and stderr (`pidfd_getfd`);
 * - opens the run's cgroup files, enters the holder's mount, PID, network, IPC and UTS namespaces
 *   at once (`setns` on the pidfd) and forks the program into the jail;
 * and the program, before any code of the run, joins the run's cgroups and then the jail's cgroup
 * namespace, makes its own process group, sets the run's rlimits and niceness, keeps only the
 * run's three streams, goes to the run's folder (as bwrap does, still root), drops the capability
 * bounding set, its groups and root for the run's uid with `no_new_privs` and no capabilities
 * left, dies with the middle (set again after the uid change, which clears it), is dumpable again,
 * loads the jail's seccomp filter, takes the run's environment and forgets the warm interpreter's
 * own modules and globals; then it runs the `-c` program as `python3 -I -B -u -c` would. The
 * middle waits for it and hands its status to the holder (a SIGRTMIN with the status as its
 * value), which ends with it: the run's pipes, timeout, sweep and result are those of any run.
 * Every step is the one the launcher and bwrap do in C for a cold run, with one fewer `exec`;
 * `tests/sandbox/warm_test.ts` checks them against a cold run.
 *
 * Where the warm interpreter cannot do its part before the program exists, the run is killed and
 * started cold: where there was no room for a process (`cold`), that run alone; where it is gone,
 * or a step failed, this thread's later runs too (for a minute, where the warm interpreter ended:
 * see {@linkcode RESTART_AFTER_MS}). Private to `src/sandbox/`.
 */
import { concat } from "../bytes.ts";
import { readLines } from "../lines.ts";
import { holdWhile } from "./_helper.ts";
import { CHILD_PATH } from "./programs.ts";

/** What a warm run needs from the warm interpreter, as data. */
export interface WarmRequest {
  /** The nonce of the holder's `hold:` step. */
  nonce: string;
  /** The run's uid. */
  uid: number;
  /** The folder the program starts in (in the jail). */
  cwd: string;
  env: Record<string, string>;
  /** The launcher's cgroup `join:` and `jointask:` steps, `ulimit:`, `nproc:` and `nice:` steps. */
  steps: string[];
  /** The seccomp filter (raw BPF, hex), or null. */
  seccomp: string | null;
  /** How long to look for the holder before giving up, in ms (the run's timeout). */
  timeoutMs: number;
}

/** How the warm interpreter answered a request. */
export type WarmStart =
  /** The program runs in the jail. */
  | "started"
  /** The launcher's chain ended before its holder could be found: the run's own result says why. */
  | "gone"
  /**
   * It took the request and ended before it could be answered: no middle was forked for it (seen
   * at the end of the warm interpreter's stderr), or its middle ended unanswered (seen once no
   * middle is left). The program never ran, or died with its middle. The run is stopped as the
   * sandbox's failure, never started again (part of it may have run).
   */
  | "lost"
  /** It could not: the run must be started cold. */
  | { failed: string };

/** The argv the warm interpreter runs with: a program's own. */
export const WARM_FLAGS = ["-I", "-B", "-u"];

/**
 * The warm interpreter's program for the runs of `-c` program `code`: the prelude (compiled under
 * an interpreter-internal name, as the reporter tells the interpreter's own code from code under
 * test), then `code` on the same line. Its stdin: JSON requests, each after its id, a space, its
 * byte length and a line feed, each with the bwrap pid it is about (`pid`); its stderr: `took ID`
 * once it read a request, then `forked ID` from the middle it forks for it, before the middle
 * leaves that stderr (and its own messages); its stdout, from that middle: `ok ID`, `gone ID` or
 * `fail ID REASON`, or from itself `cold ID REASON` when it could not fork that middle. In the warm
 * interpreter the prelude loops on requests; in a forked program it returns once the program is set
 * up, having cleared its globals and modules, and `code` runs next in the outermost frame, with the
 * line numbers it has as `python3 -c code`. A `code` whose first line cannot follow a `;` (a
 * compound statement) makes the warm interpreter fail at once: cold runs.
 * `modules` are imported beforehand too, as the test frameworks are: only what `code` imports before
 * any code of the run, from the interpreter's own folders (one that fails to import makes the warm
 * interpreter fail at once: cold runs).
 */
export function zygoteProgram(code: string, modules: readonly string[] = []): string {
  for (const name of modules) {
    if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(name)) {
      throw new Error(`Not a module name: ${JSON.stringify(name)}`);
    }
  }
  const prelude = PRELUDE.replace("_MODULES = ()", `_MODULES = ${JSON.stringify(modules)}`);
  return `exec(compile(${JSON.stringify(prelude)}, "<frozen patchgym-zygote>", "exec"));${code}`;
}

const PRELUDE = String.raw`
_FRESH = dict(globals())
_MODULES = ()
import os, sys
# What a Python run's program imports anyway: the test frameworks, once.
import builtins, difflib, gc, io, linecache, pprint, signal, traceback, unittest
import unittest.case, unittest.loader, unittest.result, unittest.runner, unittest.suite, unittest.util
# And what the run's program would import before any code of the run (pytest for its runs).
for _name in _MODULES:
    __import__(_name)
_BASE = frozenset(sys.modules)
# The import system's cache of path entries too: the prelude's own imports below add to it.
_FINDERS = frozenset(sys.path_importer_cache)
import ctypes, errno, json, resource, select, time

def _serve():
    libc = _Libc()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    buffer = bytearray(1 << 20)
    null = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
    gc.freeze()
    while True:
        buffer, size, number = _take(buffer)
        try:
            middle = os.fork()
        except OSError as error:
            # No middle, so no program (EAGAIN under a pids cap, ENOMEM, which may pass): this run
            # starts cold, and the warm interpreter serves on.
            # Said on stderr, in order with "took": its end then never comes before this answer.
            _say(f"cold {number} cannot fork a middle: {error}", 2)
            buffer[:size] = bytes(size)
            continue
        if middle == 0:
            # The warm interpreter's stdin and stderr are its own alone: the end of its stderr
            # tells that every "took" it said was read, whatever middles of it still run. Said
            # first, while the middle still holds that stderr: a request taken whose middle never
            # said it (the warm interpreter ended before its fork) has no program.
            _say(f"forked {number}", 2)
            os.dup2(null, 0)
            os.dup2(null, 2)
            os.close(null)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            return _middle(bytes(memoryview(buffer)[:size]), libc)
        # Scrubbed in place: a program forked later inherits this memory.
        buffer[:size] = bytes(size)

def _take(buffer):
    """
    The next request (its id, a space, its byte length and a line feed, then its bytes), read into
    buffer alone: the warm interpreter never reads past the request it serves, nor parses one, so
    the middle it forks (and the program, forked from that) holds no other run's request in its
    memory. It says it took the request before it forks for it, on its stderr (which no middle
    keeps): a run it took is never started again cold, whatever becomes of the warm interpreter.
    """
    head = b""
    while True:
        byte = os.read(0, 1)
        if not byte:
            os._exit(0)
        if byte == b"\n":
            break
        head += byte
    number, size = (int(field) for field in head.split(b" "))
    if size > len(buffer):
        buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        count = os.readv(0, [view[got:size]])
        if not count:
            os._exit(0)
        got += count
    view.release()
    _say(f"took {number}", 2)
    return buffer, size, number

class _Libc:
    """libc's variadic calls with every integer as a C long, as the kernel reads them."""
    def __init__(self):
        self.lib = ctypes.CDLL(None, use_errno=True)
    def __getattr__(self, name):
        function = getattr(self.lib, name)
        return lambda *args: function(*[ctypes.c_long(a) if isinstance(a, int) else a for a in args])

def _say(line, fd=1):
    """One line, in one write of at most PIPE_BUF bytes: never mixed with another process's."""
    os.write(fd, line.replace("\n", " ").encode(errors="backslashreplace")[:4000] + b"\n")

def _check(result, what):
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, what + ": " + os.strerror(number))

def _read(path):
    with open(path, "rb") as file:
        return file.read()

def _holder(bwrap, nonce, deadline):
    """A pidfd of the holder, or None once bwrap is gone without one."""
    wait, started = 0.0002, None
    while time.monotonic() < deadline:
        try:
            stat = _read(f"/proc/{bwrap}/stat")
            fields = stat[stat.rindex(b")") + 2:].split()
            if fields[0] in (b"Z", b"X") or started not in (None, fields[19]):
                return None
            started = fields[19]
            inits = _read(f"/proc/{bwrap}/task/{bwrap}/children").split()
        except (FileNotFoundError, ProcessLookupError):
            return None
        for init in inits:
            try:
                kids = _read(f"/proc/{int(init)}/task/{int(init)}/children").split()
            except OSError:
                continue
            for kid in kids:
                try:
                    pidfd = os.pidfd_open(int(kid))
                except OSError:
                    continue
                try:
                    ready = (_read(f"/proc/{int(kid)}/comm") == b"patchgym-hold\n" and
                             _read(f"/proc/{int(kid)}/cmdline").split(b"\0")[-3:] ==
                             [b"hold:" + nonce.encode(), b"--", b""])
                except OSError:
                    ready = False
                # Alive still: the pid, and what was read of it, are the pidfd's process.
                if ready and not select.select([pidfd], [], [], 0)[0]:
                    return pidfd
                os.close(pidfd)
        time.sleep(wait)
        wait = min(wait * 2, 0.002)
    return None

# mount, PID, network, IPC, UTS; the cgroup one (0x02000000) the program enters once it joined the
# run's cgroups (cgroup v2 refuses a move from outside the namespace it is in).
_NAMESPACES = 0x00020000 | 0x20000000 | 0x40000000 | 0x08000000 | 0x04000000
_CGROUP_NAMESPACE = 0x02000000

def _middle(line, libc):
    number = pidfd = None
    try:
        request = json.loads(line)
        number = request["id"]
        pidfd = _holder(request["pid"], request["nonce"], time.monotonic() + request["timeoutMs"] / 1000)
        if pidfd is None:
            _say(f"gone {number}")
            os._exit(0)
        streams = []
        for fd in (0, 1, 2):
            taken = libc.syscall(438, pidfd, fd, 0)
            if taken < 0:
                _check(-1, "pidfd_getfd")
            streams.append(taken)
        cgroups = []
        for step in request["steps"]:
            kind, _, path = step.partition(":")
            if kind in ("join", "jointask"):
                if not path.startswith("/sys/fs/cgroup/") or "/../" in path or path.endswith("/.."):
                    raise ValueError("not a cgroup path: " + path)
                cgroups.append(os.open(path, os.O_WRONLY | os.O_CLOEXEC))
        _check(libc.setns(pidfd, _NAMESPACES), "setns")
        # For the program to tell whether the middle is still there once it can die with it.
        middle = os.pidfd_open(os.getpid())
        program = os.fork()
    except BaseException as error:
        # A holder that ended meanwhile (its run was killed, at its timeout, while its jail was
        # entered: the fork into the dying PID namespace fails) is one never found: not a reason to
        # start every later run cold. It ends at once after its jail's first process.
        if pidfd is not None and select.select([pidfd], [], [], 0.5)[0]:
            _say(f"gone {number}")
        elif isinstance(error, OSError) and error.errno in (errno.EAGAIN, errno.ENOMEM):
            # No room for a process now (which may pass): no program was forked, so this run starts
            # cold, and later ones still warm.
            _say(f"cold {number} {type(error).__name__}: {error}")
        else:
            _say(f"fail {number} {type(error).__name__}: {error}")
        os._exit(1)
    if program == 0:
        return request, streams, cgroups, middle, pidfd, libc
    try:
        _say(f"ok {number}")
    except BaseException:
        pass
    for fd in streams + cgroups + [middle]:
        os.close(fd)
    # Only an end counts (a traced program's stops are reported too); whatever goes wrong here,
    # the holder is told, so the run ends when its program did.
    value = 256 + signal.SIGKILL
    try:
        while True:
            status = os.waitpid(program, 0)[1]
            if os.WIFEXITED(status) or os.WIFSIGNALED(status):
                code = os.waitstatus_to_exitcode(status)
                value = code if code >= 0 else 256 - code
                break
    except BaseException:
        pass
    # siginfo_t: si_signo, si_errno, si_code (SI_QUEUE), then the sender's pid and uid, the value.
    info = (ctypes.c_int * 32)(signal.SIGRTMIN, 0, -1, 0, os.getpid(), 0, value)
    libc.syscall(424, pidfd, signal.SIGRTMIN, info, 0)
    os._exit(0)

def _limit(step):
    kind, _, text = step.partition(":")
    if kind == "ulimit":
        letter, _, count = text.partition("=")
        name, unit = {"t": ("RLIMIT_CPU", 1), "f": ("RLIMIT_FSIZE", 512), "n": ("RLIMIT_NOFILE", 1),
                      "c": ("RLIMIT_CORE", 512), "v": ("RLIMIT_AS", 1024)}[letter]
        value = int(count) * unit
        resource.setrlimit(getattr(resource, name), (value, value))
    elif kind == "nproc":
        resource.setrlimit(resource.RLIMIT_NPROC, (int(text), int(text)))
    elif kind == "nice":
        os.setpriority(os.PRIO_PROCESS, 0, int(text))

# Where a failed set-up is told: the run's stderr, taken from the holder, then as fd 2.
_RUN_STDERR = [2]

def _become(request, streams, cgroups, middle, holder, libc):
    """The program's set-up in the jail, in the order the launcher and bwrap keep."""
    _RUN_STDERR[0] = streams[2]
    for fd in cgroups:
        os.write(fd, b"0")
        os.close(fd)
    _check(libc.setns(holder, _CGROUP_NAMESPACE), "setns")
    os.close(holder)
    os.setpgid(0, 0)
    _check(libc.prctl(1, signal.SIGKILL, 0, 0, 0), "PR_SET_PDEATHSIG")
    for step in request["steps"]:
        _limit(step)
    for target, fd in enumerate(streams):
        os.dup2(fd, target)
    _RUN_STDERR[0] = 2
    # Every descriptor but the three streams and the middle's pidfd (closed below).
    middle = os.dup2(middle, 3)
    os.closerange(4, 1 << 20)
    uid = request["uid"]
    if not 0 < uid < 0xFFFFFFFF:
        raise ValueError("no unprivileged uid")
    # Still root, as bwrap is when it goes to a cold run's folder (in the jail's mounts alone).
    os.chdir(request["cwd"])
    _check(libc.prctl(38, 1, 0, 0, 0), "no_new_privs")
    cap = 0
    while libc.prctl(23, cap, 0, 0, 0) >= 0:
        _check(libc.prctl(24, cap, 0, 0, 0), "bounding set")
        cap += 1
    os.setgroups([])
    libc.prctl(47, 4, 0, 0, 0)
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(libc.capset(header, data), "capset")
    # The uid change cleared the parent-death signal (as any change of the effective uid does):
    # set again, then the middle checked, which may have ended in between.
    _check(libc.prctl(1, signal.SIGKILL, 0, 0, 0), "PR_SET_PDEATHSIG")
    if select.select([middle], [], [], 0)[0]:
        os._exit(128 + signal.SIGKILL)
    os.close(middle)
    # Dumpable again, as after the exec that starts a cold run's program: the uid change made it
    # not, which leaves its own /proc entries (ns, environ, personality...) to root.
    _check(libc.prctl(4, 1, 0, 0, 0), "dumpable")
    if request["seccomp"]:
        program = ctypes.create_string_buffer(bytes.fromhex(request["seccomp"]))
        class Filter(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
        fprog = Filter(len(request["seccomp"]) // 16, ctypes.addressof(program))
        _check(libc.prctl(22, 2, ctypes.byref(fprog), 0, 0), "seccomp")
    os.environ.clear()
    os.environ.update(request["env"])
    # What bwrap sets for the folder it starts the program in.
    os.environ["PWD"] = request["cwd"]
    # The -c argument after the prelude's exec (which has this text only with its quotes escaped).
    prelude = '"<frozen patchgym-zygote>", "exec"));'
    program = sys.orig_argv[-1]
    sys.orig_argv = [*sys.orig_argv[:-1], program[program.index(prelude) + len(prelude):]]

def _finish(role, fresh):
    """The program's set-up, then nothing of the warm interpreter's own left in its way."""
    try:
        _become(*role)
    except BaseException as error:
        os.write(_RUN_STDERR[0], f"patchgym: cannot set up the warm sandbox: {type(error).__name__}: {error}\n".encode())
        os._exit(125)
    del role
    for name in set(sys.modules) - _BASE:
        del sys.modules[name]
    for path in set(sys.path_importer_cache) - _FINDERS:
        del sys.path_importer_cache[path]
    main = sys.modules["__main__"].__dict__
    main.clear()
    main.update(fresh)

_finish(_serve(), _FRESH)
`;

/** The warm interpreter of one thread and launcher, started on first use. */
export class Zygote {
  readonly #argv: string[];
  #child: Deno.ChildProcess | null = null;
  #writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  /** Why it is not used (any more), once it is not. */
  #broken: string | null = null;
  /** When (`performance.now()`) its process ended, once it did. */
  #endedAt: number | null = null;
  /** Whether it answered a run's set-up failed (`fail`). */
  #refused = false;
  #next = 1;
  /**
   * Runs waiting for an answer, whether the warm interpreter said it took their request, and
   * whether a middle was forked for it.
   */
  readonly #waiting = new Map<
    string,
    { resolve: (start: WarmStart) => void; taken: boolean; forked: boolean }
  >();
  readonly #encoder = new TextEncoder();

  /** `argv`: the launcher's, ending with `python3 -I -B -u -c` and {@linkcode zygoteProgram}. */
  constructor(argv: string[]) {
    this.#argv = argv;
  }

  /** Whether no run waits on it now. */
  get idle(): boolean {
    return this.#waiting.size === 0;
  }

  /**
   * When its process ended (`performance.now()`), or null: it did not, never started, or failed a
   * run's set-up while it lived (which a new one would fail again).
   */
  get endedAt(): number | null {
    return this.#refused ? null : this.#endedAt;
  }

  /** Why runs start cold here, or null while the warm interpreter serves. */
  get broken(): string | null {
    return this.#broken;
  }

  /** Fork `request`'s program into the jail of the launcher chain `bwrap` (its pid). */
  async start(bwrap: number, request: WarmRequest): Promise<WarmStart> {
    if (this.#broken || !this.#begin()) return { failed: this.#broken ?? "not started" };
    const id = String(this.#next++);
    const answered = new Promise<WarmStart>((resolve) =>
      this.#waiting.set(id, { resolve, taken: false, forked: false })
    );
    this.#hold();
    try {
      // Framed by its id and byte length: the warm interpreter reads this request and no more.
      const body = this.#encoder.encode(JSON.stringify({ id, pid: bwrap, ...request }));
      const head = this.#encoder.encode(`${id} ${body.length}\n`);
      await this.#writer!.write(concat([head, body]));
    } catch (error) {
      // It ended (or ends now: its input is closed). Whether it took this request, or any other
      // still waiting, only the end of its stderr tells.
      this.#stop(`cannot write to the warm interpreter: ${String(error)}`);
    }
    return await answered;
  }

  /** Stop it: it ends once it read the end of its input (as it does when this thread ends). */
  close(): void {
    this.#stop("closed");
  }

  /** Send it nothing more: every later run starts cold. */
  #stop(reason: string): void {
    this.#broken ??= reason;
    this.#writer?.close().catch(() => {});
    this.#writer = null;
  }

  /** Answer the run waiting on request `id`, if one does. */
  #settle(id: string, answer: WarmStart): void {
    const waiting = this.#waiting.get(id);
    this.#waiting.delete(id);
    this.#hold();
    waiting?.resolve(answer);
  }

  /** Its process keeps this thread alive only while a run waits on it. */
  #hold(): void {
    holdWhile(this.#child, this.#waiting.size > 0);
  }

  /**
   * End the runs waiting on it that `which` picks, with `answer`. One it never took starts cold;
   * one it took is lost (never started again: its program may have run) once no middle can answer
   * it any more: none was forked for it, or none is left.
   */
  #end(which: (waiting: { taken: boolean; forked: boolean }) => boolean, answer: WarmStart): void {
    for (const [id, waiting] of this.#waiting) {
      if (which(waiting)) this.#settle(id, answer);
    }
  }

  #begin(): boolean {
    if (this.#child) return true;
    try {
      this.#child = new Deno.Command(this.#argv[0], {
        args: this.#argv.slice(1),
        cwd: "/",
        clearEnv: true,
        env: { PATH: CHILD_PATH, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" },
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (error) {
      this.#broken = `cannot start the warm interpreter: ${String(error)}`;
      return false;
    }
    const child = this.#child;
    child.unref();
    this.#writer = child.stdin.getWriter();
    // Its stderr ends with its own process (its middles leave it at once), having said `took`
    // for every request it took, and each middle `forked` before it left: the rest start cold,
    // and a run taken that no middle was forked for is lost.
    const ended = this.#readTook(child.stderr).then(async ({ said, whole }) => {
      const status = await child.status.catch(() => null);
      this.#stop(`the warm interpreter ended (${status?.code ?? "?"}): ${said || "no message"}`);
      // Read to its end, it told every request it took; cut short, a `took` may be unread: then no
      // run starts cold, whatever it was.
      if (whole) this.#end((waiting) => !waiting.taken, { failed: this.#broken! });
      this.#end((waiting) => !waiting.forked, "lost");
    });
    // Its stdout ends once no middle of it can answer.
    this.#read(child.stdout).finally(async () => {
      await ended;
      this.#endedAt = performance.now();
      this.#end(() => true, "lost");
    });
    return true;
  }

  /**
   * Reads `took ID`, `forked ID` and `cold ID REASON` lines; what else it says (its last lines) is
   * its message. `whole`: read to its end, not cut short by an error.
   */
  async #readTook(stream: ReadableStream<Uint8Array>): Promise<{ said: string; whole: boolean }> {
    const said: string[] = [];
    try {
      for await (const event of readLines(stream, ANSWER_BYTES)) {
        const line = event.kind === "line" ? event.text : event.head;
        const step = /^(took|forked) (\d+)$/.exec(line);
        const cold = /^cold (\d+) (.*)$/.exec(line);
        const waiting = step && this.#waiting.get(step[2]);
        if (waiting) waiting[step[1] === "took" ? "taken" : "forked"] = true;
        // It could not fork a middle for this one: no program, so it starts cold.
        else if (cold) this.#settle(cold[1], { failed: cold[2] });
        else if (!step && line.trim()) {
          said.push(line.trim());
          if (said.length > 3) said.shift();
        }
      }
    } catch {
      return { said: said.join(" "), whole: false };
    }
    return { said: said.join(" "), whole: true };
  }

  /**
   * Reads the middles' answers, one a line: `ok ID`, `gone ID`, `cold ID REASON` (no room for the
   * program's process: that run starts cold, later ones still warm) or `fail ID REASON`.
   */
  async #read(stream: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const event of readLines(stream, ANSWER_BYTES)) {
        const line = event.kind === "line" ? event.text : event.head;
        const [word, id, ...reason] = line.split(" ");
        if (word === "ok") this.#settle(id, "started");
        else if (word === "gone") this.#settle(id, "gone");
        else if (word === "cold") this.#settle(id, { failed: reason.join(" ") });
        else {
          // A step failed where it should not (an older kernel, a missing call): every later run of
          // this thread starts cold.
          const why = reason.join(" ") || line;
          this.#refused = true;
          this.#stop(`the warm interpreter could not start a run: ${why}`);
          this.#settle(id, { failed: why });
        }
      }
    } catch {
      // Read what came.
    }
  }
}

/** The longest line the warm interpreter and its middles write (`_say`: 4000 bytes). */
const ANSWER_BYTES = 4096;

/**
 * Warm interpreters a thread keeps at most, one per `-c` program (the reporters have one); past it,
 * the least recently used idle one is stopped.
 */
const MAX_ZYGOTES = 4;

/**
 * How long after a warm interpreter's process ended (killed, out of memory) its runs start cold
 * before a new one is tried. One whose run set-up failed while it lived stays off: that failure
 * would come again.
 */
export const RESTART_AFTER_MS = 60_000;

const zygotes = new Map<string, Zygote>();
/**
 * This thread's warm interpreter started by `argv`, or null: as many as it keeps are busy. `now`
 * (`performance.now()`) tells whether one that ended may be replaced.
 */
export function zygoteFor(argv: string[], now = performance.now()): Zygote | null {
  const key = JSON.stringify(argv);
  let zygote = zygotes.get(key);
  if (
    zygote?.endedAt != null && now - zygote.endedAt >= RESTART_AFTER_MS && zygote.idle
  ) {
    zygotes.delete(key);
    zygote = undefined;
  }
  if (zygote) {
    // The most recently used last.
    zygotes.delete(key);
  } else {
    if (zygotes.size >= MAX_ZYGOTES) {
      const idle = [...zygotes].find(([, z]) => z.idle);
      if (!idle) return null;
      idle[1].close();
      zygotes.delete(idle[0]);
    }
    zygote = new Zygote(argv);
  }
  zygotes.set(key, zygote);
  return zygote;
}

/** Stop this thread's warm interpreters that no run waits on; the next run starts a new one. */
export function closeIdleZygotes(): void {
  for (const [key, zygote] of zygotes) {
    if (!zygote.idle) continue;
    zygote.close();
    zygotes.delete(key);
  }
}
