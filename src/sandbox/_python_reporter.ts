/**
 * The Python test reporters (unittest and pytest), run as `python3 -c` programs. They write a
 * per-test outcome report signed with HMAC-SHA256. The key and the report path arrive on stdin,
 * not in argv or the environment, and live only in a function's locals; the functions that write
 * the report are bound before any code under test is imported, so patching `json`, `hmac` or
 * `open` from that code changes nothing. After the run they check that the code under test did
 * not replace parts of the test framework (e.g. `TestCase.assertEqual`); if it did, every result
 * counts as an error.
 *
 * Limits, stated honestly: the reporter shares a process with the code under test, so code written
 * specifically against this reporter (walking interpreter frames to find the key) could still
 * forge a report. deno test has no such gap: its report is written by the runtime.
 */

const PRELUDE = String.raw`
def _patchgym(run):
    import builtins, hashlib, hmac, json, os, sys, types
    dumps, new_mac, sha256, opener = json.dumps, hmac.new, hashlib.sha256, builtins.open
    config = json.loads(sys.stdin.readline())
    sys.stdin.close()
    key, report = bytes.fromhex(config["key"]), config["report"]
    sys.path.insert(0, os.getcwd())
    def snapshot(objects):
        seen = {}
        for obj in objects:
            for name, value in list(vars(obj).items()):
                seen[(getattr(obj, "__name__", repr(obj)), name)] = (obj, value)
        return seen
    watched = {}
    def watch(*objects):
        watched.update(snapshot(objects))
    outcomes, code = run(config["targets"], watch)
    tampered = sorted(f"{owner}.{name}" for (owner, name), (obj, value) in watched.items()
                      if vars(obj).get(name, watched) is not value)
    if tampered:
        print("patchgym: the code under test replaced parts of the test framework ("
              + ", ".join(tampered[:5]) + "); every result counts as an error", file=sys.stderr)
        outcomes = {tid: "error" for tid in outcomes}
        code = 1
    payload = dumps({"outcomes": outcomes, "tampered": tampered}, sort_keys=True)
    with opener(report, "w") as f:
        f.write(dumps({"payload": payload, "mac": new_mac(key, payload.encode(), sha256).hexdigest()}))
    return code
`;

/** unittest: targets are `path.py` or `path.py::Class::test`; ids are unittest's dotted ids. */
export const UNITTEST_REPORTER = PRELUDE + String.raw`
def _run_unittest(targets, watch):
    import sys, unittest, unittest.case, unittest.loader, unittest.result, unittest.runner, unittest.suite
    watch(unittest.case, unittest.result, unittest.runner, unittest.loader, unittest.suite,
          unittest.TestCase, unittest.TestResult, unittest.TextTestResult, unittest.TestSuite,
          unittest.TestLoader, unittest.TextTestRunner)
    outcomes = {}
    order = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}
    def record(test, outcome):
        tid = test.id() if hasattr(test, "id") else str(test)
        if order[outcome] >= order[outcomes.get(tid, "passed")]:
            outcomes[tid] = outcome
    base = unittest.TextTestResult
    class Result(base):
        def addSuccess(self, test):
            base.addSuccess(self, test); record(test, "passed")
        def addFailure(self, test, err):
            base.addFailure(self, test, err); record(test, "failed")
        def addError(self, test, err):
            base.addError(self, test, err); record(test, "error")
        def addSkip(self, test, reason):
            base.addSkip(self, test, reason); record(test, "skipped")
        def addExpectedFailure(self, test, err):
            base.addExpectedFailure(self, test, err); record(test, "passed")
        def addUnexpectedSuccess(self, test):
            base.addUnexpectedSuccess(self, test); record(test, "failed")
        def addSubTest(self, test, subtest, err):
            base.addSubTest(self, test, subtest, err)
            if err is not None:
                record(test, "failed" if issubclass(err[0], test.failureException) else "error")
    suite, loader, load_failed = unittest.TestSuite(), unittest.TestLoader(), False
    for target in targets:
        path, _, rest = target.partition("::")
        name = path[:-3].replace("/", ".") + ("." + rest.replace("::", ".") if rest else "")
        try:
            suite.addTests(loader.loadTestsFromName(name))
        except Exception as exc:
            print(f"Cannot load {target}: {type(exc).__name__}: {exc}", file=sys.stderr)
            outcomes[target] = "error"
            load_failed = True
    for error in loader.errors:
        print(error, file=sys.stderr)
    result = unittest.TextTestRunner(stream=sys.stderr, verbosity=2, resultclass=Result).run(suite)
    return outcomes, 0 if result.wasSuccessful() and not loader.errors and not load_failed else 1
import sys
sys.exit(_patchgym(_run_unittest))
`;

/** pytest: outcomes from its report hooks; ids are pytest node ids (`file::Class::test`). */
export const PYTEST_REPORTER = PRELUDE + String.raw`
def _run_pytest(targets, watch):
    import pytest, _pytest.main, _pytest.outcomes, _pytest.python, _pytest.reports, _pytest.runner
    watch(_pytest.main, _pytest.outcomes, _pytest.python, _pytest.reports, _pytest.runner,
          _pytest.reports.TestReport, _pytest.runner.CallInfo)
    outcomes = {}
    order = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}
    def record(tid, outcome):
        if order[outcome] >= order[outcomes.get(tid, "passed")]:
            outcomes[tid] = outcome
    class Recorder:
        def pytest_collectreport(self, report):
            if report.failed:
                record(report.nodeid or "(collection)", "error")
        def pytest_runtest_logreport(self, report):
            xfail = hasattr(report, "wasxfail")
            if report.when == "call":
                if xfail:
                    record(report.nodeid, "passed" if report.skipped else "failed")
                else:
                    record(report.nodeid, report.outcome)
            elif report.failed:
                record(report.nodeid, "error")
            elif report.skipped:
                record(report.nodeid, "skipped")
    code = pytest.main(["-q", "-p", "no:cacheprovider", *targets], plugins=[Recorder()])
    return outcomes, int(code)
import sys
sys.exit(_patchgym(_run_pytest))
`;
