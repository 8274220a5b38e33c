/**
 * The Python test reporters (unittest and pytest). Code under test shares their process, so the
 * design assumes it is hostile and layers defenses that do not depend on knowing its trick:
 *
 * - The reporter is compiled from stdin under its own file name with a private copy of builtins,
 *   and the framework is imported with the repository off `sys.path`; the repository is appended
 *   last, so it cannot shadow a standard-library or installed module (`-I`: no cwd, no user site,
 *   no PYTHON* variables). pytest runs with plugin autoload off and `--import-mode=append`.
 * - A PEP 578 audit hook, which cannot be removed once added, refuses to code under test: frame
 *   and `gc` introspection, tracing, ctypes, new code objects, spawning processes, reading
 *   `/proc/<pid>/mem`, and running code that claims a test file's or the library's file name.
 *   Code is classified by where it was compiled: pristine test files (trusted), the interpreter's
 *   own paths (neutral) or anything else (untrusted).
 * - Framework, reporter and builtin functions and classes are compared by identity against a
 *   baseline after every test, and everything loaded before the tests at the end; every test's
 *   function must be compiled from a pristine test file.
 * - The reporter's own classes, closure cells, globals and builtins are sealed before any
 *   repository code runs and checked before the report is finished: code under test reaches them
 *   without any audited operation (`__subclasses__()`, `__closure__`), so they cannot be hidden.
 * - The report is written line by line as results happen, into the file and into a running
 *   HMAC-SHA256 (`hmac_sha256`, on the interpreter's own SHA-256) whose key is dropped once it is
 *   made; the key and the report path arrive on stdin. The MAC and the file are the audit hook's
 *   alone: callbacks send results and problems as audit events. A rewritten or dropped line breaks
 *   the MAC, a run ended early has no closing MAC line, and a result sent twice can only make the
 *   outcome worse.
 *
 * Any defense that fires adds a problem code to the report and every result counts as an error.
 * The grader adds canary tests the code under test cannot know on top (see `reward/canary.ts`).
 * The report: lines `O <outcome> <hex id>`, `F <hex id> <hex text>` (failure output) and
 * `P <code> <hex detail>`, then `M <hex MAC of every line before it>`.
 */
import { shared } from "../bytes.ts";

/**
 * The `python3 -c` program. Its stdin: the configuration (a Python literal) on the first line; the
 * `sys.hexversion` of the interpreter that compiled the reporter and the byte length of that
 * compiled code (marshal) on the next two, empty and 0 without it; the compiled code; the
 * reporter's source. It runs the compiled code when this interpreter made it, else compiles the
 * source (about 5 ms of CPU per run, see {@linkcode REPORTER_COMPILER}), under the reporter's own
 * file name and with a private copy of builtins either way.
 */
export const PYTHON_BOOTSTRAP =
  "import builtins,marshal,sys;i=sys.stdin.buffer;c=eval(i.readline());" +
  "v=i.readline().strip();n=int(i.readline());m=i.read(n);exec(marshal.loads(m) " +
  'if n and v==str(sys.hexversion).encode() else compile(i.read(),"<patchgym-reporter>","exec"),' +
  '{"__name__":"__patchgym__","__builtins__":dict(vars(builtins)),"_CONFIG":c})';

/**
 * The `python3 -c` program that compiles a reporter's source (stdin) once per process, run in the
 * sandbox by the interpreter the tests run with: it prints `sys.hexversion`, then the compiled code
 * (marshal) in hex. Only builtin modules, no site, no repository.
 */
export const REPORTER_COMPILER = "import marshal,sys;sys.stdout.write(str(sys.hexversion)+" +
  '"\\n"+marshal.dumps(compile(sys.stdin.read(),"<patchgym-reporter>","exec")).hex())';

/** The reporter compiled by one interpreter: its `sys.hexversion` and the marshal bytes. */
export interface CompiledReporter {
  hexversion: string;
  /** In memory threads share (see `shared`): every run sends it. */
  code: Uint8Array;
}

/** What the reporter needs to know; it arrives on stdin, never in argv or the environment. */
export interface ReporterConfig {
  /** HMAC key, hex. */
  key: string;
  /** Where to write the report (outside the repository). */
  report: string;
  /** The repository root (absolute). */
  repo: string;
  /** Test files or ids to run. */
  targets: string[];
  /** Absolute paths of pristine files whose code is trusted (test files, protected files). */
  trusted: string[];
  /** Installed-package folders of the task's environment, searched before the interpreter's own. */
  paths?: string[];
  /** The repository's source roots (absolute, e.g. `<repo>/src`), searched after its root. */
  sources?: string[];
  /** Extra pytest options (plugins, an addopts override). */
  args?: string[];
  /**
   * The tests report observations (separated checks, see `reward/separate.ts`): only then does the
   * reporter import what it serializes them with.
   */
  observe?: boolean;
}

/** The reporter's source for `runner`: the harness and the runner's part, without configuration. */
export function reporterSource(runner: "unittest" | "pytest"): string {
  return `${HARNESS}${
    runner === "unittest" ? UNITTEST : PYTEST
  }\nraise SystemExit(_patchgym_main(globals().pop("_CONFIG"), _prepare_${runner}))\n`;
}

/**
 * The reporter's full stdin for {@linkcode PYTHON_BOOTSTRAP}: its configuration as a Python
 * literal, the compiled reporter when there is one (`compiled`, from
 * {@linkcode REPORTER_COMPILER}), then its source.
 */
export function reporterInput(
  runner: "unittest" | "pytest",
  config: ReporterConfig,
  compiled: CompiledReporter | null = null,
): Uint8Array[] {
  // JSON of strings and string arrays is a valid Python literal, on one line; a flag goes as 1
  // (JSON's true is not Python's).
  const literal = JSON.stringify({ ...config, observe: config.observe ? 1 : undefined });
  const head = encoder.encode(
    `${literal}\n${compiled?.hexversion ?? ""}\n${compiled?.code.length ?? 0}\n`,
  );
  // In parts: the code and the source are the same every run, and never copied into one array
  // (about 130 KB a run the orchestrator would allocate, and collect).
  return [head, ...(compiled ? [compiled.code] : []), sourceBytes(runner)];
}

const encoder = new TextEncoder();

/**
 * Each runner's source, encoded once into memory the spawner thread shares: every run sends it
 * (about 50 KB).
 */
const sources = new Map<"unittest" | "pytest", Uint8Array>();
function sourceBytes(runner: "unittest" | "pytest"): Uint8Array {
  let bytes = sources.get(runner);
  if (!bytes) sources.set(runner, bytes = shared(encoder.encode(reporterSource(runner))));
  return bytes;
}

