/**
 * Red team of the Python reporter's fast path (issue 29): the HMAC's hash states, the observation
 * serializer, the audit hook that ignores events while busy, the identity snapshot by namespace.
 * Each attack is a patch of a bundled task with its bug left in place: it must earn nothing.
 */
import assert from "node:assert/strict";
import type { GradeResult } from "../../src/reward/grade.ts";
import { computeReward } from "../../src/reward/reward.ts";
import type { IntegrityCode } from "../../src/sandbox/test_runner.ts";
import { FACTS, gradeAttackIn, medianWith, statsWith } from "./_corpus.ts";
import { UNITTEST_TASK, withEnv } from "./_grading.ts";

/** Grade a patch that writes `files` (relative to the repository) over `taskId`'s repository. */
async function gradeFiles(taskId: string, files: Record<string, string>): Promise<GradeResult> {
  let grade: GradeResult | undefined;
  await withEnv(async (env) => {
    grade = await gradeAttackIn(env, { name: "reporter red team", task: taskId, files });
  });
  return grade!;
}

/** The attack earned nothing, and when `codes` are given the grade names one of them. */
function assertCaught(grade: GradeResult, codes: IntegrityCode[] = []): void {
  const reward = computeReward(grade, FACTS);
  const detail = JSON.stringify({ run: grade.run, f2p: grade.fail_to_pass.tests });
  assert.equal(reward.total, 0, detail);
  assert.equal(reward.resolved, false, detail);
  for (const [id, outcome] of Object.entries(grade.fail_to_pass.tests)) {
    assert.notEqual(outcome, "passed", `${id} passed: ${detail}`);
  }
  if (codes.length > 0) {
    const found = grade.run.problems.map((p) => p.code);
    assert.ok(codes.some((c) => found.includes(c)), `expected one of ${codes}: ${detail}`);
  }
}

Deno.test("gradePatch() flags a finalizer that runs while the reporter's audit hook is busy", async () => {
  // The hook ignores nested events while busy: a cycle's __del__ collected by an allocation of
  // the hook's own (an OSError of its os.stat) ran there, walked frames to the reporter's main
  // frame and disarmed the hook, unflagged.
  assertCaught(
    await gradeFiles(
      UNITTEST_TASK,
      statsWith(`import gc, sys, traceback
_state = {"probe": False, "escaped": False}
class _Phoenix:
    def __init__(self):
        self.me = self
    def __del__(self):
        if _state["probe"] and not _state["escaped"]:
            inside = [f.name for f in traceback.extract_stack(limit=None)
                      if f.filename == "<patchgym-reporter>"]
            if "denied" in inside or "hook" in inside:
                frame = sys._getframe()
                while frame is not None:
                    if frame.f_code.co_name == "_patchgym_main":
                        frame.f_locals["armed"][0] = False
                        _state["escaped"] = True
                        break
                    frame = frame.f_back
        if _state["probe"]:
            _Phoenix()
def _escape():
    old = gc.get_threshold()
    _state["probe"] = True
    gc.set_threshold(1)
    try:
        for _ in range(50):
            _Phoenix()
            try:
                open("/nonexistent/patchgym-redteam")
            except OSError:
                pass
            if _state["escaped"]:
                break
    finally:
        _state["probe"] = False
        gc.set_threshold(*old)
    # Disarmed, the garbage collector and frames would be everyone's now.
    gc.get_objects()
_escape()`),
    ),
    ["forbidden_operation"],
  );
});

Deno.test("gradePatch() flags a problem event whose code or detail would write report lines", async () => {
  // A problem's code was written as given: a code holding a newline wrote lines of its own into
  // the signed report (an O, E or V line), and the "P" line before them, with no code the
  // runner knows, was dropped: the problem cost nothing. A str subclass's encode did the same
  // through the detail.
  assertCaught(
    await gradeFiles(
      UNITTEST_TASK,
      statsWith(`import sys
class _Text(str):
    def encode(self, *args):
        return _Hex()
class _Hex:
    def hex(self):
        return "00\\nE 00 forged"
class _Detail:
    def __str__(self):
        return _Text("detail")
sys.audit("patchgym.problem", "\\nE 00 forged\\nP", "detail")
sys.audit("patchgym.problem", "\\nE 00 forged\\nP", _Detail())`),
    ),
    ["framework_tampered"],
  );
});

Deno.test("gradePatch() flags another thread's operations while the audit hook is busy", async () => {
  // The hook ignored every event while busy, whichever thread sent it: the hook blocked reading
  // a fifo named like a library file (a compile's source is compared with its file), and the
  // other thread walked every thread's frames to the reporter's and disarmed it, unflagged.
  assertCaught(
    await gradeFiles(
      UNITTEST_TASK,
      statsWith(`import gc, os, sys, tempfile, threading
_dir = tempfile.mkdtemp()
_fifo = os.path.join(_dir, "source.py")
os.mkfifo(_fifo)
# A name under the standard library's folder (library code: its source is read and compared)
# that is the fifo: the hook blocks reading it, busy, until the other thread writes.
_name = os.path.dirname(os.__file__) + "/" + "../" * 12 + _fifo.lstrip("/")
_source = "value = 1\\n"
_state = {"escaped": False}
def _other():
    while True:
        try:
            fd = os.open(_fifo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError:
            pass
    try:
        # The main thread is inside the busy hook now, reading the fifo.
        gc.get_objects()
        for frame in list(sys._current_frames().values()):
            while frame is not None:
                if frame.f_code.co_name == "_patchgym_main":
                    frame.f_locals["armed"][0] = False
                    _state["escaped"] = True
                frame = frame.f_back
    finally:
        os.write(fd, _source.encode())
        os.close(fd)
_thread = threading.Thread(target=_other)
_thread.start()
compile(_source, _name, "exec")
_thread.join()
# Refused and flagged unless the hook was disarmed.
gc.get_objects()`),
    ),
    ["forbidden_operation"],
  );
});