const HARNESS = String.raw`def hmac_sha256(key):
    # HMAC-SHA256 (RFC 2104) on the interpreter's own SHA-256 (builtin in most builds): _hashlib
    # loads OpenSSL, about 2.5 ms of CPU a run. Returns update and hexdigest; only update is handed
    # on (to the audit hook), and neither holds the key, only the hash states made from it.
    try:
        from _sha2 import sha256
    except ImportError:
        try:
            from _sha256 import sha256
        except ImportError:
            import _hashlib
            mac = _hashlib.hmac_new(key, digestmod="sha256")
            return mac.update, mac.hexdigest
    if len(key) > 64:
        key = sha256(key).digest()
    key = key.ljust(64, b"\0")
    inner, outer = sha256(bytes(b ^ 0x36 for b in key)), sha256(bytes(b ^ 0x5C for b in key))

    def hexdigest():
        final = outer.copy()
        final.update(inner.digest())
        return final.hexdigest()

    return inner.update, hexdigest

def _patchgym_main(config, prepare):
    # Runs before any repository code exists on sys.path. Everything the verdict depends on is
    # captured here, as objects code under test cannot reach without the introspection the audit
    # hook below refuses.
    import builtins, gc, io, linecache, os, sys
    from itertools import repeat
    from _operator import is_
    io_open, os_stat, source_cache = io.open, os.stat, linecache.cache
    compile_source = compile
    getframe, audit = sys._getframe, sys.audit
    os_write, os_close = os.write, os.close
    repo = config["repo"]
    # The report is written as results happen, each line into the file and into a running MAC
    # whose key is gone once it is made: rewriting or dropping a line breaks the MAC.
    fd = os.open(config["report"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    mac_update, mac_hexdigest = hmac_sha256(bytes.fromhex(config.pop("key")))
    trusted = frozenset(config["trusted"]) | {"<patchgym-reporter>"}
    # Pristine files by inode too, so a link or a renamed folder does not make them readable.
    trusted_paths, trusted_inodes = tuple(config["trusted"]), set()
    for path in trusted_paths:
        try:
            st = os_stat(path)
            trusted_inodes.add((st.st_dev, st.st_ino))
        except OSError:
            pass
    # The environment's packages come before the interpreter's installed ones (its pins win) and
    # count as library code, like them.
    installed = [i for i, p in enumerate(sys.path) if p.endswith(("-packages", "/site"))]
    at = installed[0] if installed else len(sys.path)
    sys.path[at:at] = [p for p in config.get("paths", []) if not p.startswith(repo)]
    system = tuple(p.rstrip("/") + "/" for p in sys.path if p and not p.startswith(repo))
    stdlib = os.path.dirname(os.__file__)
    # Standard-library functions that hand frames back to their caller: who asked is the caller.
    helpers = {stdlib + "/inspect.py": "walk", stdlib + "/traceback.py": "once",
               stdlib + "/logging/__init__.py": "once", stdlib + "/bdb.py": "once",
               stdlib + "/pdb.py": "once"}
    traceback_file = stdlib + "/traceback.py"
    types_file = stdlib + "/types.py"
    summaries = frozenset({"extract_stack", "format_stack", "print_stack"})
    # Library modules that hand a code object (and its constants) back to their caller.
    code_handing = frozenset({stdlib + "/dis.py"})
    # busy: the threads the hook is working for now, which ignores their own events meanwhile.
    # By thread: another thread runs while the hook waits (a read of a fifo named like a library
    # file blocked it), and its events must meet the rules.
    raised, armed, busy, collecting = [], [False], set(), [False]
    # No garbage is collected while the hook is busy: a cycle's __del__ (code under test) would
    # run there with every event ignored (one walked frames to the reporter's and disarmed it).
    gc_enabled, gc_disable, gc_enable = gc.isenabled, gc.disable, gc.enable
    from _thread import get_ident

    def quiet(me):
        """Mark the hook busy for thread me, with collection off while any thread is."""
        if not busy:
            collecting[0] = gc_enabled()
            gc_disable()
        busy.add(me)

    def leave(me):
        busy.discard(me)
        if not busy and collecting[0]:
            gc_enable()
        while pending and me not in busy:
            deliver(pending.pop(0))

    # Signal handlers: Python runs one in the main thread wherever it is, inside the busy hook
    # too (its events were ignored there), and hands it the frame it interrupted (the hook's own,
    # whose locals hold the reporter's state). So the reporter owns signal.signal: the handler
    # the interpreter runs is its trampoline, which sends the signal to the hook; the hook runs
    # the handler code under test installed, with no frame, at once or once it is not busy.
    handlers, pending = {}, []

    def trampoline(signum, frame):
        audit("patchgym.signal", signum)

    def install(signalnum, handler):
        """signal.signal: a Python handler is installed behind the reporter's trampoline."""
        previous = []
        audit("patchgym.install", signalnum, handler, previous)
        return previous[0]

    def read_handler(signalnum):
        """signal.getsignal: the handler code under test installed, not the trampoline."""
        found = []
        audit("patchgym.getsignal", signalnum, found)
        return found[0]

    def deliver(args):
        handler = handlers.get(args[0])
        if handler is not None:
            handler(args[0], None)

    def install_handler(signalnum, handler, previous):
        if type(previous) is not list:
            return
        python = callable(handler) and not isinstance(handler, builtin_function)
        before = set_handler(signalnum, trampoline if python else handler)
        signum = int(signalnum)
        previous.append(handlers.pop(signum, before) if before is trampoline else before)
        if python:
            handlers[signum] = handler

    def get_handler(signalnum, found):
        if type(found) is not list:
            return
        current = get_signal(signalnum)
        found.append(handlers.get(int(signalnum), current) if current is trampoline else current)

    def emit(line):
        data = (line + "\n").encode("utf-8", "replace")
        mac_update(data)
        while data:
            data = data[os_write(fd, data):]

    # emit, flag and write_result are the audit hook's alone; the framework callbacks below
    # (record, problem) reach them through audit events, so no object code under test can reach
    # holds the MAC or the report's file descriptor.
    def flag(code, detail):
        if len(raised) < 5:
            raised.append(f"{code}: {detail}")
        emit(f"P {code} {detail.encode('utf-8', 'replace').hex()}")

    def write_result(tid, outcome, text):
        emit(f"O {outcome} {tid.encode().hex()}")
        if text and outcome in ("failed", "error"):
            emit(f"F {tid.encode().hex()} {text[-4000:].encode('utf-8', 'replace').hex()}")

    def problem(code, detail):
        audit("patchgym.problem", code, detail)

    def record(tid, outcome, text=None):
        audit("patchgym.result", tid, outcome, text)

    # Where code comes from: "trusted" (patchgym, the framework, pristine test files),
    # "neutral" (the standard library and installed packages), or "untrusted" (the repository,
    # code compiled at run time, anything else).
    # While the hook is busy it ignores audit events, so nothing it reads there may run code of a
    # value's own: file names and event arguments are read only as exact str (or bytes), a
    # subclass's text copied by str's own method (its __eq__, __hash__, startswith never run).
    def kind(filename):
        if type(filename) is not str:
            return "untrusted"
        if filename in trusted:
            return "trusted"
        if filename.startswith(system) or filename.startswith("<frozen "):
            return "neutral"
        return "untrusted"

    def code_file(code):
        name = code.co_filename
        return name if type(name) is str else "<not a str>"

    def frame_file(frame):
        return code_file(frame.f_code)

    def text_of(value):
        """value as an exact str or bytes, or None; runs nothing of a subclass's own."""
        t = type(value)
        if t is str or t is bytes:
            return value
        if issubclass(t, str):
            return str.__str__(value)
        if issubclass(t, bytes):
            return bytes.__getitem__(value, slice(None))
        return None

    def innermost(frame):
        """The first frame outward that is not neutral, or None."""
        while frame is not None:
            k = kind(frame_file(frame))
            if k != "neutral":
                return k
            frame = frame.f_back
        return None

    def any_untrusted(frame):
        # Frames outside the reporter's own are the bootstrap's; nothing of the repository's.
        while frame is not None and frame_file(frame) != "<patchgym-reporter>":
            if kind(frame_file(frame)) == "untrusted":
                return True
            frame = frame.f_back
        return False

    def direct_untrusted(frame):
        """Whether untrusted code asked directly, or through a stdlib helper that hands frames back."""
        if frame_file(frame) == traceback_file and frame.f_code.co_name in summaries:
            # These turn the stack into text and summaries (no frames, no locals) for their caller.
            return False
        mode = helpers.get(frame_file(frame))
        if mode == "walk":
            while frame is not None and helpers.get(frame_file(frame)) == "walk":
                frame = frame.f_back
        elif mode == "once":
            frame = frame.f_back
        return frame is not None and kind(frame_file(frame)) == "untrusted"

    def asks_for_frame(frame):
        """Whether untrusted code asked sys._getframe, directly or through any trampoline."""
        if helpers.get(frame_file(frame)) or kind(frame_file(frame)) != "neutral":
            return direct_untrusted(frame)
        # Library code that names _getframe asks for itself (namedtuple, enum, typing read the
        # caller's module name). Library code that does not name it was handed the function to
        # call (functools.singledispatch, threads, executors): it asks for whoever handed it over.
        if "_getframe" in frame.f_code.co_names:
            return False
        return innermost(frame) == "untrusted"

    def codes_from(code):
        yield code
        for const in code.co_consts:
            if type(const) is type(code):
                yield from codes_from(const)

    frame_attrs = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back", "f_code"})
    stack_rule = frozenset({"sys._current_frames", "sys._current_exceptions", "sys.settrace",
                            "sys.setprofile", "gc.get_objects", "gc.get_referrers",
                            "gc.get_referents", "code.__new__", "os.fork", "os.forkpty",
                            "os.exec", "os.posix_spawn", "os.spawn", "os.system",
                            "subprocess.Popen", "pty.spawn"})
    watched = stack_rule | {"sys._getframe", "object.__getattr__", "object.__setattr__",
                            "marshal.loads", "marshal.load", "compile", "exec", "open", "import"}

    def denied(event, args, caller):
        """True: refuse and flag the attempt; "quiet": refuse only; False: allow."""
        if event == "open":
            path = args[0]
            if type(path) is str and path.startswith("/proc/") and path.endswith("mem"):
                return True
            if shadows_test(path):
                # Bytecode Python would load in place of a pristine test file (its __pycache__,
                # a sys.pycache_prefix, a sourceless file): written by code under test, it would
                # run under the trusted file's name. Refused whoever asks (importlib then
                # compiles the source itself). Reading one is refused quietly: an agent's own
                # test runs in its workspace (outside the reporter) leave honest bytecode behind.
                # The runner writes none (-B), so writing one here is flagged.
                mode, flags = args[1], args[2]
                writing = (type(mode) is str and any(c in mode for c in "wax+")) or (
                    mode is None and type(flags) is int and flags & write_flags)
                if writing:
                    flag("test_identity", "bytecode for a test file: " + str(path))
                return "quiet"
            # Code under test must not learn the tests' expected values (nor tell canaries apart)
            # by reading test files. Refused without a flag: library code (warnings, linecache)
            # may try it on behalf of correct code, and gets nothing.
            return "quiet" if innermost(caller) != "trusted" and is_test_file(path) else False
        if event == "object.__getattr__" and text_of(args[1]) == "__code__":
            # A test's own code object carries the values it checks inside (those separation
            # could not take out). Library code may read any other function's code for code under
            # test (inspect.signature, iscoroutinefunction on a callback a test passes in).
            if not test_code(args[0]) or innermost(caller) == "trusted":
                return False
            if kind(frame_file(caller)) == "untrusted" or frame_file(caller) in code_handing:
                return "quiet"
            return "quiet" if test_function(args[0]) else False
        if event in ("code.__new__", "object.__setattr__") and frame_file(caller) == types_file \
                and caller.f_code.co_name == "coroutine":
            # types.coroutine (asyncio's own modules use it as they load) only sets a flag on a
            # function's own code object; crafted code objects stay refused.
            return False
        if event in stack_rule:
            return innermost(caller) != "trusted"
        if event.startswith("ctypes."):
            return innermost(caller) != "trusted"
        if event == "sys._getframe":
            return asks_for_frame(caller)
        if event == "object.__getattr__":
            return text_of(args[1]) in frame_attrs and direct_untrusted(caller)
        if event == "object.__setattr__":
            name = text_of(args[1])
            if name == "__class__" and any(map(is_, repeat(args[0]), framework_modules)):
                # A framework module given another class keeps its namespace (the identity
                # snapshot saw nothing) while reads of its attributes answer what the class says
                # (unittest.TextTestRunner came back as a runner of code under test).
                return innermost(caller) != "trusted"
            return name == "__code__" and innermost(caller) != "trusted"
        if event in ("marshal.loads", "marshal.load"):
            return kind(frame_file(caller)) == "untrusted"
        if event == "compile":
            source, name = args[0], args[1]
            name = text_of(name)
            return kind(name) != "untrusted" and any_untrusted(caller) \
                and not same_as_file(source, name)
        if event == "exec":
            code = args[0]
            if type(code) is not type(denied.__code__):
                return False
            names = {code_file(c) for c in codes_from(code)}
            if all(kind(n) == "untrusted" for n in names):
                return False
            claimed = {n for n in names if n in trusted_paths}
            loading = module_file(caller)
            if claimed and type(loading) is str and loading not in claimed:
                # An import hook executing a module whose code claims a pristine file's name
                # but was loaded from another file (sourceless bytecode, a package shadowing the
                # test module): it would run as the test file's own code.
                flag("test_identity", "module " + str(loading) + " claims " + min(claimed))
                return "quiet"
            if claimed and type(loading) is str and frame_file(caller).startswith("<frozen importlib") \
                    and not compiled_from(code, loading):
                # importlib executing a test module whose code is not its pristine source's
                # (bytecode from elsewhere, a loader or helper of importlib's replaced).
                flag("test_identity", "module " + loading + " is not its source's code")
                return "quiet"
            if not any_untrusted(caller):
                return False
            return kind(frame_file(caller)) == "untrusted" or names != {module_file(caller)}
        if event == "import":
            return text_of(args[0]) in ("ctypes", "_ctypes") and innermost(caller) != "trusted"
        return False

    # A trusted file's bytecode: <folder>/__pycache__/<stem>.*.pyc, or <anything><folder>/<stem>.*.pyc
    # (under a sys.pycache_prefix, or sourceless beside it).
    shadow_heads = tuple((p.rpartition("/")[0] + "/__pycache__/" + p.rpartition("/")[2][:-3] + ".",
                          p.rpartition("/")[0] + "/" + p.rpartition("/")[2][:-3] + ".")
                         for p in trusted_paths if p.endswith(".py"))

    write_flags = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def shadows_test(path):
        path = text_of(path)
        if type(path) is bytes:
            path = path.decode("utf-8", "surrogateescape")
        if type(path) is not str or not path.endswith(".pyc"):
            return False
        for cached, beside in shadow_heads:
            for head in (cached, beside):
                at = path.rfind(head)
                if at >= 0 and "/" not in path[at + len(head):]:
                    return True
        return False

    def is_test_file(path):
        path = text_of(path)
        if path is None:
            return False
        try:
            st = os_stat(path)
        except (OSError, TypeError, ValueError):
            return False
        return (st.st_dev, st.st_ino) in trusted_inodes

    # A __code__ read's object is a plain function (a forged event's could be anything: its
    # attributes are never read).
    def test_function(function):
        """Whether function is a test itself (named test*), not a helper or callback of a test file."""
        return type(function) is type(kind) and function.__code__.co_name.startswith("test")

    def test_code(function):
        return type(function) is type(kind) and code_file(function.__code__) in trusted

    def watched_read(args):
        """Whether an attribute read may be refused: a test function's code or a frame's links."""
        name = text_of(args[1])
        return name in frame_attrs or (name == "__code__" and test_code(args[0]))

    def forget_test_sources():
        """Drop cached test-file lines (tracebacks fill the cache) before the next test runs."""
        for path in trusted_paths:
            source_cache.pop(path, None)

    def same_as_file(source, name):
        """Whether compiled source is the file it claims to be (importlib compiling a module)."""
        try:
            with io_open(name, "rb") as f:
                data = f.read()
        except (OSError, ValueError):
            return False
        source = text_of(source)
        return type(source) is not type(None) and data == (
            source.encode() if type(source) is str else source)

    def compiled_from(code, path):
        """Whether code is what importlib compiles from the pristine file at path."""
        try:
            with io_open(path, "rb") as f:
                data = f.read()
            return code == compile_source(data, path, "exec", dont_inherit=True)
        except (OSError, ValueError, SyntaxError):
            return False

    def module_file(caller):
        """The file of the module an import hook is executing (importlib's or pytest's), or None."""
        # A module frame's locals are its namespace, whose keys code under test may have made:
        # read by scanning (a lookup could call a key's __eq__), as every dict below.
        scope = caller.f_locals
        module = entry_of(scope, "module") if type(scope) is dict else None
        if type(module) is type(os):
            return entry_of(vars(module), "__file__")
        args = entry_of(scope, "args") if type(scope) is dict else None
        namespace = args[1] if type(args) is tuple and len(args) > 1 and type(args[1]) is dict else {}
        return entry_of(namespace, "__file__")

    def entry_of(space, name):
        """space[name] (a dict), or None; nothing of its keys' own runs."""
        for key, value in dict.items(space):
            if type(key) is str and key == name:
                return value
        return None

    def seal(roots):
        """Closure cells (with their contents) and class namespaces reachable from roots."""
        cells, spaces, seen, todo = [], [], set(), list(roots)
        while todo:
            obj = todo.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if isinstance(obj, type):
                if vars(obj).get("__module__") == "__patchgym__":
                    spaces.append((vars(obj), dict(vars(obj))))
                    todo.extend(vars(obj).values())
                continue
            fn = getattr(obj, "__func__", obj)
            code = getattr(fn, "__code__", None)
            if code is None or code.co_filename != "<patchgym-reporter>":
                continue
            for cell in fn.__closure__ or ():
                try:
                    value = cell.cell_contents
                except ValueError:
                    continue
                cells.append((cell, value))
                todo.append(value)
        return tuple(cells), tuple(spaces)

    def unsealed(cells, spaces, _type=type, _str=str, _ValueError=ValueError, _missing=object()):
        """What changed since the seal, or None. Builtins come bound: the reporter's may be swapped."""
        for cell, value in cells:
            try:
                if cell.cell_contents is not value:
                    return "a closure cell"
            except _ValueError:
                return "a closure cell"
        for space, items in spaces:
            for name, value in items.items():
                if space.get(name, _missing) is not value:
                    return name
            for name in space:
                # A key of another type could run code when compared.
                if _type(name) is not _str or (name not in items and name != "__warningregistry__"):
                    return "a name added"
        return None

    def builtins_of():
        scope = globals()["__builtins__"]
        return scope if type(scope) is dict else vars(scope)

    # pytest options from the environment go first; unittest gets none.
    targets = tuple(config.get("args", [])) + tuple(config["targets"])

    # The id of the test now running (see start), or None between tests.
    current = [None]

    def observer():
        """The hook's handler of observations, with everything it uses captured now."""
        # Observations (see reward/separate.ts): a separated check hands the value under check
        # to this hook, which writes it to the report as plain data, serialized by the code below
        # with objects captured now; it calls nothing of the value's own (no __eq__, __repr__,
        # __iter__): builtin containers are read by the builtin types' own methods. The expected
        # value is not in this process: the verdict is reached outside.
        # The json module's C quoting where there is one (the same text, without the rest of
        # json). Decimal, Fraction and the datetime classes are not imported (about 3 ms of CPU a
        # run): a value's class is recognized by its name, and the data read with the class's
        # own descriptors, for datetime and Decimal only from a class C code made (which no class
        # statement can make, nor change), for Fraction from its two int slots.
        try:
            from _json import encode_basestring_ascii as quote
        except ImportError:
            from json.encoder import encode_basestring_ascii as quote
        type_dict = type.__dict__
        mro_of, qualname_of = type_dict["__mro__"].__get__, type_dict["__qualname__"].__get__
        module_of, flags_of = type_dict["__module__"].__get__, type_dict["__flags__"].__get__
        member_type = type(type_dict["__weakrefoffset__"])
        getters = []

        def c_defined(c):
            """Whether class c was made by C code: immutable (3.10+) or static."""
            flags = flags_of(c)
            return bool(flags & (1 << 8)) or not flags & (1 << 9)

        def own(c, name):
            """Class c's own attribute name, or None: its dict is scanned, so no key's code runs."""
            for key, value in class_dict(c).items():
                if _type(key) is _str and key == name:
                    return value
            return None

        def name_of(c):
            """Class c's module and qualified name, as exact str (a subclass's text copied)."""
            module = module_of(c) if c_defined(c) else own(c, "__module__")
            module, qualname = text_of(module), text_of(qualname_of(c))
            return ("None" if module is None else module if _type(module) is _str else "?",
                    qualname if _type(qualname) is _str else "?")

        def fields(c, *names):
            """The values of C-made class c's (or its bases') descriptors names, read from v."""
            for known, found in getters:
                if known is c and found[0] == names:
                    return found[1]
            read = tuple(next(own(b, name) for b in mro_of(c) if own(b, name) is not None).__get__
                         for name in names)
            found = (names, lambda v: [get(v) for get in read])
            getters.append((c, found))
            return found[1]

        def delta_fields(delta):
            c = _type(delta)
            if not c_defined(c) or name_of(c) != ("datetime", "timedelta"):
                raise TypeError("not a timedelta")
            return fields(c, "days", "seconds", "microseconds")(delta)

        def fixed_offset(tz):
            """A datetime.timezone's offset (its class's own utcoffset), or None for another tzinfo."""
            c = _type(tz)
            if not c_defined(c) or name_of(c) != ("datetime", "timezone"):
                return None
            return delta_fields(own(c, "utcoffset")(tz, None))

        def known(t, v):
            """v as plain data when a class of t's is datetime's, Decimal or Fraction, else None."""
            for c in mro_of(t):
                module, name = name_of(c)
                if module == "datetime" and c_defined(c):
                    if name == "datetime":
                        tz = own(c, "tzinfo").__get__(v)
                        read = fields(c, "year", "month", "day", "hour", "minute", "second",
                                      "microsecond")
                        if tz is None:
                            return ["DT", read(v), None]
                        offset = fixed_offset(tz)
                        if offset is not None:
                            return ["DT", read(v), offset]
                        return ["o", "%s.%s" % name_of(t)]
                    if name == "date":
                        return ["D", fields(c, "year", "month", "day")(v)]
                    if name == "time":
                        if own(c, "tzinfo").__get__(v) is not None:
                            return ["o", "datetime.time"]
                        return ["T", fields(c, "hour", "minute", "second", "microsecond")(v)]
                    if name == "timedelta":
                        return ["TD", delta_fields(v)]
                    if name == "timezone" and c is t:
                        return ["TZ", fixed_offset(v)]
                if module == "decimal" and name == "Decimal" and c_defined(c):
                    if own(c, "is_nan")(v):
                        return ["f", "nan"]
                    if own(c, "is_infinite")(v):
                        return ["f", "-inf" if own(c, "is_signed")(v) else "inf"]
                    n, d = own(c, "as_integer_ratio")(v)
                    return ["r", int_repr(n), int_repr(d)]
                if module == "fractions" and name == "Fraction":
                    slots = own(c, "_numerator"), own(c, "_denominator")
                    if _type(slots[0]) is member_type and _type(slots[1]) is member_type:
                        n, d = slots[0].__get__(v), slots[1].__get__(v)
                        if _type(n) is _int and _type(d) is _int:
                            return ["r", int_repr(n), int_repr(d)]
                    return ["o", "fractions.Fraction"]
            return None
        _isinstance, _issubclass, _type, _len, _str, _int, _float, _list, _tuple, _dict, _set, \
            _frozenset, _bytes, _complex, _bool = (isinstance, issubclass, type, len, str, int, float,
                                                    list, tuple, dict, set, frozenset, bytes, complex,
                                                    bool)
        int_repr, float_repr, bytes_hex = int.__repr__, float.__repr__, bytes.hex
        dict_items = dict.items
        keys_view, items_view = type({}.keys()), type({}.items())
        bytearray_type, bytearray_hex = bytearray, bytearray.hex
        copies = ((_str, str.__str__), (_int, int.__index__), (_float, float.__float__),
                  (_complex, complex.__complex__), (_bytes, bytes.__bytes__),
                  (_tuple, lambda v: tuple.__add__(v, ())), (_list, list.copy), (_dict, dict.copy),
                  (_frozenset, frozenset.copy), (_set, set.copy))

        def dumps(value):
            """JSON of plain's lists of str, int, bool and None, written as json.dumps writes it."""
            t = _type(value)
            if t is _str:
                return quote(value)
            if t is _list:
                return "[" + ", ".join([dumps(v) for v in value]) + "]"
            if value is None:
                return "null"
            if t is _bool:
                return "true" if value else "false"
            if t is _int:
                return int_repr(value)
            raise TypeError("not plain data")

        def plain(v, depth, budget):
            budget[0] -= 1
            if budget[0] < 0 or depth > 64:
                return ["o", "(too large)"]
            t = _type(v)
            if t is _bool:
                return ["b", v]
            if t is _int:
                try:
                    return ["i", int_repr(v)]
                except ValueError:
                    return ["o", "(huge int)"]
            if t is _float:
                return ["f", float_repr(v)]
            if t is _complex:
                return ["c", float_repr(v.real), float_repr(v.imag)]
            if t is _str:
                # No test file holds a literal this long: past it, the value only fills the report.
                return ["s", v] if _len(v) <= 1000000 else ["o", "(str too long)"]
            if t is _bytes:
                return ["y", bytes_hex(v)] if _len(v) <= 500000 else ["o", "(bytes too long)"]
            if v is None:
                return ["n"]
            if t is _list or t is _tuple:
                return ["l" if t is _list else "t", [plain(x, depth + 1, budget) for x in v]]
            if t is _set or t is _frozenset:
                return ["S", [plain(x, depth + 1, budget) for x in v]]
            if t is _dict:
                return ["d", [[plain(k, depth + 1, budget), plain(x, depth + 1, budget)]
                              for k, x in dict_items(v)]]
            if t is keys_view:
                # Set-like, as Python compares it: {"a": 1}.keys() == {"a"}.
                return ["S", [plain(x, depth + 1, budget) for x in v]]
            if t is items_view:
                return ["S", [["t", [plain(k, depth + 1, budget), plain(x, depth + 1, budget)]]
                              for k, x in v]]
            if _issubclass(t, bytearray_type):
                return ["y", bytearray_hex(v)] if _len(v) <= 500000 else ["o", "(bytes too long)"]
            found = known(t, v)
            if found is not None:
                return found
            for base, copy in copies:
                if _issubclass(t, base):
                    try:
                        return plain(copy(v), depth + 1, budget)
                    except Exception:
                        break
            return ["o", "%s.%s" % name_of(t)]

        def raised_plain(e):
            if e is None:
                return ["n"]
            return ["x", [_list(name_of(c)) for c in mro_of(_type(e))]]

        def reaches_reporter(frame):
            """Whether the stack from frame is the reporter's main one, with no untrusted frame on it."""
            while frame is not None:
                name = frame_file(frame)
                if name == "<patchgym-reporter>":
                    return True
                if kind(name) == "untrusted":
                    return False
                frame = frame.f_back
            return False

        def observation(event, args, caller):
            # Only a call written in a pristine test file, on the main stack of a running test, with
            # nothing of the code under test in between, is a test's observation; any other is ignored.
            if current[0] is None or _type(args) is not _tuple or \
                    _len(args) != (1 if event == "patchgym.end" else 2) or _type(args[0]) is not _str:
                return
            if frame_file(caller) not in trusted or not reaches_reporter(caller):
                return
            tid = current[0].encode("utf-8", "replace").hex()
            if event == "patchgym.end":
                emit(f"E {tid} {args[0]}")
                return
            try:
                value = raised_plain(args[1]) if event == "patchgym.raised" else plain(args[1], 0, [100000])
                text = dumps(value)
            except Exception:
                text = dumps(["o", "(unreadable)"])
            emit(f"V {tid} {args[0]} {text.encode('utf-8', 'surrogatepass').hex()}")

        return observation

    # Only a run of separated tests (the grader's) observes: the serializer's imports (json,
    # decimal, fractions, datetime: about 4 ms of CPU a run) are made for it alone, and before any
    # repository code, like every object the hook uses.
    observation = observer() if config.get("observe") else None
    observing = frozenset({"patchgym.observe", "patchgym.raised", "patchgym.end"} if observation
                          else ())

    def hook(event, args):
        me = get_ident()
        if event in signal_events:
            if event == "patchgym.install":
                return install_handler(*args[:3])
            if event == "patchgym.getsignal":
                return get_handler(*args[:2])
            if me in busy:
                pending.append(args)
                return
            return deliver(args)
        if me in busy:
            return
        if event in checkpoints:
            return checkpoint(event, args)
        if event in observing and armed[0]:
            quiet(me)
            try:
                observation(event, args, getframe(1))
            finally:
                leave(me)
            return
        if not armed[0] or (event not in watched and not event.startswith("ctypes.")):
            return
        quiet(me)
        try:
            # Decided before the caller's frame is fetched when the answer does not depend on it:
            # pytest and pluggy read thousands of functions' __code__, __defaults__ and the like.
            if event == "object.__getattr__" and not watched_read(args):
                return
            caller = getframe(1)
            refuse = denied(event, args, caller)
        finally:
            leave(me)
        if refuse:
            if refuse is True:
                flag("forbidden_operation", event)
            raise PermissionError(f"patchgym: {event} is not allowed in code under test while tests are graded")

    # The baselines live here, reachable only from the audit hook: the reporter's callbacks ask
    # for a baseline or a check through an audit event, so nothing code under test can reach
    # holds them (a list in a callback's closure could be emptied in place).
    checkpoints = frozenset({"patchgym.baseline", "patchgym.check", "patchgym.result",
                             "patchgym.problem", "patchgym.start"})
    baselines = {"framework": (), "tests": (), "controls": ()}
    outcomes = frozenset({"passed", "failed", "error", "skipped"})

    def checkpoint(event, args):
        if event == "patchgym.problem":
            # Anyone may report a problem: a forged one only costs its sender. Both go into the
            # report as exact str, the code only as one word (a newline in it wrote lines of its
            # own, after a "P" line the runner then dropped).
            code, detail = text_of(str(args[0])), text_of(str(args[1]))
            if type(code) is not str or not str.isidentifier(code):
                code = "framework_tampered"
            flag(code, detail if type(detail) is str else "?")
            return
        # Only the reporter's own callbacks, called by the framework: no frame of code under test
        # (the outermost frame is the bootstrap's). Walked while busy (each f_code read is an
        # audit event, about 0.1 ms a checkpoint to look at otherwise): frames and file names
        # only, read as exact str.
        me = get_ident()
        quiet(me)
        try:
            frame, asked = getframe(1), False
            while frame.f_back is not None:
                if kind(frame_file(frame)) == "untrusted":
                    asked = True
                    break
                frame = frame.f_back
        finally:
            leave(me)
        if asked:
            flag("framework_tampered", f"{event} asked from code under test")
            return
        if event == "patchgym.start":
            current[0] = args[0] if type(args[0]) is str else None
        elif event == "patchgym.result":
            tid, outcome, text = args
            if type(tid) is str and outcome in outcomes and (text is None or type(text) is str):
                write_result(tid, outcome, text)
        elif event == "patchgym.check":
            forget_test_sources()
            intact(baselines["framework"])
            intact(baselines["tests"])
            sealed(baselines["controls"])
        elif args[0] == "tests":
            # From now on the test modules and their classes (setUp, helpers, fixtures) must stay
            # as their files wrote them.
            loaded = [m for m in list(sys.modules.values())
                      if type(m) is type(sys) and vars(m).get("__file__") in trusted]
            baselines["tests"] = tuple(entries(loaded))
            baselines["controls"] = tuple(control_spaces(loaded))
        else:
            baselines["framework"] = tuple(entries([builtins, *watch_modules]))

    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"

    class_dict = type.__dict__["__dict__"].__get__
    module_type, member_kinds = type(sys), (staticmethod, classmethod, property)

    # Framework, reporter and builtins: checked after every test. Everything loaded so far:
    # checked once at the end. Only callables, classes and modules: data changes legitimately.
    # Kept by namespace (its watched names, their values), so a check compares each namespace
    # in one C loop (about 5,000 entries by the end of a unittest run).
    def entries(modules):
        seen = []
        for module in modules:
            space, owner = vars(module), module.__name__
            names, values = [], []
            for name, value in list(space.items()):
                if callable(value) or type(value) is module_type:
                    names.append(name)
                    values.append(value)
                # Through the real type and the class's own dict: nothing of a value's own runs.
                if issubclass(type(value), type):
                    members = class_dict(value)
                    if members.get("__module__") == owner:
                        attrs, kept = [], []
                        for attr, member in list(members.items()):
                            if callable(member) or isinstance(member, member_kinds):
                                attrs.append(attr)
                                kept.append(member)
                        seen.append((owner + "." + value.__name__, members, tuple(attrs),
                                     tuple(kept)))
            seen.append((owner, space, tuple(names), tuple(values)))
        return seen

    # Test classes and test functions are sealed once collected: the attributes frameworks read
    # to skip, expect a failure or stop (__unittest_skip__, __unittest_expecting_failure__,
    # pytestmark, __test__) must stay as the test files set them.
    def control(name):
        return type(name) is str and (name.startswith("__unittest") or
                                      name in ("__test__", "pytestmark", "_ShouldStop"))

    def control_spaces(modules):
        spaces = []
        for module in modules:
            for value in list(vars(module).values()):
                if issubclass(type(value), type) and class_dict(value).get("__module__") == module.__name__:
                    space = class_dict(value)
                    spaces.append((value.__name__, space, {n: v for n, v in list(space.items())
                                                           if control(n)}))
                    for name, member in list(space.items()):
                        if type(member) is type(control):
                            spaces.append((value.__name__ + "." + name, member.__dict__,
                                           {n: v for n, v in member.__dict__.items() if control(n)}))
                elif type(value) is type(control):
                    spaces.append((value.__name__, value.__dict__,
                                   {n: v for n, v in value.__dict__.items() if control(n)}))
        return spaces

    def sealed(spaces):
        for owner, space, saved in spaces:
            now = {n: v for n, v in list(space.items()) if control(n)}
            if now.keys() != saved.keys() or any(now[n] is not saved[n] for n in now):
                flag("framework_tampered", f"{owner}: an attribute the framework reads was changed")
                return False
        return True

    def baseline(what="framework"):
        """Take the framework's baseline, or ("tests") the loaded test modules' one."""
        audit("patchgym.baseline", what)

    def intact(snapshot):
        changed = []
        for owner, space, names, values in snapshot:
            # By identity: nothing of a value's own runs.
            if not all(map(is_, map(space.get, names, repeat(intact)), values)):
                changed += [f"{owner}.{name}" for name, value in zip(names, values)
                            if space.get(name, intact) is not value]
        if changed:
            flag("framework_tampered", ", ".join(changed[:5]))
        return not changed

    def library_or_test(fn):
        """Whether fn, and every layer it wraps, is code from a test file or the library."""
        # Every layer counts: a wrapper from code under test may point __wrapped__ at the real test.
        for _ in range(10):
            fn = getattr(fn, "__func__", fn)
            code = getattr(fn, "__code__", None)
            if code is None or kind(code.co_filename) == "untrusted":
                return False
            if not hasattr(fn, "__wrapped__"):
                return True
            fn = fn.__wrapped__
        return False

    def trusted_code(fn, label):
        if library_or_test(fn):
            return True
        problem("test_identity", f"{label} does not run code from a test file")
        return False

    def after_test():
        audit("patchgym.check")

    def start(tid):
        """The test now running (its observations are its own), or None between tests."""
        audit("patchgym.start", tid)

    # Before the snapshot: the replacements are the baseline.
    import _signal, signal as signal_module
    set_handler, get_signal, builtin_function = _signal.signal, _signal.getsignal, type(len)
    signal_events = frozenset({"patchgym.signal", "patchgym.install", "patchgym.getsignal"})
    _signal.signal = signal_module.signal = install
    _signal.getsignal = signal_module.getsignal = read_handler
    watch_modules, execute, classes = prepare(record, problem, baseline, after_test, trusted_code,
                                              library_or_test, start)
    framework_modules = (builtins, sys, *watch_modules)
    everything = entries([m for m in list(sys.modules.values())
                          if type(m) is type(sys) and m is not sys and m.__name__ != "__main__"])
    stdlib_names = set(sys.stdlib_module_names) | {n.partition(".")[0] for n in sys.modules}
    for entry in sys.path:
        try:
            stdlib_names.update(n.partition(".")[0] for n in os.listdir(entry))
        except OSError:
            pass

    # The reporter's own objects cannot be hidden: its classes are one __subclasses__() away, and
    # __closure__, __globals__ and cell contents are readable and writable without an audit event.
    # So they are sealed: every closure cell reachable from them (by identity), their class
    # namespaces, the reporter's globals and its private builtins. The seal and the check live
    # only in this frame's plain locals, and the check runs before the report is finished.
    seal_cells, seal_spaces = seal([hook, emit, execute, *classes])
    seal_spaces += ((globals(), dict(globals())), (builtins_of(), dict(builtins_of())))
    final_fd, final_update, final_write, final_close = fd, mac_update, os_write, os_close

    # Added only now: until the repository is on sys.path nothing runs that it would refuse, and
    # the framework's imports, the snapshots and the seal make about 1,500 audit events.
    sys.addaudithook(hook)
    sys.path.append(repo)
    sys.path.extend(config.get("sources", []))
    # Armed until the process ends: code under test can still run (finalizers, atexit, lookups
    # below that reach its objects), and it must find the same rules then.
    armed[0] = True
    code = execute(targets)

    broken = unsealed(seal_cells, seal_spaces)
    if broken is None:
        intact(everything)
        for name, module in list(sys.modules.items()):
            # Plain reads only: a repository object in sys.modules must not run code here.
            path = vars(module).get("__file__") if type(module) is type(sys) else None
            if type(name) is str and type(path) is str and str.startswith(path, repo + "/") \
                    and str.partition(name, ".")[0] in stdlib_names:
                flag("shadowed_module", name)
    else:
        # The cells emit uses may be rebound: write with the objects captured before arming.
        line = f"P framework_tampered {('patchgym reporter: ' + broken).encode().hex()}\n".encode()
        final_update(line)
        final_write(final_fd, line)
        raised.append("framework_tampered: patchgym reporter")
    final_write(final_fd, b"M " + mac_hexdigest().encode() + b"\n")
    final_close(final_fd)
    if raised:
        print("patchgym: the test run was tampered with (" + "; ".join(raised) +
              "); every result counts as an error", file=sys.stderr)
        code = 1
    return code
`;

const UNITTEST = String.raw`
def _prepare_unittest(record, problem, baseline, after_test, trusted_code, library_or_test, start):
    import sys, unittest, unittest.case, unittest.loader, unittest.result, unittest.runner
    import unittest.suite, unittest.util, difflib, pprint, traceback

    base = unittest.TextTestResult

    class Joined:
        # The runner's writes to stderr held until it flushes, then written at once: in -u each of
        # its four writes a test was a write to the pipe, and the orchestrator woke for each (about
        # 30 us of CPU a read). It flushes before every test and after its status, and the result
        # flushes before each description (code under test: str(test), docstrings), so the bytes,
        # and their order with what code under test writes, are the same as before.
        def __init__(self, stream):
            self.stream, self.held = stream, []

        def write(self, text):
            self.held.append(text)

        def flush(self):
            if self.held:
                text, self.held = "".join(self.held), []
                self.stream.write(text)
            self.stream.flush()

        def __getattr__(self, name):
            return getattr(self.stream, name)

    class Result(base):
        def getDescription(self, test):
            self.stream.flush()
            return base.getDescription(self, test)

        def startTest(self, test):
            method = getattr(test, "_testMethodName", None)
            if method is not None:
                trusted_code(getattr(type(test), method, None), test.id())
            base.startTest(self, test)
            start(test.id())

        def stopTest(self, test):
            start(None)
            base.stopTest(self, test)
            after_test()

        def addSuccess(self, test):
            base.addSuccess(self, test); record(test.id(), "passed")

        def addFailure(self, test, err):
            base.addFailure(self, test, err); record(test.id(), "failed", self.failures[-1][1])

        def addError(self, test, err):
            base.addError(self, test, err)
            record(getattr(test, "id", lambda: str(test))(), "error", self.errors[-1][1])

        def addSkip(self, test, reason):
            base.addSkip(self, test, reason); record(test.id(), "skipped")

        def addExpectedFailure(self, test, err):
            # An expected failure is a failure: the test's body did not run to its end.
            base.addExpectedFailure(self, test, err); record(test.id(), "failed", self._exc_info_to_string(err, test))

        def addUnexpectedSuccess(self, test):
            base.addUnexpectedSuccess(self, test); record(test.id(), "failed")

        def addSubTest(self, test, subtest, err):
            base.addSubTest(self, test, subtest, err)
            if err is not None:
                failed = issubclass(err[0], test.failureException)
                record(test.id(), "failed" if failed else "error", self._exc_info_to_string(err, test))

    def execute(targets):
        # Code that reads its own argv sees the command a person runs, not the bootstrap's "-c".
        sys.argv = ["python3 -m unittest", *(t[:-3].replace("/", ".") if t.endswith(".py") else
                    t.replace(".py::", ".").replace("/", ".").replace("::", ".") for t in targets)]
        baseline()
        suite, loader, load_failed = unittest.TestSuite(), unittest.TestLoader(), False
        for target in targets:
            path, _, rest = target.partition("::")
            name = path[:-3].replace("/", ".") + ("." + rest.replace("::", ".") if rest else "")
            try:
                suite.addTests(loader.loadTestsFromName(name))
            except Exception as exc:
                print(f"Cannot load {target}: {type(exc).__name__}: {exc}", file=sys.stderr)
                record(target, "error", f"{type(exc).__name__}: {exc}")
                load_failed = True
        for error in loader.errors:
            print(error, file=sys.stderr)
        baseline("tests")
        after_test()
        stream = Joined(sys.stderr)
        runner = unittest.TextTestRunner(stream=stream, verbosity=2, resultclass=Result)
        try:
            result = runner.run(suite)
        finally:
            stream.flush()
        ok = result.wasSuccessful() and not loader.errors and not load_failed
        return 0 if ok else 1

    modules = [unittest.case, unittest.result, unittest.runner, unittest.loader, unittest.suite,
               unittest.util, unittest, traceback, difflib, pprint]
    return modules, execute, [Result, Joined]
`;