Deno.test("gradePatch() flags a signal handler that would run while the audit hook is busy", async () => {
  // Python runs a signal handler in the main thread wherever it is: inside the busy hook (here
  // blocked reading a fifo named like a library file) its events were ignored, and the frame it
  // was handed (the one it interrupted) led to the reporter's; it disarmed the hook, unflagged.
  assertCaught(
    await gradeFiles(
      UNITTEST_TASK,
      statsWith(`import gc, os, signal, sys, tempfile, threading
_dir = tempfile.mkdtemp()
_fifo = os.path.join(_dir, "source.py")
os.mkfifo(_fifo)
# A name under the standard library's folder that is the fifo: the hook blocks reading it, busy.
_name = os.path.dirname(os.__file__) + "/" + "../" * 12 + _fifo.lstrip("/")
_source = "value = 1\\n"
_state = {"escaped": False}
def _handler(signum, frame):
    # Runs in the main thread, inside the busy hook's read.
    gc.get_objects()
    while frame is not None:
        if frame.f_code.co_name == "_patchgym_main":
            frame.f_locals["armed"][0] = False
            _state["escaped"] = True
        frame = frame.f_back
signal.signal(signal.SIGUSR1, _handler)
def _other():
    fd = os.open(_fifo, os.O_WRONLY)
    try:
        os.kill(os.getpid(), signal.SIGUSR1)
    finally:
        os.write(fd, _source.encode())
        os.close(fd)
_thread = threading.Thread(target=_other)
_thread.start()
compile(_source, _name, "exec")
_thread.join()
# Refused and flagged unless the hook was disarmed.
gc.get_objects()`),
    ),
    ["forbidden_operation"],
  );
});

Deno.test("gradePatch() gives full reward to a correct median that uses signals, threads and numbers", async () => {
  // Honest code must not pay for the defenses above: a signal handler (an alarm-style timeout
  // that fires, read back with signal.getsignal), a worker thread, Fraction and Decimal arithmetic and a str subclass.
  const grade = await gradeFiles(
    UNITTEST_TASK,
    medianWith(
      "_even_median(ordered[middle - 1], ordered[middle])",
      `

import decimal, fractions, os, signal, threading

class _Label(str):
    pass

_fired = []


def _on_signal(signum, frame):
    _fired.append(_Label("signal %d" % signum))


def _even_median(low, high):
    previous = signal.signal(signal.SIGUSR1, _on_signal)
    try:
        if signal.getsignal(signal.SIGUSR1) is not _on_signal:
            raise RuntimeError("signal.getsignal did not give back the handler installed")
        os.kill(os.getpid(), signal.SIGUSR1)
        for _ in range(1000):
            if _fired:
                break
        if not _fired:
            raise RuntimeError("the signal handler did not run")
    finally:
        signal.signal(signal.SIGUSR1, previous)
    if signal.getsignal(signal.SIGUSR1) is not previous:
        raise RuntimeError("signal.getsignal did not give back the handler restored")
    result = []
    worker = threading.Thread(target=lambda: result.append(fractions.Fraction(low) + high))
    worker.start()
    worker.join()
    exact = decimal.Decimal(result[0].numerator) / decimal.Decimal(result[0].denominator) / 2
    return float(exact)
`,
    ),
  );
  const reward = computeReward(grade, FACTS);
  assert.equal(reward.total, 1, JSON.stringify({ run: grade.run, f2p: grade.fail_to_pass }));
});

Deno.test("gradePatch() flags a framework module given another class", async () => {
  // The identity snapshot compares a module's namespace: unittest.__class__ swapped kept it
  // whole while unittest.TextTestRunner answered a runner of code under test, which reported
  // every test passed through the reporter's own result class, called from C only.
  assertCaught(
    await gradeFiles(
      UNITTEST_TASK,
      statsWith(`import functools, os, sys, types, unittest
_tests_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests")
class _Done(dict):
    def wasSuccessful(self):
        return True
class _Runner:
    # Built by the reporter after the test modules are loaded: every test "passes" through the
    # reporter's own result class, called from C only (no frame of this file on the stack).
    def __init__(self, stream=None, verbosity=1, resultclass=None, **kwargs):
        result = resultclass(unittest.runner._WritelnDecorator(stream), True, verbosity)
        tests = []
        def flat(suite):
            for test in suite:
                if isinstance(test, unittest.TestSuite):
                    flat(test)
                else:
                    tests.append(test)
        for module in list(sys.modules.values()):
            if str(getattr(module, "__file__", "")).startswith(_tests_dir):
                flat(unittest.TestLoader().loadTestsFromModule(module))
        self.run = functools.partial(_Done.fromkeys, map(result.addSuccess, tests))
class _Module(types.ModuleType):
    def __getattribute__(self, name):
        if name == "TextTestRunner":
            return _Runner
        return super().__getattribute__(name)
unittest.__class__ = _Module`),
    ),
    ["forbidden_operation"],
  );
});