const PYTEST = String.raw`
def _prepare_pytest(record, problem, baseline, after_test, trusted_code, library_or_test, start):
    import os, sys, pytest, pluggy, _pytest
    import _pytest.assertion.rewrite, _pytest.assertion.util, _pytest.config, _pytest.fixtures
    import _pytest.main, _pytest.nodes, _pytest.outcomes, _pytest.python, _pytest.reports
    import _pytest.runner, _pytest.skipping, _pytest.unittest, _pytest._code.code

    configured = []

    def hooks_intact():
        # A hook implementation from code under test (registered through any route to the
        # plugin manager) could rewrite reports: every one must be library or test code.
        for config in configured:
            for name, caller in list(vars(config.hook).items()):
                get = getattr(caller, "get_hookimpls", None)
                for impl in (get() if get else []):
                    if not library_or_test(impl.function):
                        problem("framework_tampered", f"pytest hook {name} from code under test")
                        return False
        return after_test()

    class Recorder:
        def pytest_collectreport(self, report):
            if report.failed:
                record(report.nodeid or "(collection)", "error", report.longreprtext)

        @pytest.hookimpl(trylast=True)
        def pytest_configure(self, config):
            configured.append(config)
            baseline()

        def pytest_plugin_registered(self, plugin, manager):
            if configured:
                hooks_intact()

        def pytest_collection_finish(self, session):
            baseline("tests")
            hooks_intact()

        def pytest_runtest_setup(self, item):
            fn = getattr(item, "function", None) or getattr(item, "obj", None)
            trusted_code(fn, item.nodeid)
            start(item.nodeid)

        def pytest_runtest_logreport(self, report):
            xfail = hasattr(report, "wasxfail")
            if report.when == "call":
                if xfail:
                    # An expected failure, or an xfail() raised anywhere, is a failure.
                    record(report.nodeid, "failed", report.longreprtext)
                else:
                    record(report.nodeid, report.outcome, report.longreprtext)
            elif report.failed:
                record(report.nodeid, "error", report.longreprtext)
            elif report.skipped:
                record(report.nodeid, "skipped")
            if report.when == "teardown":
                start(None)
                hooks_intact()

    def execute(targets):
        # Native tracebacks: pytest's own style parses the whole test file for every failure,
        # which grading's canaries (failing by design) and long rewritten lines make slow.
        # One test file that cannot be imported (a test of code the fix adds) must not hide the
        # outcomes of every other file.
        args = ["-q", "-p", "no:cacheprovider", "--import-mode=append", "--tb=native",
                "--continue-on-collection-errors", *targets]
        # Code that reads its own argv (a conftest looking for an option) sees what
        # "python3 -m pytest TARGETS" gives it, not the bootstrap's "-c".
        sys.argv = [os.path.join(os.path.dirname(pytest.__file__), "__main__.py"), *targets]
        return int(pytest.main(args, plugins=[Recorder()]))

    modules = [pytest, pluggy, _pytest.assertion.rewrite, _pytest.assertion.util, _pytest.config,
               _pytest.fixtures, _pytest.main, _pytest.nodes, _pytest.outcomes, _pytest.python,
               _pytest.reports, _pytest.runner, _pytest.skipping, _pytest.unittest,
               _pytest._code.code]
    return modules, execute, [Recorder]
`;
